import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems.files import read_instance, write_instance
from frontierco.problems.generate import generate

CPMP = """4 2
0 0 2 1

1.9 0 2 1
10 0 2 1
12.5 0 2 1
"""


def test_reads_frontierco_layout_skipping_empty_lines(tmp_path):
    (tmp_path / "a.cpmp").write_text(CPMP)
    instance = read_instance(tmp_path / "a.cpmp")
    assert (instance.n, instance.p) == (4, 2)
    assert instance.coords[:, 0].tolist() == [0, 1.9, 10, 12.5]
    assert instance.capacity.tolist() == [2] * 4 and instance.demand.tolist() == [1] * 4


def test_write_then_read_is_exact(tmp_path):
    instance = generate("cpmp-frontierco", "g", 3, {"n": 40, "p": 4}).instance
    write_instance(tmp_path / "g.cpmp", instance)
    again = read_instance(tmp_path / "g.cpmp")
    assert again.p == instance.p
    for field in ("coords", "capacity", "demand"):
        assert np.array_equal(getattr(again, field), getattr(instance, field))


@pytest.mark.parametrize(
    "text, line, expected",
    [
        (CPMP.rsplit("\n", 2)[0] + "\n", 5, "4 point lines as the header says, the file has 3"),
        (CPMP + "1 1 1 1\n", 7, "nothing after the 4 point lines"),
        (CPMP.replace("4 2", "4 5"), 1, "1 <= p <= n"),
        (CPMP.replace("4 2", "4"), 1, "'n p' of two integers"),
        (CPMP.replace("10 0 2 1", "10 0 2"), 5, "four numbers"),
        (CPMP.replace("10 0 2 1", "10 0 -2 1"), 5, "non-negative"),
    ],
)
def test_lying_input_is_one_line_naming_the_line(tmp_path, text, line, expected):
    (tmp_path / "bad.cpmp").write_text(text)
    with pytest.raises(FormatError) as error:
        read_instance(tmp_path / "bad.cpmp")
    assert f":{line}:" in str(error.value) and expected in str(error.value)


def test_frontiercos_txt_files_read_as_p_median_as_they_are(tmp_path):
    """FrontierCO names its CPMP test files .txt (SJC1.txt, ...), a suffix Naderi's FJSP files share: the first two
    lines decide, so a user points the suite at FrontierCO's file unchanged."""
    import gzip

    (tmp_path / "SJC1.txt").write_text(CPMP)
    instance = read_instance(tmp_path / "SJC1.txt")
    assert (instance.name, instance.n, instance.p) == ("SJC1", 4, 2)
    assert instance.coords[:, 0].tolist() == [0, 1.9, 10, 12.5]
    (tmp_path / "SJC2.txt.gz").write_bytes(gzip.compress(CPMP.encode()))
    assert read_instance(tmp_path / "SJC2.txt.gz").p == 2
    (tmp_path / "bad.txt").write_text(CPMP.replace("10 0 2 1", "10 0 2 x"))
    with pytest.raises(FormatError, match="four numbers") as error:
        read_instance(tmp_path / "bad.txt")
    assert error.value.line == 5
