"""SteinLib ``.stp`` files (Koch, Martin and Voss, "SteinLib: an updated library on Steiner tree problems in
graphs", 2001): the magic line ``33D32945 STP File, STP Format Version 1.0``, then sections, each
``SECTION name`` ... ``END``, then ``EOF``. Keywords are case-insensitive; ``#`` starts a comment.

- ``Comment``: free ``Name``/``Creator``/``Remark``/``Problem`` lines (kept as text, not used).
- ``Graph``: ``Nodes n``, ``Edges m``, then m lines ``E u v w`` (1-based vertices, weight w >= 0).
- ``Terminals``: ``Terminals k``, then k lines ``T v``.
- ``Coordinates``: ``DD v x y`` (or ``DDD v x y z``) per vertex, when the file has them.
- ``Presolve``: what a presolver recorded (``FIXED``, ``LOWER``, ...): read past.

Anything else (arcs, a root, prizes, degree limits: other Steiner problems) is refused, as is a count in a
header that the lines disagree with, a terminal that is no vertex, a negative weight, a repeated edge or
terminal, and terminals that the graph does not connect: each a FormatError naming the file and line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.text import check_declared, read_text
from frontierco.problems.common.tokens import fields, real, whole
from frontierco.problems.steiner.stp import STPInstance, disconnected_terminal, edge_keys

MAGIC = "33D32945"
HEADER = f"{MAGIC} STP File, STP Format Version 1.0"
SECTIONS = ("COMMENT", "GRAPH", "TERMINALS", "COORDINATES", "PRESOLVE")
MAX_VERTICES = 2**31 - 1  # vertex numbers fit int32, as for the other graph formats
MAX_INTEGER_WEIGHT = 2**53  # an integer weight fits int64 and a float holds it exactly


class _Reader:
    """The state of one pass over a file: what has been declared, and on which line."""

    def __init__(self, path: Path, size: int) -> None:
        self.path = path
        self.size = size  # the file's text, in characters: no count may claim more
        self.nodes: int | None = None
        self.declared: dict[str, tuple[int, int]] = {}  # "edges"/"terminals" -> (count, line)
        self.edges: list[tuple[int, int]] = []
        self.edge_lines: list[int] = []
        self.weights: list[str] = []
        self.terminals: list[int] = []
        self.terminal_lines: list[int] = []
        self.coordinates: dict[int, list[float]] = {}

    def fail(self, number: int, expected: str) -> FormatError:
        return FormatError(self.path, number, expected)

    def integer(self, token: str, number: int, what: str) -> int:
        try:
            return whole(token)
        except ValueError:
            raise self.fail(number, f"{what} as an integer, got {token!r}") from None

    def vertex(self, token: str, number: int, what: str) -> int:
        if self.nodes is None:
            raise self.fail(number, f"the 'Nodes n' line before any {what}")
        v = self.integer(token, number, what)
        if not 1 <= v <= self.nodes:
            raise self.fail(number, f"a {what} in 1..{self.nodes} (the Nodes line), got {v}")
        return v - 1

    def count(self, key: str, tokens: list[str], number: int) -> None:
        if key in self.declared or len(tokens) != 2:
            raise self.fail(number, f"one '{key.capitalize()} k' line")
        value = self.integer(tokens[1], number, f"the number of {key}")
        if value < 0:
            raise self.fail(number, f"a non-negative number of {key}, got {value}")
        self.declared[key] = (value, number)

    def graph(self, tokens: list[str], number: int) -> None:
        keyword = tokens[0].upper()
        if keyword == "NODES":
            if self.nodes is not None or len(tokens) != 2:
                raise self.fail(number, "one 'Nodes n' line")
            self.nodes = self.integer(tokens[1], number, "the number of nodes")
            if not 1 <= self.nodes <= MAX_VERTICES:
                raise self.fail(number, f"between 1 and {MAX_VERTICES} nodes, got {self.nodes}")
            check_declared(self.path, number, self.nodes, "nodes", self.size)
        elif keyword == "EDGES":
            self.count("edges", tokens, number)
        elif keyword == "E":
            if len(tokens) != 4:
                raise self.fail(number, "'E u v weight'")
            u, v = self.vertex(tokens[1], number, "edge endpoint"), self.vertex(tokens[2], number, "edge endpoint")
            if u == v:
                raise self.fail(number, f"an edge between two vertices, got a self-loop at {u + 1}")
            try:
                weight = real(tokens[3])
            except ValueError:
                raise self.fail(number, f"a numeric edge weight, got {tokens[3]!r}") from None
            if not np.isfinite(weight) or weight < 0:
                raise self.fail(number, f"a finite, non-negative edge weight, got {tokens[3]}")
            if _is_integer(tokens[3]) and int(tokens[3]) > MAX_INTEGER_WEIGHT:
                raise self.fail(number, f"an integer weight of at most 2^53, got {tokens[3]}")
            self.edges.append((u, v))
            self.edge_lines.append(number)
            self.weights.append(tokens[3])
        else:
            raise self.fail(
                number, f"'Nodes n', 'Edges m' or 'E u v weight' in the Graph section (undirected graphs only), got {tokens[0]!r}"
            )

    def terminal(self, tokens: list[str], number: int) -> None:
        keyword = tokens[0].upper()
        if keyword == "TERMINALS":
            self.count("terminals", tokens, number)
        elif keyword == "T" and len(tokens) == 2:
            self.terminals.append(self.vertex(tokens[1], number, "terminal"))
            self.terminal_lines.append(number)
        else:
            raise self.fail(number, f"'Terminals k' or 'T v' in the Terminals section (no root or prizes), got {' '.join(tokens)[:40]!r}")

    def coordinate(self, tokens: list[str], number: int) -> None:
        if tokens[0].upper() not in ("DD", "DDD") or len(tokens) != (4 if tokens[0].upper() == "DD" else 5):
            raise self.fail(number, "'DD v x y' or 'DDD v x y z' in the Coordinates section")
        v = self.vertex(tokens[1], number, "vertex")
        if v in self.coordinates:
            raise self.fail(number, f"one coordinate line per vertex, vertex {v + 1} again")
        try:
            self.coordinates[v] = [real(t) for t in tokens[2:]]
        except ValueError:
            raise self.fail(number, "numeric coordinates") from None


def _is_integer(token: str) -> bool:
    return token.isascii() and token.lstrip("+").isdigit()


def _weights(tokens: list[str]) -> np.ndarray:
    """The weights as int64 when every one is written as an integer, else float64."""
    if all(_is_integer(t) for t in tokens):
        return np.array([int(t) for t in tokens], dtype=np.int64)
    return np.array([float(t) for t in tokens], dtype=np.float64)


def _check_counts(reader: _Reader, eof: int) -> None:
    for key, found in (("edges", len(reader.edges)), ("terminals", len(reader.terminals))):
        if key not in reader.declared:
            raise reader.fail(eof, f"an '{key.capitalize()} k' line")
        declared, number = reader.declared[key]
        if declared != found:
            raise reader.fail(number, f"{declared} {key} as this line says, found {found} {key[0].upper()} lines")


def _instance(reader: _Reader, name: str) -> STPInstance:
    assert reader.nodes is not None
    n = reader.nodes
    edges = np.array(reader.edges, dtype=np.int64).reshape(-1, 2)
    keys = edge_keys(n, edges)
    order = np.argsort(keys, kind="stable")
    again = np.flatnonzero(np.diff(keys[order]) == 0)
    if again.size:
        u, v = edges[order[again[0] + 1]]
        raise reader.fail(reader.edge_lines[order[again[0] + 1]], f"each edge once, but {u + 1}-{v + 1} is listed again")
    terminals = np.array(reader.terminals, dtype=np.int64)
    seen: dict[int, int] = {}
    for t, number in zip(reader.terminals, reader.terminal_lines, strict=True):
        if t in seen:
            raise reader.fail(number, f"each terminal once, but {t + 1} was already listed on line {seen[t]}")
        seen[t] = number
    if not len(terminals):
        raise reader.fail(reader.declared["terminals"][1], "at least one terminal")
    apart = disconnected_terminal(n, edges, np.sort(terminals))
    if apart is not None:
        raise reader.fail(
            seen[apart],
            f"a connected terminal set, but the graph does not connect terminal {apart + 1} to terminal {int(terminals.min()) + 1}",
        )
    coordinates = None
    if reader.coordinates:
        if len(reader.coordinates) != n or len({len(c) for c in reader.coordinates.values()}) != 1:
            raise reader.fail(0, f"coordinates for all {n} vertices in one dimension, found {len(reader.coordinates)}")
        coordinates = np.array([reader.coordinates[v] for v in range(n)], dtype=np.float64)
    return STPInstance.build(name, n, edges, _weights(reader.weights), terminals, coordinates)


def read_steinlib(path: str | Path) -> STPInstance:
    """A SteinLib ``.stp`` Steiner tree instance (see the module's docstring for what is read and refused)."""
    path = Path(path)
    text = read_text(path)
    reader = _Reader(path, len(text))
    lines = text.splitlines()
    handlers = {"GRAPH": reader.graph, "TERMINALS": reader.terminal, "COORDINATES": reader.coordinate}
    section: str | None = None
    seen: set[str] = set()
    started = False
    for number, raw in enumerate(lines, start=1):
        tokens = fields(raw.split("#")[0])
        if not tokens:
            continue
        if not started:
            if tokens[0].upper() != MAGIC:
                raise reader.fail(number, f"the SteinLib header '{HEADER}'")
            started = True
            continue
        keyword = tokens[0].upper()
        if section is None:
            if keyword == "EOF":
                if any(t.split("#")[0].strip() for t in lines[number:]):
                    raise reader.fail(number + 1, "nothing after EOF")
                if reader.nodes is None:
                    raise reader.fail(number, "a Graph section with a 'Nodes n' line")
                _check_counts(reader, number)
                return _instance(reader, path.name.split(".")[0])
            if keyword != "SECTION" or len(tokens) < 2:
                raise reader.fail(number, f"'SECTION name' or 'EOF', got {raw.strip()[:40]!r}")
            section = tokens[1].upper()
            if section not in SECTIONS:
                raise reader.fail(
                    number, f"a section of {', '.join(s.capitalize() for s in SECTIONS)} (Steiner tree in graphs), got {tokens[1]!r}"
                )
            if section in seen:
                raise reader.fail(number, f"one {tokens[1]} section")
            seen.add(section)
        elif keyword == "END":
            section = None
        elif section in handlers:
            handlers[section](tokens, number)
    if not started:
        raise reader.fail(0, f"the SteinLib header '{HEADER}'")
    raise reader.fail(len(lines), "'END' to close the section" if section else "'EOF' after the last section (is the file cut short?)")


def steinlib_suffix(instance: STPInstance) -> str:
    return ".stp"


def _number(value: float | int) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def write_steinlib(path: str | Path, instance: STPInstance) -> None:
    """Write a SteinLib ``.stp`` file: Comment (the name), Graph, Terminals and, when present, Coordinates."""
    weights = instance.weights.tolist()
    lines = [HEADER, "", "SECTION Comment", f'Name    "{instance.name}"', 'Creator "frontierco"', "END", ""]
    lines += ["SECTION Graph", f"Nodes {instance.n}", f"Edges {instance.m}"]
    lines += [f"E {u + 1} {v + 1} {_number(w)}" for (u, v), w in zip(instance.edges.tolist(), weights, strict=True)]
    lines += ["END", "", "SECTION Terminals", f"Terminals {len(instance.terminals)}"]
    lines += [f"T {t + 1}" for t in instance.terminals.tolist()]
    lines += ["END", ""]
    if instance.coordinates is not None:
        kind = "DD" if instance.coordinates.shape[1] == 2 else "DDD"
        lines += ["SECTION Coordinates"]
        lines += [f"{kind} {v + 1} " + " ".join(_number(x) for x in row) for v, row in enumerate(instance.coordinates.tolist())]
        lines += ["END", ""]
    lines.append("EOF")
    Path(path).write_text("\n".join(lines) + "\n")
