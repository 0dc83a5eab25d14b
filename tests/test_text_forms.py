"""problems/files.py: which of FrontierCO's three .txt layouts a file is, from its first two non-blank lines (the families'
declared ``text_forms``)."""

import gzip

import pytest

from frontierco.errors import FormatError
from frontierco.problems.files import text_form


def txt_form(path):
    """The problem whose reader the layout names."""
    return {"read_cpmp": "cpmp", "read_plc": "cflp", "read_naderi": "fjsp"}[text_form(path).reader.split(":")[1]]


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("3 2\n0 0 10 4\n1 1 10 4\n5 5 10 4\n", "cpmp"),  # n p, then x y capacity demand
        ("2 3\n10 100\n10 120\n", "cflp"),  # n m, then capacity fixed_cost
        ("1\n2\n2\n3 0\n0 4\n", "fjsp"),  # Naderi's: the job count alone
        ("\n\n  3 2  \n\n0 0 10 4\n", "cpmp"),  # blank lines do not count
        ("3 2\n", "fjsp"),  # one line: not enough to be either of the others; Naderi's reader says what is wrong
        ("", "fjsp"),
        ("3 2\n1 2 3\n", "fjsp"),
    ],
)
def test_the_form_follows_from_the_first_two_non_blank_lines(tmp_path, text, form):
    (tmp_path / "x.txt").write_text(text)
    assert txt_form(tmp_path / "x.txt") == form


def test_a_compressed_file_is_looked_into_and_an_unreadable_one_goes_to_naderi_s_reader(tmp_path):
    (tmp_path / "x.txt.gz").write_bytes(gzip.compress(b"2 3\n10 100\n10 120\n"))
    assert txt_form(tmp_path / "x.txt.gz") == "cflp"
    (tmp_path / "broken.txt.gz").write_bytes(b"not gzip at all")
    assert txt_form(tmp_path / "broken.txt.gz") == "fjsp"
    with pytest.raises(FormatError, match="file not found"):  # a missing file is said so at once, not sent on
        txt_form(tmp_path / "missing.txt")


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        (
            "E4.0",
            "NAME : E4.0\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 3 0\n3 3 4\nEOF\n",
            "tsp",
        ),
        ("g.txt", "c FrontierCO's MDS valid files: PACE under .txt\np ds 3 2\n1 2\n2 3\n", "mds"),
        ("g.txt", "p edge 3 2\ne 1 2\ne 2 3\n", "mis"),
        ("74.txt", "2 2 1.5\n2 1 1 75 2 1 15 2 82\n2 2 1 31 2 87 1 2 82\n", "fjsp"),  # the .fjs layout under .txt
        (
            "s.dat",
            "33D32945 STP File, STP Format Version 1.0\nSECTION Graph\nNodes 2\nEdges 1\nE 1 2 5\nEND\n"
            "SECTION Terminals\nTerminals 2\nT 1\nT 2\nEND\nEOF\n",
            "stp",
        ),
    ],
)
def test_files_as_frontierco_ships_them_are_read_by_their_content(tmp_path, name, text, problem):
    """Issue 44: FrontierCO's hard TSP files have no suffix, its MDS valid files are PACE under .txt, and its FJSP hard
    files may use the .fjs layout under .txt; before, the first two were refused and the third sent to Naderi's reader."""
    from frontierco.problems import problem_of
    from frontierco.problems.files import read_instance

    (tmp_path / name).write_text(text)
    assert problem_of(read_instance(tmp_path / name)).name == problem


def test_a_file_of_no_known_suffix_or_opening_is_one_line(tmp_path):
    from frontierco.errors import FormatError
    from frontierco.problems.files import read_instance

    (tmp_path / "E4.0").write_text("1 2 3\n")
    with pytest.raises(FormatError, match="or opening as one of them does"):
        read_instance(tmp_path / "E4.0")
