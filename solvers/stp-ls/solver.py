"""Steiner trees by the shortest-path heuristic and local search; on instances whose edges all weigh the same, a
search over Steiner-vertex sets (``frontierco.kit.steiner_vertex_search``) then runs until the time is up."""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from frontierco.kit import steiner_search, steiner_vertex_search
from frontierco.kit.solverkit import Clock
from frontierco.kit.steiner_search import heuristic_tree, improve, iterated_search, mst_prune, search_weights, tree_cost
from frontierco.kit.steiner_vertex_search import VertexSearch
from frontierco.problems import STPInstance, STPSolution
from frontierco.solver import Budget, Proven, Solver

WORK_PER_CHUNK = 200_000  # vertices scanned between looks at the clock (a step scans every vertex a few times)
STALL_STEPS_PER_VERTEX = 100  # the vertex-set search ends after max(10,000, 100 n) steps without a better set


def equal_weights(instance: STPInstance) -> bool:
    """Whether every edge weighs the same positive amount (then a tree costs its vertex count less one)."""
    return bool(instance.m and instance.weights[0] > 0 and np.all(instance.weights == instance.weights[0]))


def vertex_set_trees(instance: STPInstance, seed: int, deadline: float, tenure: int, noise: int) -> Iterator[np.ndarray]:
    """Better and better trees of an equal-weight instance: the shortest-path heuristic from a root drawn by
    ``seed``, improved by ``steiner_search.improve``, then the vertex-set search from its vertices, until
    ``deadline`` or ``max(10_000, 100 n)`` steps without a better set."""
    weights = search_weights(instance)
    root = int(np.random.default_rng(seed).choice(instance.terminals))
    tree = heuristic_tree(instance, root, weights)
    yield tree
    best = tree_cost(instance, tree)
    tree = improve(instance, tree, weights, deadline)
    if tree_cost(instance, tree) < best:
        best = tree_cost(instance, tree)
        yield tree
    adjacency = steiner_search.adjacency(instance)
    terminal = np.zeros(instance.n, dtype=bool)
    terminal[instance.terminals] = True
    indptr, indices = adjacency.indptr.astype(np.int64), adjacency.indices.astype(np.int64)
    search = VertexSearch(indptr, indices, terminal, steiner_search.vertices_of(instance, tree), seed, tenure, noise)
    chunk = max(1, WORK_PER_CHUNK // instance.n)
    patience, last = max(10_000, STALL_STEPS_PER_VERTEX * instance.n), 0
    while time.monotonic() < deadline and search.steps_taken - last < patience:
        if search.run(chunk):
            last = search.steps_taken
            tree = mst_prune(instance, search.best, weights)
            if tree_cost(instance, tree) < best:
                best = tree_cost(instance, tree)
                yield tree


class SteinerLocalSearch(Solver):
    name = "stp-ls"
    problems = ("stp",)
    version = "1"
    deterministic = True
    requires = {"numba": "numba>=0.59"}

    def setup(self) -> None:
        steiner_search.warm_up()
        steiner_vertex_search.warm_up()

    def solve(self, instance: STPInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        deadline = clock.started + budget.time_limit * (1.0 - clock.margin)
        if len(instance.terminals) > 2 and equal_weights(instance):
            trees = vertex_set_trees(instance, budget.seed, deadline, int(self.params["tenure"]), int(self.params["noise"]))
        else:
            trees = iterated_search(instance, budget.seed, deadline)
        for tree in trees:
            solution = STPSolution(instance.edges[tree])
            yield Proven(solution) if len(instance.terminals) <= 2 else solution  # no tree, or a shortest path: optimal
