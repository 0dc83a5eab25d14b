"""problems/common/tokens.py: the numbers of the formats as they write them, checked through every reader that takes
numbers from a file (instances and solutions)."""

import dataclasses

import pytest

from frontierco.errors import FormatError
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.common.tokens import UNICODE_SPACE, fields, real, whole
from frontierco.problems.files import read_instance, read_solution
from frontierco.problems.routing.tsplib import STREAM_FROM


@pytest.mark.parametrize("token", ["1_000", "0_3", "1_0.5", "1e1_0", "\u0663", "12\u00a0"])
def test_a_number_with_an_underscore_or_another_script_is_no_number(token):
    with pytest.raises(ValueError):
        whole(token) if "." not in token and "e" not in token else real(token)
    with pytest.raises(ValueError):
        real(token)


@pytest.mark.parametrize(("token", "value"), [("12", 12), ("-3", -3), ("+7", 7), ("007", 7), (" 5\t", 5)])
def test_a_whole_number_reads_as_int_reads_it(token, value):
    assert whole(token) == int(token) == value


@pytest.mark.parametrize("token", ["1.5", "-2e3", ".5", "5.", "inf", "nan", "1E+07"])
def test_a_real_number_reads_as_float_reads_it(token):
    assert repr(real(token)) == repr(float(token))


@pytest.mark.parametrize("token", ["", "x", "1.5", "1 2"])
def test_what_int_refuses_whole_refuses(token):
    with pytest.raises(ValueError):
        whole(token)


TSP = "NAME : t\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 3 0\n3 3 4\n4 0 4\nEOF\n"
VRP = (
    "NAME : v\nTYPE : CVRP\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 3 0\n3 3 4\n"
    "DEMAND_SECTION\n1 0\n2 4\n3 5\nDEPOT_SECTION\n1\n-1\nEOF\n"
)
MATRIX = (
    "NAME : m\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : UPPER_ROW\nEDGE_WEIGHT_SECTION\n5 6\n7\nEOF\n"
)
STP = (
    "33D32945 STP File, STP Format Version 1.0\nSECTION Graph\nNodes 3\nEdges 2\nE 1 2 1\nE 2 3 2.5\nEND\n"
    "SECTION Terminals\nTerminals 2\nT 1\nT 3\nEND\nSECTION Coordinates\nDD 1 0 0\nDD 2 1 0\nDD 3 2 0\nEND\nEOF\n"
)
MPS = "NAME t\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1 c1 1\n y obj 2 c1 1\nRHS\n rhs c1 4\nBOUNDS\n UP bnd x 3\nENDATA\n"
# (file, its text, the line changed, its number): every reader of the suite that takes numbers from a file's text
INSTANCES = [
    ("t.tsp", TSP, "DIMENSION : 4", 3),  # a specification (vrplib's parser took int('0_4'))
    ("t.tsp", TSP, "3 3 4", 8),  # a coordinate
    ("m.tsp", MATRIX, "5 6", 7),  # an explicit weight
    ("v.vrp", VRP, "CAPACITY : 10", 4),
    ("v.vrp", VRP, "2 4", 12),  # a demand
    ("d.mis", "p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n", "e 2 3", 3),
    ("h.mis", "p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n", "p edge 4 3", 1),
    ("p.gr", "p ds 3 2\n1 2\n2 3\n", "2 3", 3),
    ("q.gr", "p ds 3 2\n1 2\n2 3\n", "p ds 3 2", 1),
    ("g.graph", "3 2\n2\n1 3\n2\n", "1 3", 3),
    ("f.cnf", "p cnf 3 2\n1 -2 0\n2 3 0\n", "2 3 0", 3),
    ("j.fjs", "2 2 1\n1 2 1 3 2 4\n1 1 2 3\n", "1 1 2 3", 3),
    ("n.txt", "2\n2\n1 1\n3 4\n0 5\n", "3 4", 4),  # Naderi's form
    ("s.stp", STP, "E 2 3 2.5", 6),  # a weight
    ("s.stp", STP, "Nodes 3", 3),
    ("s.stp", STP, "DD 3 2 0", 16),  # a coordinate
    ("c.plc", "2 2\n10 5\n10 6\n3 4\n1 2\n3 4\n", "1 2", 5),
    ("c.cap", "2 2\n10 5\n10 6\n3 1 2\n4 3 4\n", "4 3 4", 5),
    ("p.cpmp", "3 1\n0 0 10 1\n1 0 10 1\n0 1 10 1\n", "1 0 10 1", 3),
    ("x.mps", MPS, " y obj 2 c1 1", 7),
]


def _underscored(line: str) -> str:
    """The line with '0_' before its last digit: a number still to Python's int() and float()."""
    at = max(k for k, c in enumerate(line) if c.isdigit())
    return line[:at] + "0_" + line[at:]


