"""The fields and numbers of the formats' text lines, read as the formats write them: fields apart by ASCII
whitespace, numbers in ASCII digits without '_'.

Python's int() and float() read '1_000' as 1000 and '1_0.5' as 10.5 (and '٣' as 3): a reader that turned a file's
token into a number with them took such a token as a number, where no format of the suite has one. ``whole`` and
``real`` are int() and float() less those forms; they raise ValueError as int() and float() do, so that each reader's
own error names the file and the line.
"""

from __future__ import annotations

import re
from pathlib import Path

from frontierco.errors import FormatError

# the ASCII characters str.split() takes as whitespace (U+001C..U+001F, the information separators, among them)
_ASCII_WHITESPACE = re.compile(r"[ \t\n\r\x0b\x0c\x1c-\x1f]+")
# the other characters it takes as whitespace: the Unicode spaces (U+0085 and U+2028/9 are line breaks to it)
UNICODE_SPACE = re.compile(r"[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _plain(token: str) -> str:
    if "_" in token or not token.isascii():
        raise ValueError(f"a number in ASCII digits without '_', got {token!r}")
    return token


def whole(token: str) -> int:
    """``int(token)`` for a whole number as the formats write it (ASCII digits, no '_'); else a ValueError."""
    return int(_plain(token))


def real(token: str) -> float:
    """``float(token)`` for a number as the formats write it (ASCII, no '_'); else a ValueError."""
    return float(_plain(token))


def wholes(tokens: list[str], path: Path, number: int, expected: str) -> list[int]:
    """Each token ``whole``; else a FormatError naming the file's line ``number`` and what it ``expected``."""
    try:
        return [whole(token) for token in tokens]
    except ValueError:
        raise FormatError(path, number, expected) from None


def fields(line: str) -> list[str]:
    """The fields of ``line``, apart by ASCII whitespace only. str.split() also splits at Unicode spaces (U+00A0
    no-break space, U+2003 em space, ...), so 12, a no-break space and 34 read as the numbers 12 and 34; here they are
    one field, which no number parser takes. Unicode spaces at either end of the line are padding (as str.strip() and a blank line's
    test take them): such a space may pad a line, never separate its fields. An ASCII line splits as str.split()
    splits it."""
    if line.isascii():
        return line.split()
    stripped = line.strip()
    return _ASCII_WHITESPACE.split(stripped) if stripped else []
