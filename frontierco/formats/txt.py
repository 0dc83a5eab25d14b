"""``.txt`` files, which FrontierCO uses for three problems: Naderi's flexible job shop form (its FJSP hard set),
its capacitated p-median files (the CPMP test sets: ``n p``, then ``x y capacity demand`` per point) and what its
CFLP generator writes (the ``.plc`` layout: ``n m``, then ``capacity fixed_cost`` per facility, ...).

The first two non-blank lines tell them apart: Naderi's form opens with the job count alone on its line; the
other two open with two integers, followed by four numbers (a p-median point) or two (a facility). Anything else
is read as Naderi's form, whose reader names the line that is wrong.
"""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path
from typing import IO

from frontierco.problems import Instance


def _open(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8-sig")
    if path.suffix == ".bz2":
        return bz2.open(path, "rt", encoding="utf-8-sig")
    return open(path, encoding="utf-8-sig")


def _first_lines(path: Path, count: int) -> list[list[str]]:
    """The tokens of the first ``count`` non-blank lines (fewer if the file has fewer; none if it cannot be read:
    then the chosen reader reports why)."""
    found: list[list[str]] = []
    try:
        with _open(path) as handle:
            for raw in handle:
                if raw.strip():
                    found.append(raw.split())
                    if len(found) == count:
                        break
    except (OSError, EOFError, UnicodeDecodeError, ValueError):
        return []
    return found


def txt_form(path: str | Path) -> str:
    """Which reader a ``.txt`` file needs: ``"fjsp"``, ``"cpmp"`` or ``"cflp"``."""
    lines = _first_lines(Path(path), 2)
    if len(lines) == 2 and len(lines[0]) == 2:
        if len(lines[1]) == 4:
            return "cpmp"
        if len(lines[1]) == 2:
            return "cflp"
    return "fjsp"


def read_txt(path: str | Path) -> Instance:
    """Read a FrontierCO ``.txt`` instance with the reader its first lines call for (see the module's doc)."""
    form = txt_form(path)
    if form == "cpmp":
        from frontierco.formats.pmedian import read_cpmp

        return read_cpmp(path)
    if form == "cflp":
        from frontierco.formats.facility import read_plc

        return read_plc(path)
    from frontierco.formats.fjsp import read_naderi

    return read_naderi(path)
