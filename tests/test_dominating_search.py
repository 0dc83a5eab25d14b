"""The dominating-set local search: counts, the greedy completion, pruning and remove-and-repair moves keep the set
dominating."""

from __future__ import annotations

import math
import random

import numpy as np

from frontierco.kit.dominating_search import DominatingSearch
from frontierco.kit.solverkit import Clock
from frontierco.problems import MDSSolution, evaluate
from frontierco.problems.generate import generate


def lists(graph: object) -> tuple[list[int], list[int]]:
    adjacency = graph.adjacency  # type: ignore[attr-defined]
    return adjacency.indptr.tolist(), adjacency.indices.tolist()


def test_the_greedy_completes_a_dominating_set_and_pruning_keeps_it_one() -> None:
    graph = generate("mds-ba", "ba", 3, {"n": 200, "m": 3}).instance
    indptr, indices = lists(graph)
    search = DominatingSearch(indptr, indices, np.zeros(0, dtype=np.int64), graph.n)
    assert search.greedy([0.0] * graph.n, Clock(math.inf), math.inf)
    assert evaluate(graph, MDSSolution(search.vertices())).feasible
    everything = DominatingSearch(indptr, indices, np.arange(graph.n), graph.n)
    everything.prune(list(range(graph.n)), Clock(math.inf))
    assert evaluate(graph, MDSSolution(everything.vertices())).feasible
    assert not any(everything.redundant(v) for v in everything.vertices().tolist())


def test_moves_never_grow_the_set_and_keep_it_dominating() -> None:
    graph = generate("mds-ba", "ba", 4, {"n": 200, "m": 3}).instance
    indptr, indices = lists(graph)
    search = DominatingSearch(indptr, indices, np.arange(graph.n), graph.n)
    walk = random.Random(0)
    sizes = [search.size]
    for _ in range(300):
        search.move(int(walk.choice(search.vertices().tolist())), walk)
        sizes.append(search.size)
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] < graph.n
    assert evaluate(graph, MDSSolution(search.vertices())).feasible
    assert search.count == [sum(search.inside[u] for u in [v, *indices[indptr[v] : indptr[v + 1]]]) for v in range(graph.n)]