@pytest.mark.parametrize(("name", "text", "old", "line"), INSTANCES)
def test_a_number_with_an_underscore_is_a_format_error_in_every_reader(tmp_path, name, text, old, line):
    """int('0_3') and float('1_0.5') are numbers to Python; in no format of the suite is '_' part of a number."""
    (tmp_path / name).write_text(text)
    read_instance(tmp_path / name)  # the file as it is reads
    assert old in text.splitlines()
    (tmp_path / name).write_text(text.replace(old, _underscored(old)))
    with pytest.raises(FormatError) as caught:
        read_instance(tmp_path / name)
    assert caught.value.line == line, str(caught.value)


def test_a_name_with_an_underscore_still_reads(tmp_path):
    (tmp_path / "x.vrp").write_text(VRP.replace("NAME : v", "NAME : X-n101_k25").replace("DIMENSION : 3", "DIMENSION : 3\nCOMMENT : 1_000"))
    assert read_instance(tmp_path / "x.vrp").name == "X-n101_k25"
    (tmp_path / "x.stp").write_text(STP.replace("SECTION Graph", 'SECTION Comment\nName "a_1 2_3"\nEND\nSECTION Graph'))
    assert read_instance(tmp_path / "x.stp").n == 3


TOUR = "NAME : t.tour\nTYPE : TOUR\nDIMENSION : 4\nTOUR_SECTION\n1\n2\n3\n4\n-1\nEOF\n"
# (instance file, its text, solution file, its text, the line changed, its number)
SOLUTIONS = [
    ("t.tsp", TSP, "t.tour", TOUR, "3", 7),
    ("v.vrp", VRP, "v.sol", "Route #1: 1 2\nCost 10\n", "Route #1: 1 2", 1),
    ("d.mis", "p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n", "d.sol", "1\n3\n", "3", 2),
    ("p.gr", "p ds 3 2\n1 2\n2 3\n", "p.sol", "1\n2\n", "2", 2),
    ("c.plc", "2 2\n10 5\n10 6\n3 4\n1 2\n3 4\n", "c.txt", "open 1\n1 1 1.0\n2 1 1.0\n", "2 1 1.0", 3),
    ("p.cpmp", "3 1\n0 0 10 1\n1 0 10 1\n0 1 10 1\n", "p.txt", "medians 1\n1\n1\n1\n", "medians 1", 1),
    ("s.stp", STP, "s.txt", "1 2\n2 3\n", "2 3", 2),
    ("j.fjs", "2 2 1\n1 2 1 3 2 4\n1 1 2 3\n", "j.txt", "1 1 1 0\n2 1 2 0\n", "2 1 2 0", 2),
    ("x.mps", MPS, "x.txt", "x 1\ny 0\n", "y 0", 2),
]


@pytest.mark.parametrize(("name", "text", "solution", "body", "old", "line"), SOLUTIONS)
def test_a_number_with_an_underscore_in_a_solution_file_is_a_format_error(tmp_path, name, text, solution, body, old, line):
    (tmp_path / name).write_text(text)
    instance = read_instance(tmp_path / name)
    (tmp_path / solution).write_text(body)
    read_solution(tmp_path / solution, instance)  # the file as it is reads
    assert old in body.splitlines()
    (tmp_path / solution).write_text("\n".join(_underscored(row) if row == old else row for row in body.splitlines()) + "\n")
    with pytest.raises(FormatError) as caught:
        read_solution(tmp_path / solution, instance)
    assert caught.value.line == line, str(caught.value)


def test_a_stated_cost_with_an_underscore_is_a_format_error(tmp_path):
    from frontierco.problems.routing.tsplib import stated_cost

    (tmp_path / "v.sol").write_text("Route #1: 1 2\nCost: 10\n")
    assert stated_cost(tmp_path / "v.sol") == 10
    (tmp_path / "v.sol").write_text("Route #1: 1 2\nCost 1_0\n")  # vrplib's reader gave 10
    with pytest.raises(FormatError, match=r"v.sol:2: a numeric Cost, got '1_0'"):
        stated_cost(tmp_path / "v.sol")


SPACES = {"no-break": "\u00a0", "em": "\u2003", "narrow no-break": "\u202f", "ideographic": "\u3000"}  # str.split() splits at each


def _spaced(line: str, space: str) -> str:
    """The line with its last ASCII space a Unicode one."""
    at = line.rindex(" ")
    return line[:at] + space + line[at + 1 :]


@pytest.mark.parametrize("space", SPACES.values(), ids=SPACES)
def test_fields_are_apart_by_ascii_whitespace_only(space):
    assert fields(" 12 \t34\r\n") == "12 34".split() == fields("12\x0b34")
    assert fields(f"12{space}34 5") == [f"12{space}34", "5"]  # one field, which no number parser takes
    assert fields(f"{space}12 34{space}\n") == ["12", "34"]  # a Unicode space may pad a line
    assert fields(space) == [] == fields("")


