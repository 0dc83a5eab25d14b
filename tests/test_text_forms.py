"""problems/files.py: which of FrontierCO's three .txt layouts a file is, from its first two non-blank lines (the families'
declared ``text_forms``)."""

import gzip

import pytest

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
    assert txt_form(tmp_path / "missing.txt") == "fjsp"
