"""problems/common/text.py: text of plain and compressed files, the format suffix behind a compression suffix, and
header counts bounded by the file's length (checked through every reader that sizes arrays by one)."""

import bz2
import gzip
import resource
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from frontierco.errors import FormatError
from frontierco.problems.common.text import base_suffix, read_text
from frontierco.problems.files import read_instance, read_solution
from frontierco.problems.routing.tsplib import STREAM_FROM


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


STP_NODES = (
    "33D32945 STP File, STP Format Version 1.0\nSECTION Graph\nNodes {}\nEdges 1\nE 1 2 1\nEND\n"
    "SECTION Terminals\nTerminals 2\nT 1\nT 2\nEND\nEOF\n"
)


@contextmanager
def _address_space_grows_at_most(limit: int) -> Iterator[None]:
    """RLIMIT_AS set to what this process maps now plus ``limit`` bytes, for the block: an allocation sized by a
    header's count then fails as a MemoryError instead of taking the machine's memory."""
    mapped = int(next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith("VmSize")).split()[1])
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (mapped * 1024 + limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.mark.parametrize(
    ("name", "text", "what"),
    [
        ("huge.stp", STP_NODES.format(2_000_000_000), "nodes"),  # a 300-byte file took the harness to 12.4 GB
        ("huge.fjs", "2 1000000000000 1\n1 1 1 5\n1 1 1 3\n", "machines"),
        ("huge.dimacs", "p edge 2000000000 1\ne 1 2\n", "vertices"),
        ("huge.gr", "p ds 2000000000 1\n1 2\n", "vertices"),
    ],
)
def test_a_header_claiming_more_than_its_file_can_hold_is_refused_in_one_line(tmp_path, name, text, what):
    (tmp_path / name).write_text(text)
    with _address_space_grows_at_most(1 << 30), pytest.raises(FormatError) as info:
        read_instance(tmp_path / name)
    assert f"at most {len(text)} {what} in a file of {len(text)} characters" in str(info.value)
    assert info.value.line == next(number for number, line in enumerate(text.splitlines(), 1) if "000000000" in line)


def test_a_header_count_within_the_files_length_still_reads(tmp_path):
    (tmp_path / "isolated.stp").write_text(STP_NODES.format(40))
    assert read_instance(tmp_path / "isolated.stp").n == 40


BLANKS = gzip.compress(b"\n" * (1 << 24), compresslevel=9)  # 16 MiB of newlines in ~16 KB; gzip reads members one after another


@pytest.mark.parametrize(
    ("name", "head"),
    [
        ("bomb.tsp.gz", "NAME : b\nTYPE : TSP\nDIMENSION : 1\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n"),
        ("bomb.mis.gz", "p edge 2 1\ne 1 2\n"),
        ("bomb.txt.gz", "p ds 2 1\n1 2\n"),  # the .txt layout is told from the file's first lines
        ("bomb.stp.gz", STP_NODES.format(2)),
    ],
    ids=["tsplib", "dimacs", "txt", "steinlib"],
)
def test_a_compressed_file_whose_text_outgrows_its_bound_is_refused_as_it_is_read(tmp_path, name, head):
    (tmp_path / name).write_bytes(gzip.compress(head.encode()) + BLANKS * 8)  # 128 MiB of text from 130 KB (was read whole)
    with _address_space_grows_at_most(512 << 20), pytest.raises(FormatError, match="at most 100 times its size"):
        read_instance(tmp_path / name)


def test_a_compressed_file_within_its_bound_still_reads(tmp_path):
    (tmp_path / "ok.mis.gz").write_bytes(gzip.compress(b"p edge 2 1\ne 1 2\n") + BLANKS)  # 16 MiB of text from 16 KB: the 1 MiB floor
    with pytest.raises(FormatError, match="at most 100 times"):
        read_text(tmp_path / "ok.mis.gz")
    (tmp_path / "small.mis.gz").write_bytes(gzip.compress(b"p edge 2 1\ne 1 2\n" + b"c\n" * 400_000))  # 800 KB: under the floor
    assert read_instance(tmp_path / "small.mis.gz").m == 1


@pytest.mark.parametrize("kind", ["device", "folder"])
def test_a_path_that_is_not_a_regular_file_is_refused_unread(tmp_path, kind):
    path = tmp_path / "x.tsp"
    if kind == "device":
        path.symlink_to("/dev/zero")  # was read until memory ran out
    else:
        path.mkdir()
    with _address_space_grows_at_most(512 << 20), pytest.raises(FormatError, match="a regular file"):
        read_instance(path)


TSP = (
    "NAME : t\nCOMMENT : café, naïve\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\n"
    "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 3 4\n4 0 4\nEOF\n"
)
DIGITS = {"arabic-indic": "\u0663", "fullwidth": "\uff13", "devanagari": "\u0969"}  # each is 3 to Python's int()


@pytest.mark.parametrize("script", DIGITS)
@pytest.mark.parametrize(
    ("name", "text", "old", "line"),
    [
        ("t.tsp", TSP, "DIMENSION : 4", 4),  # a header count
        ("t.tsp.gz", TSP, "3 3 4", 9),  # a coordinate, compressed
        ("d.mis", "p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n", "e 2 3", 3),
        ("p.gr", "p ds 3 2\n1 2\n2 3\n", "2 3", 3),
        ("j.fjs", "2 2 1\n1 2 1 3 2 4\n1 1 2 3\n", "1 1 2 3", 3),
    ],
)
def test_a_digit_of_another_script_is_a_format_error_in_every_reader(tmp_path, script, name, text, old, line):
    """Python's int() and float() read '٣' as 3: every reader took such a number (issue 44's hostile run)."""
    changed = text.replace(old, old.replace("3", DIGITS[script]).replace("4", DIGITS[script]))
    assert changed != text
    path = tmp_path / name
    path.write_bytes(gzip.compress(changed.encode()) if name.endswith(".gz") else changed.encode())
    with pytest.raises(FormatError, match=rf"{name}:{line}: numbers in ASCII digits \(found '{DIGITS[script]}'"):
        read_instance(path)


def test_a_digit_of_another_script_in_a_solution_file_is_a_format_error(tmp_path):
    (tmp_path / "p.mis").write_text("p edge 3 1\ne 1 2\n")
    (tmp_path / "p.sol").write_text("1\n\u0663\n")
    with pytest.raises(FormatError, match=r"p.sol:2: numbers in ASCII digits"):
        read_solution(tmp_path / "p.sol", read_instance(tmp_path / "p.mis"))


def test_a_streamed_file_is_checked_past_its_first_block(tmp_path):
    """A coordinate TSP over ``STREAM_FROM`` bytes is read line by line (its header) and by numpy (its rows)."""
    n = 300_000
    rows = "".join(f"{k} {k % 977} {k % 991}\n" for k in range(1, n + 1))
    text = f"NAME : big\nTYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n{rows}EOF\n"
    assert len(text) > STREAM_FROM
    (tmp_path / "big.tsp").write_text(text)
    assert read_instance(tmp_path / "big.tsp").n == n  # ASCII: streamed as before
    (tmp_path / "big.tsp").write_text(text.replace(f"DIMENSION : {n}", f"DIMENSION : {n}".replace("3", "\u0663")))
    with pytest.raises(FormatError, match=r"big.tsp:3: numbers in ASCII digits"):
        read_instance(tmp_path / "big.tsp")
    (tmp_path / "big.tsp").write_text(text.replace("\n250000 ", "\n25\u06600\u06600 "))
    with pytest.raises(FormatError, match=r"big.tsp:250005: numbers in ASCII digits"):
        read_instance(tmp_path / "big.tsp")
