"""From vertex scores to dominating sets: vertices by decreasing score, each taken while its closed neighbourhood
holds an undominated vertex, until every vertex is dominated (the greedy decoding of the heatmap family, for a
covering problem); then the redundant vertices (every vertex of N[v] dominated twice) dropped, lowest score first.
The set comes back inside the suite's dominating-set local search (``frontierco.kit.dominating_search``), ready
for its moves."""

from __future__ import annotations

import math

import numpy as np

from frontierco.kit.dominating_search import DominatingSearch
from frontierco.kit.solverkit import Clock
from frontierco.problems import MDSInstance


def greedy_cover(indptr: list[int], indices: list[int], order: np.ndarray) -> list[int]:
    """The vertices of ``order``, each taken while it dominates a vertex not yet dominated, until all are."""
    n = len(indptr) - 1
    dominated = bytearray(n)
    left = n
    chosen = []
    for v in order.tolist():
        if left == 0:
            break
        closed = [v, *indices[indptr[v] : indptr[v + 1]]]
        fresh = [u for u in closed if not dominated[u]]
        if fresh:
            chosen.append(v)
            for u in fresh:
                dominated[u] = 1
            left -= len(fresh)
    return chosen


def decode(instance: MDSInstance, scores: np.ndarray, lists: tuple[list[int], list[int]] | None = None) -> DominatingSearch:
    """The greedy cover by decreasing score (ties by vertex number), redundant vertices dropped by increasing
    score; ``lists`` the CSR arrays as lists when the caller holds them."""
    indptr, indices = lists if lists is not None else (instance.adjacency.indptr.tolist(), instance.adjacency.indices.tolist())
    order = np.argsort(-scores, kind="stable")
    search = DominatingSearch(indptr, indices, np.array(greedy_cover(indptr, indices, order), dtype=np.int64), instance.n)
    search.prune(order[::-1].tolist(), Clock(math.inf))  # prune skips the vertices outside the set
    return search


def degree_scores(instance: MDSInstance) -> np.ndarray:
    """The scores of the degree greedy: larger degree first."""
    return instance.adjacency.degrees.astype(np.float64)
