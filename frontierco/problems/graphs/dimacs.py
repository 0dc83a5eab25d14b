"""Graph files for MIS: DIMACS (``p edge``/``e u v``, or a bare ``N M`` first line; .mis, .col, .clq, .dimacs, and
.b for the ASCII copies of the DIMACS clique graphs named so; LF or CRLF line ends),
METIS (.graph, .metis) and SATLIB CNF turned into the standard MIS graph.

The CNF reduction (Karp): one vertex per literal occurrence, a triangle (clique) per clause, and an
edge between every pair of complementary literal occurrences. A formula with m clauses is
satisfiable exactly when this graph has an independent set of size m.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.text import check_declared, open_text, read_text
from frontierco.problems.common.tokens import fields, wholes
from frontierco.problems.graphs.mis import MISInstance, canonical_edges


def _graph(path: Path, n: int, edges: list[tuple[int, int]], first_line: int) -> MISInstance:
    array = np.array(edges, dtype=np.int64).reshape(-1, 2)
    loops = np.flatnonzero(array[:, 0] == array[:, 1])
    if loops.size:
        raise FormatError(path, first_line, f"a simple graph, but vertex {array[loops[0], 0] + 1} has a self-loop")
    return MISInstance(name=path.name.split(".")[0], n=n, edges=canonical_edges(array))


MAX_VERTICES = 2**31 - 1  # vertex numbers fit int32
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _p_lines(text: str) -> list[int]:
    """Offsets of the lines that start with 'p' (str.find, not a Python loop over the lines)."""
    found = [0] if text.startswith("p") else []
    at = text.find("\np")
    while at != -1:
        found.append(at + 1)
        at = text.find("\np", at + 1)
    return found


def _first_content_line(text: str) -> int:
    """Offset of the first line that is neither empty nor a 'c' comment (len(text) when there is none)."""
    at = 0
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        tokens = fields(text[at:end])
        if tokens and tokens[0] != "c":
            return at
        at = end + 1
    return len(text)


def _dimacs_header(text: str, path: Path) -> tuple[int, int, int, int]:
    """(line number, offset, N, M) of the header, checked before anything is allocated: integers,
    0 <= N <= MAX_VERTICES, M >= 0. The header is the one 'p edge N M' line or, in a file without one (as
    some copies of the DIMACS clique graphs are), a bare 'N M' first line."""
    found = _p_lines(text)
    if len(found) > 1:
        raise FormatError(path, text.count("\n", 0, found[1]) + 1, "one 'p edge N M' line")
    start = found[0] if found else _first_content_line(text)
    end = text.find("\n", start)
    number, tokens = text.count("\n", 0, start) + 1, fields(text[start : None if end == -1 else end])
    if found:
        if len(tokens) != 4 or tokens[1] not in ("edge", "col"):
            raise FormatError(path, number, "one 'p edge N M' line")
        tokens = tokens[2:]
    elif len(tokens) != 2 or not all(t.lstrip("-").isdigit() for t in tokens):
        raise FormatError(path, 0, "a 'p edge N M' line (or a bare 'N M' first line)")
    n, m = wholes(tokens, path, number, "'p edge N M' with integer N and M")
    if not 0 <= n <= MAX_VERTICES or m < 0:
        raise FormatError(path, number, f"'p edge N M' with 0 <= N <= {MAX_VERTICES} and M >= 0, got N={n} M={m}")
    check_declared(path, number, n, "vertices", len(text))
    return number, start, n, m


def _comment_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each 'c' line (found with str.find: comments are few, edge lines many)."""
    starts = [0] if text.startswith("c") else []
    at = text.find("\nc")
    while at != -1:
        starts.append(at + 1)
        at = text.find("\nc", at + 1)
    spans = []
    for start in starts:
        end = text.find("\n", start)
        spans.append((start, len(text) if end == -1 else end))
    return spans


def _fast_dimacs(path: Path, text: str, n: int, header: int, start: int) -> np.ndarray | None:
    """Vectorised reading of the edges of a well-formed DIMACS file: numpy's C reader skips the lines up to the
    header (line ``header``, at offset ``start``), takes 'c' lines as comments and insists on the same three
    columns on every line, and counting 'e' in the text without comments proves that every other line starts
    with 'e' and holds no other; None when anything is unusual (the line-by-line reader then finds and names
    the problem)."""
    comments = _comment_spans(text)
    p_lines = _p_lines(text)
    if p_lines not in ([], [start]) or any(s > start for s, _ in comments):
        return None  # another header, or comments among the edges (the slow reader handles those)
    before = text[:start]
    if before.count("\n") != len(comments) or any(text[s:e].count("\n") for s, e in comments):
        return None  # something other than comments before the header
    end = text.find("\n", start)
    header_es = text[start : None if end == -1 else end].count("e")
    comment_es = sum(text[s:e].count("e") for s, e in comments)
    lines = text.count("\ne") + text.startswith("e")
    if text.count("e") - header_es - comment_es != lines:
        return None
    if not text.isascii() and _NON_ASCII.search(text, start) is not None:
        return None  # loadtxt splits at Unicode spaces ('e 1 2\u00a03' as 'e 1 2 3'): the line-by-line reader does not
    try:
        with open_text(path) as handle, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a graph without edges: loadtxt warns about an empty file
            values = np.loadtxt(handle, dtype=np.int64, comments="c", skiprows=header, usecols=(1, 2), ndmin=2)
    except ValueError:
        return None
    if len(values) != lines:
        return None
    values -= 1
    edges = values
    if edges.size and (edges.min() < 0 or edges.max() >= n or np.any(edges[:, 0] == edges[:, 1])):
        return None
    return edges


