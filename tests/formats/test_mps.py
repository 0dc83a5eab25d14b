import gzip

import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems import MILPSolution, evaluate
from frontierco.problems.files import read_instance, read_solution, write_solution
from frontierco.problems.generate import generate
from frontierco.problems.milp.mps import read_milp, write_milp


def test_every_miplib_file_reads(mirror):
    files = sorted((mirror / "milp" / "miplib").glob("*.mps"))
    assert len(files) == 34
    for path in files:
        instance = read_milp(path)
        assert instance.num_cols > 0 and instance.integrality.any(), path.name


@pytest.mark.parametrize(
    "family, params", [("milp-cauction", {"items": 20, "bids": 40}), ("milp-facility", {"customers": 5, "facilities": 4})]
)
def test_round_trip_keeps_sense_bounds_and_integrality(tmp_path, family, params):
    instance = generate(family, "m", 1, params).instance
    for suffix in (".mps", ".lp"):
        write_milp(tmp_path / f"m{suffix}", instance)
        again = read_milp(tmp_path / f"m{suffix}")
        assert again.sense == instance.sense
        assert np.array_equal(again.integrality, instance.integrality)
        assert abs(again.matrix - instance.matrix).max() < 1e-9
        assert np.array_equal(again.row_upper, instance.row_upper) and np.array_equal(again.col_upper, instance.col_upper)


def test_solution_file_round_trip(tmp_path):
    instance = generate("milp-indset", "i", 1, {"nodes": 20}).instance
    x = MILPSolution(np.zeros(instance.num_cols))
    write_solution(tmp_path / "x.sol", instance, x)
    assert evaluate(instance, read_solution(tmp_path / "x.sol", instance)).objective == 0


@pytest.mark.parametrize(
    "text, line, expected",
    [
        ("NAME t\nROWS\n N obj\n X c1\nCOLUMNS\n x obj 1\nENDATA\n", 4, ""),
        ("NAME t\nROWS\n N obj\nCOLUMNS\n x obj one\nENDATA\n", 5, ""),
        ("NAME t\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n ZZ B x 1\nENDATA\n", 7, ""),
        ("NAME t\nROWS\n N obj\nENDATA\n", 0, ""),
        # accepted silently before: a NaN coefficient, rows ROWS did not declare, a column in two blocks
        ("NAME t\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1 c1 nan\nRHS\n RHS c1 1\nENDATA\n", 6, "a finite value in COLUMNS"),
        ("NAME t\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1 c2 1\nRHS\n RHS c1 1\nENDATA\n", 6, "a row declared in ROWS, got 'c2'"),
        ("NAME t\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1\nRHS\n RHS c9 1\nENDATA\n", 8, "a row declared in ROWS, got 'c9' in RHS"),
        ("NAME t\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1\nRHS\n RHS c1 inf\nENDATA\n", 8, "a finite value in RHS"),
        ("NAME t\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1\n y c1 1\n x c1 2\nENDATA\n", 8, "column 'x' in one block"),
    ],
)
def test_malformed_mps_names_the_line(tmp_path, text, line, expected):
    path = tmp_path / "bad.mps"
    path.write_text(text)
    with pytest.raises(FormatError) as info:
        read_instance(path)
    assert info.value.line == line and expected in info.value.expected


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("empty.lp", b"", "at least one variable"),  # was read as a model of nothing
        ("blank.lp", b"  \n\n", "at least one variable"),
        ("cut.lp.gz", gzip.compress(b"Maximize\n obj: x\nSubject To\n c1: x <= 1\nEnd\n")[:-10], "correctly compressed"),  # was read
    ],
    ids=["empty", "blank", "truncated-gzip"],
)
def test_an_lp_file_that_holds_no_model_or_is_broken_is_refused(tmp_path, name, content, expected):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(FormatError, match=expected):
        read_milp(tmp_path / name)
