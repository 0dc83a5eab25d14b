"""Maximum independent set on an undirected simple graph stored as an edge array."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import as_index_array, first_out_of_range, first_repeated, times
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import fields, whole


def canonical_edges(edges: np.ndarray) -> np.ndarray:
    """Edges as a sorted, duplicate-free (m, 2) int array with u < v; self-loops must be removed first."""
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if not len(edges):
        return edges
    keys = np.minimum(edges[:, 0], edges[:, 1])  # in place from here on: a 10M-edge graph stays well under 1 GB
    high = np.maximum(edges[:, 0], edges[:, 1])
    base = int(high.max()) + 1
    keys *= base
    keys += high
    del high
    keys.sort()
    if len(keys) > 1 and np.any(keys[1:] == keys[:-1]):
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    out = np.empty((len(keys), 2), dtype=np.int64)
    np.floor_divide(keys, base, out=out[:, 0])
    np.remainder(keys, base, out=out[:, 1])
    return out


@dataclass(frozen=True, eq=False)
class Adjacency:
    """Compressed adjacency lists: the neighbours of v are ``indices[indptr[v]:indptr[v + 1]]``, sorted."""

    indptr: np.ndarray
    indices: np.ndarray

    @property
    def degrees(self) -> np.ndarray:
        return np.diff(self.indptr)

    def neighbours(self, v: int) -> np.ndarray:
        return self.indices[self.indptr[v] : self.indptr[v + 1]]


@dataclass(frozen=True, eq=False)
class SimpleGraph:
    """Vertices 0..n-1 and undirected edges (u < v, no loops, no duplicates): the data of the graph problems
    (MIS, MDS), each of which is its own subclass."""

    name: str
    n: int
    edges: np.ndarray

    def __post_init__(self) -> None:
        if self.edges.ndim != 2 or self.edges.shape[1] != 2:
            raise ValueError("edges must have shape (m, 2)")
        if len(self.edges) and (self.edges.min() < 0 or self.edges.max() >= self.n):
            raise ValueError(f"edge endpoint outside 0..{self.n - 1}")
        if len(self.edges) and np.any(self.edges[:, 0] == self.edges[:, 1]):
            raise ValueError("self-loops are not allowed in a simple graph")

    @property
    def m(self) -> int:
        return int(len(self.edges))


@dataclass(frozen=True, eq=False)
class MISInstance(SimpleGraph):
    """A graph whose maximum independent set is sought."""

    @cached_property
    def adjacency(self) -> Adjacency:
        """Both directions of every edge as compressed adjacency lists (for solvers)."""
        sources = np.concatenate([self.edges[:, 0], self.edges[:, 1]])
        targets = np.concatenate([self.edges[:, 1], self.edges[:, 0]])
        order = np.lexsort((targets, sources))
        indptr = np.concatenate([[0], np.cumsum(np.bincount(sources, minlength=self.n))])
        return Adjacency(indptr.astype(np.int64), targets[order].astype(np.int64))


@dataclass(frozen=True, eq=False)
class MISSolution:
    """The chosen vertices."""

    vertices: np.ndarray


MAX_COMPLEMENT_VERTICES = 5000  # the complement is built over all n(n - 1)/2 pairs (12.5M here, ~0.3 GB)


def complement(instance: MISInstance) -> MISInstance:
    """The complement graph: u and v adjacent exactly when they are not in ``instance`` (an independent set here
    is a clique there)."""
    n = instance.n
    if n > MAX_COMPLEMENT_VERTICES:
        raise ValueError(f"{instance.name} has {n} vertices: complements are built for at most {MAX_COMPLEMENT_VERTICES}")
    adjacent = np.zeros((n, n), dtype=bool)
    adjacent[instance.edges[:, 0], instance.edges[:, 1]] = True
    u, v = np.triu_indices(n, k=1)
    keep = ~adjacent[u, v]
    return MISInstance(instance.name, n, np.stack([u[keep], v[keep]], axis=1).astype(np.int64))


def evaluate(instance: MISInstance, solution: MISSolution) -> Evaluation:
    """Independence checked over the edge list in O(|V| + |E|); the objective is the set's size."""
    chosen, problem = as_index_array(solution.vertices, "vertex set")
    if chosen is None:
        return Evaluation.infeasible(problem)
    bad = first_out_of_range(chosen, 0, instance.n - 1)
    if bad is not None:
        return Evaluation.infeasible(f"vertex {bad + 1} is not in 1..{instance.n} (vertices numbered from 1, as in DIMACS files)")
    repeated = first_repeated(chosen, instance.n)
    if repeated is not None:
        return Evaluation.infeasible(f"vertex {repeated[0] + 1} listed {times(repeated[1])} (vertices numbered from 1)")
    selected = np.zeros(instance.n, dtype=bool)
    selected[chosen] = True
    if instance.m:
        clash = np.flatnonzero(selected[instance.edges[:, 0]] & selected[instance.edges[:, 1]])
        if clash.size:
            u, v = instance.edges[clash[0]]
            return Evaluation.infeasible(f"vertices {u + 1} and {v + 1} are both chosen but adjacent (numbered from 1)")
    return Evaluation.ok(float(chosen.size))


def write_solution_file(path: Path, instance: MISInstance, solution: MISSolution, objective: float | None) -> None:
    """One vertex per line, numbered from 1 as in DIMACS files."""
    path.write_text("".join(f"{int(v) + 1}\n" for v in np.sort(solution.vertices)))


def read_solution_file(path: Path, instance: MISInstance) -> MISSolution:
    """1-based vertex numbers, one per line (any whitespace between them reads); a token that is none is a FormatError
    naming its line."""
    vertices: list[int] = []
    for number, raw in enumerate(read_text(path).splitlines(), start=1):
        try:
            vertices += [whole(t) for t in fields(raw)]
        except ValueError:
            raise FormatError(path, number, "one 1-based vertex number per line") from None
    return MISSolution(np.array(vertices, dtype=np.int64) - 1)


PROBLEM = Problem(
    name="mis",
    sense="max",
    instance_type=MISInstance,
    solution_type=MISSolution,
    evaluate=evaluate,
    description="maximum independent set; set size, maximise",
    to_data=lambda solution: {"vertices": np.asarray(solution.vertices).tolist()},
    from_data=lambda data: MISSolution(np.asarray(data["vertices"])),
    size=lambda instance: int(instance.n),
    describe=lambda instance: f"{instance.n} vertices, {instance.m} edges",
    default_collection="mis-rb-small",
    reference_solver="chils",
    baseline="scip",
    time_shift=1.0,
    solution_suffix=".txt",
    cases="frontierco.problems.graphs.cases:mis_cases",
    size_unit="vertices",
    transforms={"complement": complement},
    frontierco_folder="MIS",
)
