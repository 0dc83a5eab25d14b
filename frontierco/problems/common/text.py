"""Reading text files for the format readers: optional gzip/bz2 compression, clear errors."""

from __future__ import annotations

import bz2
import gzip
import io
from pathlib import Path
from typing import IO

from frontierco.errors import FormatError

# A compressed file's text is at most MAX_EXPANSION times the file (and EXPANSION_FLOOR bytes whatever its size): the
# suite's instance files expand 2 to 12 times (a complete graph's edge list under bzip2 the most), while 1.5 MB of
# gzip can hold 1.5 GB of blank lines. What a reader allocates then follows the file's own size.
MAX_EXPANSION = 100
EXPANSION_FLOOR = 1 << 20


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


def open_text(path: str | Path) -> IO[str]:
    """``open_bytes`` as UTF-8 text (a byte order mark at the start is not text)."""
    return io.TextIOWrapper(open_bytes(path), encoding="utf-8-sig")


def read_text(path: str | Path) -> str:
    """The file's text (``.gz`` and ``.bz2`` decompressed, bounded as ``open_bytes`` says); undecodable bytes are a
    FormatError."""
    path = Path(path)
    try:
        with open_bytes(path) as handle:
            raw = handle.read()
    except (OSError, EOFError, ValueError) as exc:
        raise FormatError(path, 0, f"a readable, correctly compressed file ({exc})") from None
    try:
        return raw.decode("utf-8-sig")  # a byte order mark at the start (some editors write one) is not text
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FormatError(path, line, "UTF-8 / ASCII text") from None


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
