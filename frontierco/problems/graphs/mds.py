"""Minimum dominating set on an undirected simple graph stored as an edge array (edges as for MIS:
``mis.canonical_edges``, neighbours as ``mis.Adjacency``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import as_index_array, first_out_of_range, first_repeated, times
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import whole
from frontierco.problems.graphs.mis import Adjacency, SimpleGraph


@dataclass(frozen=True, eq=False)
class MDSInstance(SimpleGraph):
    """A graph whose minimum dominating set is sought (the graph data and its checks: ``mis.SimpleGraph``)."""

    @cached_property
    def adjacency(self) -> Adjacency:
        """Both directions of every edge as compressed, sorted adjacency lists (open neighbourhoods), by scipy's
        counting sort (COO to CSR keeps each row in input order: the (v, u) half first, as the edges are sorted
        by (u, v), gives sorted rows)."""
        import scipy.sparse as sp

        sources = np.concatenate([self.edges[:, 1], self.edges[:, 0]])
        targets = np.concatenate([self.edges[:, 0], self.edges[:, 1]])
        ones = np.ones(sources.size, dtype=np.int8)
        matrix = sp.csr_matrix((ones, (sources, targets)), shape=(self.n, self.n))
        return Adjacency(matrix.indptr.astype(np.int64), matrix.indices.astype(np.int64))


@dataclass(frozen=True, eq=False)
class MDSSolution:
    """The chosen vertices (0-based)."""

    vertices: np.ndarray


def dominated_by(instance: MDSInstance, selected: np.ndarray) -> np.ndarray:
    """Which vertices a boolean selection dominates: chosen, or with a chosen neighbour."""
    dominated = selected.copy()
    if instance.m:
        u, v = instance.edges[:, 0], instance.edges[:, 1]
        dominated[v[selected[u]]] = True
        dominated[u[selected[v]]] = True
    return dominated


def evaluate(instance: MDSInstance, solution: MDSSolution) -> Evaluation:
    """Domination checked over the edge list in O(|V| + |E|); the objective is the set's size."""
    chosen, problem = as_index_array(solution.vertices, "vertex set")
    if chosen is None:
        return Evaluation.infeasible(problem)
    bad = first_out_of_range(chosen, 0, instance.n - 1)
    if bad is not None:
        return Evaluation.infeasible(f"vertex {bad + 1} is not in 1..{instance.n} (vertices numbered from 1, as in PACE files)")
    repeated = first_repeated(chosen, instance.n)
    if repeated is not None:
        return Evaluation.infeasible(f"vertex {repeated[0] + 1} listed {times(repeated[1])} (vertices numbered from 1)")
    selected = np.zeros(instance.n, dtype=bool)
    selected[chosen] = True
    missed = np.flatnonzero(~dominated_by(instance, selected))
    if missed.size:
        return Evaluation.infeasible(
            f"vertex {missed[0] + 1} is not dominated: neither chosen nor adjacent to a chosen vertex"
            f" ({missed.size} such vertices; numbered from 1)"
        )
    return Evaluation.ok(float(chosen.size))


def write_solution_file(path: Path, instance: MDSInstance, solution: MDSSolution, objective: float | None) -> None:
    """PACE 2025's solution form: the set's size on the first line, then one 1-based vertex per line."""
    vertices = np.sort(np.asarray(solution.vertices))
    path.write_text(f"{vertices.size}\n" + "".join(f"{int(v) + 1}\n" for v in vertices))


def read_solution_file(path: Path, instance: MDSInstance) -> MDSSolution:
    """A PACE 2025 solution: 'c' comments, the size, then that many 1-based vertices."""
    lines = [(k, raw.strip()) for k, raw in enumerate(read_text(path).splitlines(), start=1)]
    lines = [(k, s) for k, s in lines if s and not s.startswith("c")]
    values = []
    for number, text in lines:
        try:
            values.append(whole(text))
        except ValueError:
            raise FormatError(path, number, "the set's size, then one 1-based vertex number per line") from None
    if not values:
        raise FormatError(path, 0, "the set's size on the first line")
    if values[0] != len(values) - 1:
        raise FormatError(path, lines[0][0], f"a size equal to the {len(values) - 1} vertices listed, got {values[0]}")
    return MDSSolution(np.array(values[1:], dtype=np.int64) - 1)


def _decode(data: dict[str, object]) -> MDSSolution:
    return MDSSolution(np.asarray(data["vertices"]))


PROBLEM = Problem(
    name="mds",
    sense="min",
    instance_type=MDSInstance,
    solution_type=MDSSolution,
    evaluate=evaluate,
    description="minimum dominating set; set size, minimise",
    to_data=lambda solution: {"vertices": np.asarray(solution.vertices).tolist()},
    from_data=_decode,
    size=lambda instance: int(instance.n),
    describe=lambda instance: f"{instance.n} vertices, {instance.m} edges",
    default_collection="mds-ba-easy",
    reference_solver="mds-greedy",  # at 60 s it beat mds-cpsat on all of mds-ba-hard and 3 of 8 of mds-ba-easy
    baseline="mds-greedy",
    time_shift=1.0,
    solution_suffix=".sol",
    cases="frontierco.problems.graphs.cases:mds_cases",
    size_unit="vertices",
    frontierco_folder="MDS",
)