@pytest.mark.parametrize("space", SPACES.values(), ids=SPACES)
@pytest.mark.parametrize(("name", "text", "old", "line"), [case for case in INSTANCES if " : " not in case[2]])
def test_numbers_apart_by_a_unicode_space_are_a_format_error_in_every_reader(tmp_path, space, name, text, old, line):
    """'12\\u00a034' was read as the two numbers 12 and 34 (str.split()), or by numpy's loadtxt as the same."""
    (tmp_path / name).write_text(text.replace(old, _spaced(old, space)))
    with pytest.raises(FormatError) as caught:
        read_instance(tmp_path / name)
    assert caught.value.line == line, str(caught.value)


@pytest.mark.parametrize(("name", "text", "solution", "body", "old", "line"), [case for case in SOLUTIONS if " " in case[4]])
def test_numbers_apart_by_a_unicode_space_in_a_solution_file_are_a_format_error(tmp_path, name, text, solution, body, old, line):
    (tmp_path / name).write_text(text)
    instance = read_instance(tmp_path / name)
    (tmp_path / solution).write_text(body.replace(old, _spaced(old, "\u00a0")))
    with pytest.raises(FormatError) as caught:
        read_solution(tmp_path / solution, instance)
    assert caught.value.line == line, str(caught.value)


@pytest.mark.parametrize(
    ("name", "text", "old", "new"),
    [
        ("t.tsp", TSP, "NAME : t", "NAME : t\u00a0one\nCOMMENT : 1\u00a0000 km\u2003(d\u00e9j\u00e0)"),  # header values are text
        ("t.tsp", TSP, "3 3 4", "3 3 4\u00a0"),  # a line padded by a Unicode space
        ("d.mis", "p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n", "p edge", "c 12\u00a034\u3000x\np edge"),  # a comment
        ("d.mis", "p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n", "e 2 3", "\u00a0\ne 2 3"),  # a line of a Unicode space is blank
        ("p.gr", "p ds 3 2\n1 2\n2 3\n", "2 3", "c 1\u00a02\n2 3"),
        ("s.stp", STP, "SECTION Graph", 'SECTION Comment\nName "a\u00a01 2"\nEND\nSECTION Graph'),
        ("x.mps", MPS, "ROWS", "* 1\u00a02\nROWS"),
        ("c.plc", "2 2\n10 5\n10 6\n3 4\n1 2\n3 4\n", "1 2", "1 2\u00a0"),
    ],
)
def test_unicode_spaces_in_text_and_around_a_line_still_read(tmp_path, name, text, old, new):
    (tmp_path / name).write_text(text)
    before = read_instance(tmp_path / name)
    (tmp_path / name).write_text(text.replace(old, new, 1))
    after = read_instance(tmp_path / name)
    assert content_sha256(dataclasses.replace(after, name=before.name)) == content_sha256(before)
    assert after.name == ("t\u00a0one" if "NAME" in old else before.name)  # a NAME is kept as written


def test_a_streamed_coordinate_file_with_a_unicode_space_between_numbers_is_a_format_error(tmp_path):
    """numpy's loadtxt splits at Unicode spaces as str.split() does; a file it streams is read by the general reader
    whenever it is not all ASCII."""
    n = 300_000
    rows = "".join(f"{k} {k % 977} {k % 991}\n" for k in range(1, n + 1))
    head = f"NAME : big\nCOMMENT : caf\u00e9\u00a0au lait\nTYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : EUC_2D\n"
    text = f"{head}NODE_COORD_SECTION\n{rows}EOF\n"
    assert len(text) > STREAM_FROM
    (tmp_path / "big.tsp").write_text(text)
    assert read_instance(tmp_path / "big.tsp").n == n
    (tmp_path / "big.tsp").write_text(text.replace("\n250000 ", "\n250000\u00a0"))
    with pytest.raises(FormatError, match=r"big.tsp:250006: numbers in NODE_COORD_SECTION"):
        read_instance(tmp_path / "big.tsp")


@pytest.mark.parametrize("space", SPACES.values(), ids=SPACES)
def test_a_unicode_space_in_an_lp_model_is_a_format_error_outside_its_comments(tmp_path, space):
    """HiGHS takes a Unicode space as part of a name: 'x +\\u00a0y' was the variables x and '\\u00a0y', y left out."""
    model = "\\ a comment: 1{space}000\nMinimize\n obj: 2 x + y\nSubject To\n c1: x + y >= 1\nEnd\n"
    (tmp_path / "m.lp").write_text(model.format(space=space))
    assert read_instance(tmp_path / "m.lp").col_names == ("x", "y")  # in a comment it is text
    (tmp_path / "m.lp").write_text(model.format(space=" ").replace("x + y >=", f"x +{space}y >="))
    with pytest.raises(FormatError, match=rf"m.lp:5: names and numbers apart by ASCII spaces \(found U\+{ord(space):04X}\)"):
        read_instance(tmp_path / "m.lp")


def test_unicode_space_is_what_str_split_splits_at_beyond_ascii():
    beyond = {chr(c) for c in range(0x80, 0x110000) if chr(c).isspace()}
    assert beyond == {chr(c) for c in range(0x80, 0x3001) if UNICODE_SPACE.fullmatch(chr(c))} and max(beyond) == "\u3000"
