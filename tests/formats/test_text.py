"""formats/text.py: text of plain and compressed files, and the format suffix behind a compression suffix."""

import bz2
import gzip

import pytest

from frontierco.errors import FormatError
from frontierco.problems.common.text import base_suffix, read_text


@pytest.mark.parametrize(("name", "pack"), [("a.txt", bytes), ("a.txt.gz", gzip.compress), ("a.txt.bz2", bz2.compress)])
def test_plain_and_compressed_files_read_the_same(tmp_path, name, pack):
    (tmp_path / name).write_bytes(pack(b"NAME : x\nDIMENSION : 3\n"))
    assert read_text(tmp_path / name) == "NAME : x\nDIMENSION : 3\n"


def test_a_byte_order_mark_is_not_text(tmp_path):
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf1 2\n")
    assert read_text(tmp_path / "bom.txt") == "1 2\n"


def test_bytes_that_are_not_utf8_are_a_format_error_naming_their_line(tmp_path):
    (tmp_path / "latin.txt").write_bytes(b"ok\nstill ok\ncaf\xe9\n")
    with pytest.raises(FormatError, match=r"latin.txt:3: UTF-8 / ASCII text"):
        read_text(tmp_path / "latin.txt")


@pytest.mark.parametrize(
    ("name", "content", "expected"), [("gone.txt", None, "file not found"), ("bad.gz", b"not gzip", "correctly compressed")]
)
def test_a_missing_or_broken_file_is_one_format_error(tmp_path, name, content, expected):
    if content is not None:
        (tmp_path / name).write_bytes(content)
    with pytest.raises(FormatError, match=expected) as caught:
        read_text(tmp_path / name)
    assert caught.value.line == 0 and caught.value.path == str(tmp_path / name)


@pytest.mark.parametrize(
    ("name", "suffix"),
    [("a.mps.gz", ".mps"), ("b.TSP", ".tsp"), ("c.vrp.bz2", ".vrp"), ("d.gz", ""), ("e", ""), ("f.tar.gz", ".tar")],
)
def test_base_suffix_looks_through_one_compression_suffix(name, suffix):
    assert base_suffix(name) == suffix
