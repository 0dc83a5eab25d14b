"""Reading text files for the format readers: optional gzip/bz2 compression, clear errors."""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import IO

from frontierco.errors import FormatError

# A compressed file's text is at most MAX_EXPANSION times the file (and EXPANSION_FLOOR bytes whatever its size): the
# suite's instance files expand 2 to 12 times (a complete graph's edge list under bzip2 the most), while 1.5 MB of
# gzip can hold 1.5 GB of blank lines. What a reader allocates then follows the file's own size.
MAX_EXPANSION = 100
EXPANSION_FLOOR = 1 << 20
# A decimal digit other than ASCII 0-9 (Arabic-Indic, Devanagari, fullwidth, ...): Python's int() and float() take
# '٣' for 3, so a reader splitting text into numbers would too; the formats' numbers are ASCII.
_UNICODE_DIGIT = re.compile(r"(?![0-9])\d")


def expansion_limit(path: Path) -> int:
    """The most bytes of text a compressed ``path`` may expand to."""
    return max(EXPANSION_FLOOR, MAX_EXPANSION * path.stat().st_size)


class _Bounded(io.RawIOBase):
    """A decompressing stream that refuses to give more than ``limit`` bytes (a FormatError when it would)."""

    def __init__(self, inner: gzip.GzipFile | bz2.BZ2File, limit: int, path: Path) -> None:
        self.inner, self.limit, self.path, self.given = inner, limit, path, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(buffer)
        data = self.inner.read(min(len(view), self.limit + 1 - self.given))
        self.given += len(data)
        if self.given > self.limit:
            raise FormatError(self.path, 0, f"a compressed file whose text is at most {MAX_EXPANSION} times its size ({self.limit} bytes)")
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self.inner.close()
        super().close()


def open_bytes(path: str | Path) -> IO[bytes]:
    """The file's bytes, ``.gz`` and ``.bz2`` decompressed as they are read and bounded by ``expansion_limit``; a
    path that is not a regular file (a folder, a device such as /dev/zero, a pipe) is a FormatError, never read."""
    path = Path(path)
    if not path.exists():
        raise FormatError(path, 0, "file not found")
    if not path.is_file():
        raise FormatError(path, 0, "a regular file (not a folder, a device or a pipe)")
    if path.suffix == ".gz":
        inner: gzip.GzipFile | bz2.BZ2File = gzip.GzipFile(path, "rb")
    elif path.suffix == ".bz2":
        inner = bz2.BZ2File(path, "rb")
    else:
        return open(path, "rb")
    return io.BufferedReader(_Bounded(inner, expansion_limit(path), path))


def refuse_unicode_digits(text: str, path: str | Path, lines_before: Callable[[], int] = lambda: 0) -> None:
    """The readers' numbers are ASCII only: a FormatError naming the first decimal digit of another script in
    ``text`` (``lines_before()`` lines of the file precede it). Every reader's text passes here (``read_text``,
    ``open_text``), so no reader's int() or float() ever sees one."""
    if text.isascii():
        return
    found = _UNICODE_DIGIT.search(text)
    if found is not None:
        line = lines_before() + text.count("\n", 0, found.start()) + 1
        raise FormatError(path, line, f"numbers in ASCII digits (found {found.group()!r}, U+{ord(found.group()):04X})")


class _AsciiDigits(io.RawIOBase):
    """A byte stream passed through ``refuse_unicode_digits`` as it is read (decoded only where it is not ASCII;
    the lines before a digit found are counted only then, by reading the file again up to it)."""

    def __init__(self, inner: IO[bytes], path: Path) -> None:
        self.inner, self.path, self.offset = inner, path, 0
        self.ascii = True  # every byte read so far is ASCII
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")  # the text reader reports bad bytes

    def readable(self) -> bool:
        return True

    def _lines_before(self, offset: int) -> int:
        with open_bytes(self.path) as again:
            return again.read(offset).count(b"\n")

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data, offset = self.inner.read(len(buffer)), self.offset
        if not data.isascii():
            self.ascii = False
            refuse_unicode_digits(self.decoder.decode(data), self.path, lambda: self._lines_before(offset))
        self.offset += len(data)
        memoryview(buffer)[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self.inner.close()
        super().close()


def open_text(path: str | Path) -> IO[str]:
    """``open_bytes`` as UTF-8 text (a byte order mark at the start is not text), its numbers ASCII
    (``refuse_unicode_digits``)."""
    checked = io.BufferedReader(_AsciiDigits(open_bytes(path), Path(path)), buffer_size=1 << 16)
    return io.TextIOWrapper(checked, encoding="utf-8-sig")


def read_all_ascii(handle: IO[str]) -> bool:
    """Whether every byte that ``open_text``'s ``handle`` has read of its file is ASCII (the whole file's, once the
    handle is read to its end): a reader that hands the file to a parser splitting at Unicode spaces (numpy's loadtxt)
    asks it."""
    raw = handle.buffer.raw if isinstance(handle, io.TextIOWrapper) and isinstance(handle.buffer, io.BufferedReader) else None
    return isinstance(raw, _AsciiDigits) and raw.ascii


def read_text(path: str | Path) -> str:
    """The file's text (``.gz`` and ``.bz2`` decompressed, bounded as ``open_bytes`` says); undecodable bytes and
    digits of other scripts (``refuse_unicode_digits``) are a FormatError."""
    path = Path(path)
    try:
        with open_bytes(path) as handle:
            raw = handle.read()
    except (OSError, EOFError, ValueError) as exc:
        raise FormatError(path, 0, f"a readable, correctly compressed file ({exc})") from None
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark at the start (some editors write one) is not text
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FormatError(path, line, "UTF-8 / ASCII text") from None
    refuse_unicode_digits(text, path)
    return text


def check_declared(path: str | Path, line: int, count: int, what: str, size: int) -> None:
    """Refuse a header's count of ``what`` that is larger than the file's text (``size`` characters, after
    decompression): a count the file cannot back with at least a character per item describes mostly nothing
    (isolated vertices, unused machines) and would only size arrays. Readers call it before anything is sized."""
    if count > size:
        raise FormatError(path, line, f"at most {size} {what} in a file of {size} characters, the header says {count}")


def base_suffix(path: str | Path) -> str:
    """The format suffix, looking through a compression suffix: ``a.txt.gz`` -> ``.txt``."""
    path = Path(path)
    if path.suffix in (".gz", ".bz2"):
        path = path.with_suffix("")
    return path.suffix.lower()
