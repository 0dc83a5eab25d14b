"""Capacitated p-median files as FrontierCO reads them (``data/CPMP/config.py`` ``load_data``), the form of its
Lorena-Senne, Stefanello and Gnagi-Baumann test files: a line ``n p``, then n lines ``x y capacity demand``
(empty lines skipped). Written with suffix ``.cpmp``; FrontierCO's own ``.txt`` files are read as they are
(``formats.txt`` tells them from the other ``.txt`` forms by their first two lines)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import fields, real, whole
from frontierco.problems.facility.cpmp import CPMPInstance


def read_cpmp(path: str | Path) -> CPMPInstance:
    """A CPMP text file; a short, long or malformed file is a FormatError naming the line."""
    path = Path(path)
    lines = [(k, fields(raw)) for k, raw in enumerate(read_text(path).splitlines(), start=1) if raw.strip()]
    if not lines:
        raise FormatError(path, 0, "a first line 'n p'")
    header_line, header = lines[0]
    try:
        if len(header) != 2:
            raise ValueError
        n, p = whole(header[0]), whole(header[1])
    except ValueError:
        raise FormatError(path, header_line, "a first line 'n p' of two integers") from None
    if n < 1 or not 1 <= p <= n:
        raise FormatError(path, header_line, f"1 <= p <= n, got n = {n}, p = {p}")
    if len(lines) - 1 < n:
        raise FormatError(path, lines[-1][0], f"{n} point lines as the header says, the file has {len(lines) - 1}")
    if len(lines) - 1 > n:
        raise FormatError(path, lines[n + 1][0], f"nothing after the {n} point lines the header announces")
    rows = np.empty((n, 4))
    for k, (number, tokens) in enumerate(lines[1:]):
        try:
            if len(tokens) != 4:
                raise ValueError
            rows[k] = [real(t) for t in tokens]
        except ValueError:
            raise FormatError(path, number, "'x y capacity demand' (four numbers)") from None
        if not np.all(np.isfinite(rows[k])) or rows[k, 2] < 0 or rows[k, 3] < 0:
            raise FormatError(path, number, "finite numbers, capacity and demand non-negative")
    return CPMPInstance(path.name.split(".")[0], p, rows[:, :2].copy(), rows[:, 2].copy(), rows[:, 3].copy())


def cpmp_suffix(instance: CPMPInstance) -> str:
    return ".cpmp"


def write_cpmp(path: str | Path, instance: CPMPInstance) -> None:
    """Write the instance in the form ``read_cpmp`` reads (17 significant digits: every number reads back exactly)."""
    with open(path, "w") as handle:
        handle.write(f"{instance.n} {instance.p}\n")
        np.savetxt(handle, np.column_stack([instance.coords, instance.capacity, instance.demand]), fmt="%.17g")
