"""The Steiner tree problem in graphs: connect every terminal of an undirected edge-weighted graph by a tree
of least total weight.

Vertices are 0..n-1 (files and messages number them from 1, as SteinLib does). Weights stay integers when
every weight is one (SteinLib's instances), so that a tree's cost is exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import first_out_of_range, first_repeated, times
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import fields, whole


def edge_keys(n: int, edges: np.ndarray) -> np.ndarray:
    """One integer per edge, ``min * n + max``: the order the instance keeps its edges in."""
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return np.minimum(edges[:, 0], edges[:, 1]) * max(n, 1) + np.maximum(edges[:, 0], edges[:, 1])


def _components(n: int, edges: np.ndarray) -> np.ndarray:
    """The connected component of every vertex (scipy's union of the edges)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n)) if len(edges) else coo_matrix((n, n))
    return connected_components(graph, directed=False)[1]


@dataclass(frozen=True, eq=False)
class STPInstance:
    """An undirected graph on vertices 0..n-1, its edges as sorted pairs (u < v, each pair once, in the order
    of ``edge_keys``) with non-negative weights (int64 when all are whole numbers), and the terminals (sorted,
    at least one, all in one connected component). ``coordinates`` are the vertices' points when the file
    gives them (SteinLib's Coordinates section). ``STPInstance.build`` sorts the edges first."""

    name: str
    n: int
    edges: np.ndarray
    weights: np.ndarray
    terminals: np.ndarray
    coordinates: np.ndarray | None = None

    def __post_init__(self) -> None:
        problem = instance_problem(self.n, self.edges, self.weights, self.terminals)
        if problem:
            raise ValueError(problem)
        if self.coordinates is not None and (self.coordinates.ndim != 2 or len(self.coordinates) != self.n):
            raise ValueError(f"coordinates must have one row per vertex ({self.n}), got shape {self.coordinates.shape}")

    @classmethod
    def build(
        cls, name: str, n: int, edges: object, weights: object, terminals: object, coordinates: np.ndarray | None = None
    ) -> STPInstance:
        """The instance of these edges in any order and orientation (int64 weights when all are integers)."""
        pairs = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        values = np.asarray(weights).reshape(-1)
        if values.size and not np.issubdtype(values.dtype, np.integer):
            values = values.astype(np.float64)
            if np.all(np.isfinite(values)) and np.all(values == np.round(values)) and np.abs(values).max() < 2**53:
                values = values.astype(np.int64)
        elif not values.size:
            values = values.astype(np.int64)
        order = np.argsort(edge_keys(n, pairs), kind="stable")
        pairs = np.sort(pairs[order], axis=1)
        return cls(name, n, pairs, values[order], np.unique(np.asarray(terminals, dtype=np.int64)), coordinates)

    @property
    def m(self) -> int:
        return int(len(self.edges))

    @property
    def integer_weights(self) -> bool:
        return bool(np.issubdtype(self.weights.dtype, np.integer))

    @cached_property
    def keys(self) -> np.ndarray:
        """``edge_keys`` of the edges, increasing (for looking an edge up by its endpoints)."""
        return edge_keys(self.n, self.edges)


def disconnected_terminal(n: int, edges: np.ndarray, terminals: np.ndarray) -> int | None:
    """The first terminal that the graph does not connect to the first one, or None."""
    if len(terminals) < 2:
        return None
    component = _components(n, edges)
    apart = np.flatnonzero(component[terminals] != component[terminals[0]])
    return int(terminals[apart[0]]) if apart.size else None


def instance_problem(n: int, edges: np.ndarray, weights: np.ndarray, terminals: np.ndarray) -> str:
    """What is wrong with this graph and terminal set, in one line ('' when nothing is); vertices numbered from 1."""
    if n < 1:
        return f"a graph needs at least one vertex, got {n}"
    if edges.ndim != 2 or edges.shape[1] != 2 or not np.issubdtype(edges.dtype, np.integer):
        return "edges must be an (m, 2) integer array"
    if weights.shape != (len(edges),):
        return f"one weight per edge: {len(edges)} edges, {weights.size} weights"
    if len(edges):
        bad = first_out_of_range(edges.reshape(-1), 0, n - 1)
        if bad is not None:
            return f"edge endpoint {bad + 1} is not a vertex (1..{n})"
        loop = np.flatnonzero(edges[:, 0] == edges[:, 1])
        if loop.size:
            return f"vertex {edges[loop[0], 0] + 1} has a self-loop"
        if np.any(edges[:, 0] > edges[:, 1]) or np.any(np.diff(edge_keys(n, edges)) <= 0):
            return "edges must be sorted pairs u < v, each pair once (STPInstance.build sorts them)"
        if not np.all(np.isfinite(weights)) or weights.min() < 0:
            k = int(np.flatnonzero(~np.isfinite(weights) | (weights < 0))[0])
            return f"edge {edges[k, 0] + 1}-{edges[k, 1] + 1} has weight {weights[k]}, but weights must be finite and non-negative"
    if terminals.ndim != 1 or not len(terminals) or not np.issubdtype(terminals.dtype, np.integer):
        return "at least one terminal, as a flat integer array"
    bad = first_out_of_range(terminals, 0, n - 1)
    if bad is not None:
        return f"terminal {bad + 1} is not a vertex (1..{n})"
    if np.any(np.diff(terminals) <= 0):
        return "terminals must be sorted, each once"
    apart = disconnected_terminal(n, edges, terminals)
    if apart is not None:
        return f"terminal {apart + 1} is not connected to terminal {terminals[0] + 1}: no tree spans the terminals"
    return ""


@dataclass(frozen=True, eq=False)
class STPSolution:
    """The tree's edges, as (k, 2) vertex pairs (either orientation)."""

    edges: np.ndarray


def _solution_edges(edges: object) -> tuple[np.ndarray | None, str]:
    array = np.asarray(edges)
    if array.size == 0:
        return np.zeros((0, 2), dtype=np.int64), ""
    if array.ndim != 2 or array.shape[1] != 2:
        return None, f"edges must be a list of vertex pairs, got shape {array.shape}"
    if not np.issubdtype(array.dtype, np.integer):
        if not np.issubdtype(array.dtype, np.number) or not np.all(np.isfinite(array)) or np.any(array != np.round(array)):
            return None, "edges contain endpoints that are not integers"
    return array.astype(np.int64), ""


def _find(parent: list[int], v: int) -> int:
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


def evaluate(instance: STPInstance, solution: STPSolution) -> Evaluation:
    """The edges exist, none twice, they form a tree (acyclic and connected) and the tree holds every terminal;
    the objective is the sum of their weights (exact for integer weights)."""
    edges, problem = _solution_edges(solution.edges)
    if edges is None:
        return Evaluation.infeasible(problem)
    n = instance.n
    if len(edges):
        bad = first_out_of_range(edges.reshape(-1), 0, n - 1)
        if bad is not None:
            return Evaluation.infeasible(f"edge endpoint {bad + 1} is not a vertex (1..{n}; vertices numbered from 1)")
    keys = edge_keys(n, edges)
    at = np.minimum(np.searchsorted(instance.keys, keys), max(instance.m - 1, 0))
    missing = np.flatnonzero(instance.keys[at] != keys) if instance.m else np.arange(len(keys))
    if missing.size:
        u, v = edges[missing[0]]
        return Evaluation.infeasible(f"edge {u + 1}-{v + 1} is not an edge of the graph (vertices numbered from 1)")
    repeated = first_repeated(at, max(instance.m, 1)) if len(at) else None
    if repeated is not None:
        u, v = instance.edges[repeated[0]]
        return Evaluation.infeasible(f"edge {u + 1}-{v + 1} listed {times(repeated[1])}: a tree uses an edge once")
    parent = list(range(n))
    for u, v in edges.tolist():
        ru, rv = _find(parent, u), _find(parent, v)
        if ru == rv:
            return Evaluation.infeasible(f"edge {u + 1}-{v + 1} closes a cycle: the edges do not form a tree")
        parent[ru] = rv
    vertices = np.unique(edges.reshape(-1)) if len(edges) else instance.terminals[:1]
    roots = {_find(parent, int(v)) for v in vertices}
    if len(roots) > 1:
        a = int(vertices[0])
        b = next(int(v) for v in vertices if _find(parent, int(v)) != _find(parent, a))
        return Evaluation.infeasible(f"the edges are not connected: vertices {a + 1} and {b + 1} are in different pieces")
    inside = np.zeros(n, dtype=bool)
    inside[vertices] = True
    outside = np.flatnonzero(~inside[instance.terminals])
    if outside.size:
        return Evaluation.infeasible(f"terminal {instance.terminals[outside[0]] + 1} is not in the tree (vertices numbered from 1)")
    chosen = instance.weights[at] if len(at) else instance.weights[:0]
    cost = sum(chosen.tolist()) if instance.integer_weights else math.fsum(chosen.tolist())  # Python integers: exact
    return Evaluation.ok(cost)


def write_solution_file(path: Path, instance: STPInstance, solution: STPSolution, objective: float | None) -> None:
    """One edge per line, 'u v' numbered from 1 as in SteinLib files; a first comment line gives the cost."""
    edges = np.sort(np.asarray(solution.edges, dtype=np.int64).reshape(-1, 2), axis=1)
    head = f"# cost {objective:.12g}\n" if objective is not None else ""
    path.write_text(head + "".join(f"{u + 1} {v + 1}\n" for u, v in edges.tolist()))


def read_solution_file(path: Path, instance: STPInstance) -> STPSolution:
    pairs = []
    for number, raw in enumerate(read_text(path).splitlines(), start=1):
        tokens = fields(raw.split("#")[0])
        if not tokens:
            continue
        try:
            if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
                raise ValueError
            pairs.append((whole(tokens[0]) - 1, whole(tokens[1]) - 1))
        except ValueError:
            raise FormatError(path, number, "one edge 'u v' per line, vertices numbered from 1") from None
    return STPSolution(np.array(pairs, dtype=np.int64).reshape(-1, 2))


PROBLEM = Problem(
    name="stp",
    sense="min",
    instance_type=STPInstance,
    solution_type=STPSolution,
    evaluate=evaluate,
    description="Steiner tree in graphs; total edge weight of a tree spanning the terminals, minimise",
    to_data=lambda solution: {"edges": np.asarray(solution.edges).reshape(-1, 2).tolist()},
    from_data=lambda data: STPSolution(np.asarray(data["edges"]).reshape(-1, 2)),
    size=lambda instance: int(instance.n),
    describe=lambda instance: f"{instance.n} vertices, {instance.m} edges, {len(instance.terminals)} terminals",
    default_collection="stp-random-small",
    reference_solver="stp-scip",
    baseline="stp-sph",
    time_shift=1.0,
    solution_suffix=".txt",
    cases="frontierco.problems.steiner.cases:stp_cases",
    frontierco_folder="STP",
)
