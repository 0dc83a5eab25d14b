"""Reading text files for the format readers: optional gzip/bz2 compression, clear errors."""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path

from frontierco.errors import FormatError


def read_text(path: str | Path) -> str:
    """The file's text (``.gz`` and ``.bz2`` decompressed); undecodable bytes are a FormatError."""
    path = Path(path)
    try:
        if path.suffix == ".gz":
            raw = gzip.decompress(path.read_bytes())
        elif path.suffix == ".bz2":
            raw = bz2.decompress(path.read_bytes())
        else:
            raw = path.read_bytes()
    except FileNotFoundError:
        raise FormatError(path, 0, "file not found") from None
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