def _counted(path: Path, header: int, m: int, lines: int, instance: MISInstance) -> MISInstance:
    """The graph, once the header's M is one honest count of its edges: the 'e' lines, the distinct edges, or
    twice the distinct edges (the DIMACS DSJC graphs count each edge twice)."""
    if m not in (lines, instance.m, 2 * instance.m):
        found = f"found {lines} 'e' lines ({instance.m} distinct edges; M may count each edge once or twice)"
        raise FormatError(path, header, f"{m} edges as the header says, {found}")
    return instance


def read_dimacs(path: str | Path) -> MISInstance:
    """A DIMACS graph: ``c`` comments, one ``p edge N M`` line (or a bare ``N M`` first line), then ``e u v``
    lines (1-based). An edge listed twice is one edge."""
    path = Path(path)
    text = read_text(path)
    header, start, n, m = _dimacs_header(text, path)
    fast = _fast_dimacs(path, text, n, header, start)
    if fast is not None:
        del text  # the file's text is the largest thing held: free it before the edges are sorted
        graph = MISInstance(name=path.name.split(".")[0], n=n, edges=canonical_edges(fast))
        return _counted(path, header, m, len(fast), graph)
    edges: list[tuple[int, int]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = fields(raw)
        if not tokens or tokens[0] == "c" or number == header:
            continue
        if tokens[0] == "e" and len(tokens) == 3:
            if number < header:
                raise FormatError(path, number, "the 'p edge N M' line before any edge")
            u, v = wholes(tokens[1:], path, number, "'e u v' with integer vertices")
            if not (1 <= u <= n and 1 <= v <= n):
                raise FormatError(path, number, f"vertices in 1..{n}, got 'e {u} {v}'")
            edges.append((u - 1, v - 1))
        else:
            raise FormatError(path, number, f"'c ...', 'p edge N M' or 'e u v', got {raw.strip()[:40]!r}")
    return _counted(path, header, m, len(edges), _graph(path, n, edges, 0))


def dimacs_suffix(instance: MISInstance) -> str:
    return ".mis"


def write_dimacs(path: str | Path, instance: MISInstance) -> None:
    """Write a DIMACS ``p edge`` graph (1-based vertices)."""
    lines = [f"p edge {instance.n} {instance.m}"]
    lines += [f"e {u + 1} {v + 1}" for u, v in instance.edges.tolist()]
    Path(path).write_text("\n".join(lines) + "\n")


def read_metis(path: str | Path) -> MISInstance:
    """A METIS graph: header 'N M [fmt]', then one line of 1-based neighbours per vertex (unweighted)."""
    path = Path(path)
    rows = [(number, fields(raw)) for number, raw in enumerate(read_text(path).splitlines(), start=1)]
    rows = [(number, tokens) for number, tokens in rows if not (tokens and tokens[0].startswith("%"))]
    if not rows or not rows[0][1]:
        raise FormatError(path, 1, "a header line 'N M'")
    header_line, header = rows[0]
    values = wholes(header, path, header_line, "a header 'N M [fmt]' of integers")
    if len(values) not in (2, 3) or (len(values) == 3 and values[2] != 0):
        raise FormatError(path, header_line, "an unweighted METIS header 'N M' or 'N M 0'")
    n, m = values[0], values[1]
    adjacency = rows[1:]
    if len(adjacency) < n or any(tokens for _, tokens in adjacency[n:]):
        raise FormatError(path, header_line, f"{n} adjacency lines, found {sum(1 for _ in adjacency)}")
    edges: list[tuple[int, int]] = []
    for vertex, (number, tokens) in enumerate(adjacency[:n]):
        for w in wholes(tokens, path, number, "1-based integer neighbours"):
            if not 1 <= w <= n:
                raise FormatError(path, number, f"neighbours in 1..{n}, got {w}")
            edges.append((vertex, w - 1))
    instance = _graph(path, n, edges, header_line)
    if instance.m != m:
        raise FormatError(path, header_line, f"{m} edges as the header says, found {instance.m}")
    return instance


def write_metis(path: str | Path, instance: MISInstance) -> None:
    """Write an unweighted METIS graph."""
    neighbours: list[list[int]] = [[] for _ in range(instance.n)]
    for u, v in instance.edges.tolist():
        neighbours[u].append(v + 1)
        neighbours[v].append(u + 1)
    lines = [f"{instance.n} {instance.m}"] + [" ".join(map(str, sorted(ns))) for ns in neighbours]
    Path(path).write_text("\n".join(lines) + "\n")


def read_cnf_clauses(path: str | Path) -> tuple[int, list[list[int]]]:
    """A DIMACS CNF: 'p cnf V C', then clauses of non-zero literals, each ended by 0."""
    variables, clauses, _ = _read_cnf(Path(path))
    return variables, clauses


def _read_cnf(path: Path) -> tuple[int, list[list[int]], int]:
    """(variables, clauses, the length of the file's text in characters)."""
    variables: int | None = None
    declared = 0
    clauses: list[list[int]] = []
    current: list[int] = []
    text = read_text(path)
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = fields(raw)
        if not tokens or tokens[0] == "c":
            continue
        if tokens[0] == "%":
            break
        if tokens[0] == "p":
            if variables is not None or len(tokens) != 4 or tokens[1] != "cnf":
                raise FormatError(path, number, "one 'p cnf VARIABLES CLAUSES' line")
            variables, declared = wholes(tokens[2:], path, number, "'p cnf V C' with integers")
            continue
        if variables is None:
            raise FormatError(path, number, "the 'p cnf V C' line before any clause")
        for literal in wholes(tokens, path, number, "integer literals ended by 0"):
            if literal == 0:
                if current:
                    clauses.append(current)
                current = []
            elif abs(literal) > variables:
                raise FormatError(path, number, f"literals in +-1..{variables}, got {literal}")
            else:
                current.append(literal)
    if variables is None:
        raise FormatError(path, 0, "a 'p cnf VARIABLES CLAUSES' line")
    if current:
        clauses.append(current)
    if len(clauses) != declared:
        raise FormatError(path, 0, f"{declared} clauses as the header says, found {len(clauses)}")
    return variables, clauses, len(text)


# The MIS graph of a CNF grows with the square of a clause's length and of a variable's occurrences: a 24 KB file
# of one 5,000-literal clause made 12.5M edges (1.6 GB). SATLIB's graphs have under one edge per character of
# their file (uf, flat, CBS), so this bound refuses none of them and keeps the graph linear in the file.
CNF_EDGES_PER_CHARACTER = 16


def cnf_edge_count(clauses: list[list[int]]) -> int:
    """The edges ``cnf_to_mis`` makes (a pair listed twice counted twice), counted without making them."""
    occurrences = Counter(literal for clause in clauses for literal in clause)
    cliques = sum(len(clause) * (len(clause) - 1) // 2 for clause in clauses)
    return cliques + sum(count * occurrences[-literal] for literal, count in occurrences.items() if literal > 0)


def cnf_to_mis(name: str, clauses: list[list[int]]) -> MISInstance:
    """The MIS graph of a CNF: a clique per clause, edges between complementary occurrences (arrays, never a
    Python object per edge)."""
    sizes = np.array([len(clause) for clause in clauses], dtype=np.int64)
    firsts = np.cumsum(sizes) - sizes  # each clause's first vertex
    pieces = [np.zeros((0, 2), dtype=np.int64)]
    for size in np.unique(sizes[sizes > 1]).tolist():  # the cliques of all clauses of one length at once
        starts = firsts[sizes == size][:, None]
        a, b = np.triu_indices(size, 1)
        pieces.append(np.column_stack(((starts + a).ravel(), (starts + b).ravel())))
    occurrences: dict[int, list[int]] = defaultdict(list)
    for vertex, literal in enumerate(literal for clause in clauses for literal in clause):
        occurrences[literal].append(vertex)
    for literal, positives in occurrences.items():
        negatives = occurrences.get(-literal, []) if literal > 0 else []
        if negatives:
            pieces.append(np.column_stack((np.repeat(positives, len(negatives)), np.tile(negatives, len(positives)))))
    return MISInstance(name=name, n=int(sizes.sum()), edges=canonical_edges(np.concatenate(pieces)))


def read_cnf_as_mis(path: str | Path) -> MISInstance:
    """Read a SATLIB CNF and return its MIS graph (optimum = number of clauses iff satisfiable); a graph of more
    than ``CNF_EDGES_PER_CHARACTER`` edges per character of the file is refused before any edge is made."""
    path = Path(path)
    _, clauses, size = _read_cnf(path)
    edges = cnf_edge_count(clauses)
    if edges > CNF_EDGES_PER_CHARACTER * size:
        raise FormatError(
            path,
            0,
            f"a CNF whose MIS graph has at most {CNF_EDGES_PER_CHARACTER} edges per character of the file "
            f"({CNF_EDGES_PER_CHARACTER * size} here), this one has {edges} (long clauses or many complementary occurrences)",
        )
    return cnf_to_mis(path.name.split(".")[0], clauses)
