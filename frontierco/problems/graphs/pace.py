"""PACE 2025 dominating set graphs (``.gr``), the form of FrontierCO's MDS files: ``c`` comment lines, one
``p ds N M`` line, then M lines ``u v`` of 1-based vertices (a simple graph: no loops, no edge twice).

A well-formed file (digits and whitespace after the header, two numbers a line) is read with numpy; anything
else goes through the line-by-line reader, which names the first line that breaks the format."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.text import check_declared, read_text
from frontierco.problems.common.tokens import fields, whole
from frontierco.problems.graphs.mds import MDSInstance
from frontierco.problems.graphs.mis import canonical_edges

MAX_VERTICES = 2**31 - 1
_DIGITS_AND_SPACE = np.zeros(256, dtype=bool)
_DIGITS_AND_SPACE[[ord(c) for c in "0123456789 \t\r\n"]] = True


def _name(path: Path) -> str:
    return path.name.split(".")[0]


def _header(text: str, path: Path) -> tuple[int, int, int, int]:
    """(line number, offset after the line, N, M) of the one ``p ds N M`` line, which precedes every edge."""
    number, offset = 0, 0
    while offset < len(text):
        end = text.find("\n", offset)
        end = len(text) if end == -1 else end + 1
        raw, offset, number = text[offset:end], end, number + 1
        tokens = fields(raw)
        if not tokens or tokens[0] == "c":
            continue
        if tokens[0] != "p":
            raise FormatError(path, number, f"the 'p ds N M' line before any edge, got {raw.strip()[:40]!r}")
        if len(tokens) != 4 or tokens[1] != "ds":
            raise FormatError(path, number, f"'p ds N M', got {raw.strip()[:40]!r}")
        try:
            n, m = whole(tokens[2]), whole(tokens[3])
        except ValueError:
            raise FormatError(path, number, "'p ds N M' with integer N and M") from None
        if not 0 <= n <= MAX_VERTICES or m < 0:
            raise FormatError(path, number, f"'p ds N M' with 0 <= N <= {MAX_VERTICES} and M >= 0, got N={n} M={m}")
        check_declared(path, number, n, "vertices", len(text))
        return number, offset, n, m
    raise FormatError(path, number, "a 'p ds N M' line")


def _fast_edges(body: str, n: int) -> np.ndarray | None:
    """The (m, 2) 1-based edges of a clean body (digits and whitespace only, two numbers on each non-blank
    line, every vertex in 1..n, no loop, no edge twice), else None."""
    raw = np.frombuffer(body.encode("ascii", errors="replace"), dtype=np.uint8)
    if raw.size and not _DIGITS_AND_SPACE[raw].all():
        return None
    digit = (raw >= ord("0")) & (raw <= ord("9"))
    starts = np.flatnonzero(digit & ~np.concatenate(([False], digit[:-1])))
    line_of = np.cumsum(raw == ord("\n"))[starts] if starts.size else starts
    if starts.size % 2 or np.any(np.bincount(line_of) % 2) or np.any(np.bincount(line_of) > 2):
        return None
    values = np.fromstring(body, dtype=np.int64, sep=" ") if starts.size else np.zeros(0, dtype=np.int64)
    if values.size != starts.size:
        return None
    edges = values.reshape(-1, 2)
    if edges.size and (edges.min() < 1 or edges.max() > n or np.any(edges[:, 0] == edges[:, 1])):
        return None
    if len(canonical_edges(edges)) != len(edges):
        return None
    return edges


def _slow_edges(path: Path, text: str, header: int, n: int) -> np.ndarray:
    """The edges, line by line, naming the first line that is not a comment, a blank or a new edge ``u v``."""
    edges: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = fields(raw)
        if number <= header or not tokens or tokens[0] == "c":
            continue
        if tokens[0] == "p":
            raise FormatError(path, number, "one 'p ds N M' line")
        if len(tokens) != 2:
            raise FormatError(path, number, f"an edge 'u v' or a 'c' comment, got {raw.strip()[:40]!r}")
        try:
            u, v = whole(tokens[0]), whole(tokens[1])
        except ValueError:
            raise FormatError(path, number, f"an edge 'u v' of integer vertices, got {raw.strip()[:40]!r}") from None
        if not (1 <= u <= n and 1 <= v <= n):
            raise FormatError(path, number, f"vertices in 1..{n}, got '{u} {v}'")
        if u == v:
            raise FormatError(path, number, f"a simple graph, but vertex {u} has a self-loop")
        key = (min(u, v), max(u, v))
        if key in seen:
            raise FormatError(path, number, f"a simple graph, but edge {key[0]} {key[1]} is listed twice")
        seen.add(key)
        edges.append((u, v))
    return np.array(edges, dtype=np.int64).reshape(-1, 2)


def read_pace_ds(path: str | Path) -> MDSInstance:
    """A PACE 2025 ``p ds`` graph as an MDS instance (vertices 0-based inside)."""
    path = Path(path)
    text = read_text(path)
    header, offset, n, m = _header(text, path)
    edges = _fast_edges(text[offset:], n)
    if edges is None:
        edges = _slow_edges(path, text, header, n)
    if len(edges) != m:
        raise FormatError(path, header, f"{m} edges as the header says, found {len(edges)} edge lines")
    return MDSInstance(name=_name(path), n=n, edges=canonical_edges(edges - 1))


def pace_suffix(instance: MDSInstance) -> str:
    return ".gr"


def write_pace_ds(path: str | Path, instance: MDSInstance) -> None:
    """Write a PACE 2025 ``p ds`` graph (1-based vertices)."""
    body = "\n".join(f"{u} {v}" for u, v in (instance.edges + 1).tolist())
    Path(path).write_text(f"p ds {instance.n} {instance.m}\n" + (body + "\n" if body else ""))
