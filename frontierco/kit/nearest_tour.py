"""The nearest-neighbour tour on coordinates in O(n k) steps instead of O(n^2), compiled with numba: the tour
``solverkit.nearest_neighbour`` builds (always to the closest unvisited node under the instance's own rounding rule,
the lowest index among equally close ones), found among each node's k nearest points (a k-d tree) and by a scan
of every node only where the list cannot decide: when every listed point is visited, or when the farthest listed
point is as close, after rounding, as the best unvisited one, so that an unlisted node could tie with it."""

from __future__ import annotations

import numpy as np
from numba import njit

from frontierco.kit.solverkit import nearest_neighbour
from frontierco.kit.tour_search import RULE_CODES, _cost, nearest_neighbours
from frontierco.problems.routing.distances import EdgeWeights

LISTED = 16  # the nearest points listed per node


@njit(cache=True)
def _nearest_tour(start: int, listed: np.ndarray, xy: np.ndarray, rule: int) -> np.ndarray:
    n = xy.shape[0]
    none = np.zeros((1, 1))
    tour = np.empty(n, dtype=np.int64)
    visited = np.zeros(n, dtype=np.bool_)
    current = start
    for k in range(n):
        tour[k] = current
        visited[current] = True
        if k == n - 1:
            break
        best, best_cost = -1, np.inf
        for c in listed[current]:
            if not visited[c]:
                cost = _cost(current, c, none, xy, rule)
                if cost < best_cost or (cost == best_cost and c < best):
                    best, best_cost = c, cost
        # every unlisted node is at least as far as the farthest listed one, and rounding keeps that order
        if best < 0 or _cost(current, listed[current, -1], none, xy, rule) <= best_cost:
            best, best_cost = -1, np.inf
            for j in range(n):
                if not visited[j]:
                    cost = _cost(current, j, none, xy, rule)
                    if cost < best_cost:
                        best, best_cost = j, cost
        current = best
    return tour


def nearest_tour(weights: EdgeWeights, start: int) -> np.ndarray:
    """``solverkit.nearest_neighbour(weights, start)``, the same tour: on coordinates under a rule of ``RULE_CODES``
    from the lists (1M uniform points: seconds), else by its scans."""
    if weights.coords is None or weights.rule not in RULE_CODES or weights.size < 2:
        return nearest_neighbour(weights, start)
    xy = np.ascontiguousarray(weights.coords[:, :2], dtype=np.float64)
    return _nearest_tour(start, nearest_neighbours(xy, LISTED), xy, RULE_CODES[weights.rule])


def warm_up() -> None:
    """Compile the kernel (or load it from numba's on-disk cache) on 12 points, for a solver's setup."""
    nearest_tour(EdgeWeights("EXACT_2D", coords=np.random.default_rng(0).random((12, 2))), 0)
