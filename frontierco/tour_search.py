"""2-opt for symmetric TSP tours on candidate (neighbour) lists, compiled with numba: the local search that
the heatmap solvers (DIMES, DeepACO) put after their decoders.

A tour is an array of node indices; ``pos`` maps a node to its place. For a node ``a`` and each candidate
``c`` nearer to ``a`` than ``a``'s tour neighbour, the move that brings the edge (a, c) into the tour
replaces two edges and turns one of the two paths between them around (the shorter one). Nodes whose
surroundings changed go back on a queue ("don't look bits"); the search stops at a local optimum or after
``max_moves`` improving moves. Costs come from a dense matrix or, for large coordinate instances, from the
coordinates with a TSPLIB rounding rule, so that the search optimises exactly what the checker measures.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy.spatial import cKDTree

from frontierco.problems import TSPInstance

DENSE_LIMIT = 4000  # above this many nodes, costs come from the coordinates (an n x n matrix would not fit)
RULE_CODES = {"EXACT_2D": 1, "EUC_2D": 2, "CEIL_2D": 3}  # coordinate rules computed inside the search
EPSILON = 1e-9


@njit(cache=True, inline="always")
def _cost(a: int, b: int, matrix: np.ndarray, xy: np.ndarray, rule: int) -> float:
    if rule == 0:
        return matrix[a, b]
    dx = xy[a, 0] - xy[b, 0]
    dy = xy[a, 1] - xy[b, 1]
    d = np.sqrt(dx * dx + dy * dy)
    if rule == 2:
        return np.floor(d + 0.5)
    if rule == 3:
        return np.ceil(d)
    return d


@njit(cache=True)
def _reverse(tour: np.ndarray, pos: np.ndarray, i: int, j: int) -> None:
    """Turn tour[i..j] (cyclic, inclusive) around, or the complementary path when that one is shorter."""
    n = tour.shape[0]
    length = (j - i) % n + 1
    if 2 * length > n:
        i, j = (j + 1) % n, (i - 1) % n
        length = n - length
    for _ in range(length // 2):
        a, b = tour[i], tour[j]
        tour[i], tour[j] = b, a
        pos[b], pos[a] = i, j
        i = (i + 1) % n
        j = (j - 1) % n


@njit(cache=True)
def _two_opt(tour: np.ndarray, neighbours: np.ndarray, matrix: np.ndarray, xy: np.ndarray, rule: int, max_moves: int) -> int:
    n = tour.shape[0]
    pos = np.empty(n, dtype=np.int64)
    for k in range(n):
        pos[tour[k]] = k
    queue = np.empty(n, dtype=np.int64)
    queued = np.ones(n, dtype=np.bool_)
    for k in range(n):
        queue[k] = tour[k]
    head, size, moves = 0, n, 0
    while size > 0 and moves < max_moves:
        a = queue[head]
        head = (head + 1) % n
        size -= 1
        queued[a] = False
        improved = False
        for forward in (True, False):
            pa = pos[a]
            a_next = tour[(pa + 1) % n] if forward else tour[(pa - 1) % n]
            d_a = _cost(a, a_next, matrix, xy, rule)
            for c in neighbours[a]:
                g1 = d_a - _cost(a, c, matrix, xy, rule)
                if g1 <= EPSILON:
                    break  # candidates come nearest first: no later one can gain
                pc = pos[c]
                c_next = tour[(pc + 1) % n] if forward else tour[(pc - 1) % n]
                if c == a_next or c_next == a:
                    continue
                gain = g1 + _cost(c, c_next, matrix, xy, rule) - _cost(a_next, c_next, matrix, xy, rule)
                if gain > EPSILON:
                    if forward:
                        _reverse(tour, pos, (pa + 1) % n, pc)
                    else:
                        _reverse(tour, pos, pc, (pa - 1) % n)
                    for node in (a, a_next, c, c_next):
                        if not queued[node]:
                            queue[(head + size) % n] = node
                            size += 1
                            queued[node] = True
                    moves += 1
                    improved = True
                    break
            if improved:
                break
    return moves


@dataclass(frozen=True, eq=False)
class TourCosts:
    """What the search needs to price an edge: a dense matrix (rule 0) or coordinates with a rule code."""

    matrix: np.ndarray
    xy: np.ndarray
    rule: int

    @classmethod
    def of(cls, instance: TSPInstance) -> TourCosts | None:
        """The instance's own costs, or None where 2-opt cannot run: an asymmetric instance (2-opt reverses
        paths), or one too large for a dense matrix whose rule the search does not compute."""
        weights = instance.weights
        if instance.is_asymmetric or (instance.n > DENSE_LIMIT and weights.rule not in RULE_CODES):
            return None
        rule = RULE_CODES.get(weights.rule, 0)
        if rule and instance.n > DENSE_LIMIT:
            assert weights.coords is not None
            return cls(np.zeros((1, 1)), np.ascontiguousarray(weights.coords, dtype=np.float64), rule)
        return cls(np.ascontiguousarray(weights.full_matrix(), dtype=np.float64), np.zeros((1, 2)), 0)

    @classmethod
    def dense(cls, matrix: np.ndarray) -> TourCosts:
        return cls(np.ascontiguousarray(matrix, dtype=np.float64), np.zeros((1, 2)), 0)

    def edge(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Costs of the edges (a[k], b[k])."""
        if self.rule == 0:
            return self.matrix[a, b]
        d = np.linalg.norm(self.xy[a] - self.xy[b], axis=-1)
        return np.floor(d + 0.5) if self.rule == 2 else np.ceil(d) if self.rule == 3 else d

    def length(self, tour: np.ndarray) -> float:
        return float(self.edge(tour, np.roll(tour, -1)).sum())


def nearest_neighbours(points: np.ndarray, k: int) -> np.ndarray:
    """The k nearest other points of each point (Euclidean), nearest first: shape (n, min(k, n - 1))."""
    k = min(k, len(points) - 1)
    if k <= 0:
        return np.empty((len(points), 0), dtype=np.int64)
    _, index = cKDTree(points).query(points, k=k + 1)
    return np.ascontiguousarray(index[:, 1:], dtype=np.int64)


def candidates(costs: TourCosts, points: np.ndarray, k: int) -> np.ndarray:
    """Candidate lists for the search, nearest first under the search's own costs (a dense matrix's rows, or
    the coordinates' nearest neighbours)."""
    if costs.rule != 0:
        return nearest_neighbours(points, k)
    matrix = costs.matrix
    k = min(k, len(matrix) - 1)
    masked = matrix + np.diag(np.full(len(matrix), np.inf))
    index = np.argpartition(masked, k - 1, axis=1)[:, :k]
    order = np.argsort(np.take_along_axis(masked, index, 1), axis=1, kind="stable")
    return np.ascontiguousarray(np.take_along_axis(index, order, 1), dtype=np.int64)


def two_opt(tour: np.ndarray, costs: TourCosts, neighbours: np.ndarray, max_moves: int = 1 << 62) -> np.ndarray:
    """A 2-opt local optimum reached from ``tour`` (a new array), or the tour after ``max_moves`` moves."""
    result = np.ascontiguousarray(tour, dtype=np.int64).copy()
    if len(result) >= 5:
        _two_opt(result, neighbours, costs.matrix, costs.xy, costs.rule, max_moves)
    return result
