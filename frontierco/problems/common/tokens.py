"""The numbers of the formats' text lines, read as the formats write them: ASCII digits, no '_'.

Python's int() and float() read '1_000' as 1000 and '1_0.5' as 10.5 (and '٣' as 3): a reader that turned a file's
token into a number with them took such a token as a number, where no format of the suite has one. ``whole`` and
``real`` are int() and float() less those forms; they raise ValueError as int() and float() do, so that each reader's
own error names the file and the line.
"""

from __future__ import annotations


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
