"""The greedy-edge tour on candidate lists, compiled with numba: the start that local search on millions of cities
descends from fastest (Bentley, "Fast algorithms for geometric traveling salesman problems", ORSA J. Computing
1992; Johnson & McGeoch, "The traveling salesman problem: a case study in local optimization", 1997: 2-opt and
3-opt from greedy end a few points better, and sooner, than from a space-filling curve).

The candidate edges (each node to its listed neighbours, once per pair) are taken shortest first; an edge joins
the tour's fragments when both ends have fewer than two tour edges and lie in different fragments (union-find).
The fragments left (paths, single nodes among them) are chained in the order of their first end along the Hilbert
curve, each turned to start at the end nearer to where the previous one stopped. O(n k log(n k)) for the sort.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from frontierco.kit.grid_neighbours import grid_neighbours
from frontierco.kit.solverkit import hilbert_index
from frontierco.kit.tour_search import TourCosts, _cost

ROUNDS = 8  # rounds of greedy matching: the candidate lists, then the fragments' ends among themselves
ENDS_LISTED = 8  # nearest other ends listed per end in the later rounds


@njit(cache=True)
def _pairs(
    neighbours: np.ndarray, ids: np.ndarray, matrix: np.ndarray, xy: np.ndarray, rule: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Each unordered candidate pair once, as nodes ``ids[i]``, ``ids[j]`` with its cost: (i, j) from i's list
    (rows and entries index ``ids``), kept when i < j or when j does not list i."""
    n, k = neighbours.shape
    a = np.empty(n * k, dtype=np.int32)
    b = np.empty(n * k, dtype=np.int32)
    cost = np.empty(n * k, dtype=np.float64)
    m = 0
    for i in range(n):
        for s in range(k):
            j = neighbours[i, s]
            if j == i:
                continue
            if j < i:
                listed = False
                for t in range(k):
                    if neighbours[j, t] == i:
                        listed = True
                        break
                if listed:
                    continue
            a[m], b[m] = ids[i], ids[j]
            cost[m] = _cost(a[m], b[m], matrix, xy, rule)
            m += 1
    return a[:m], b[:m], cost[:m]


@njit(cache=True)
def _root(parent: np.ndarray, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]  # path halving
        x = parent[x]
    return x


@njit(cache=True)
def _match(link: np.ndarray, parent: np.ndarray, a: np.ndarray, b: np.ndarray, order: np.ndarray) -> None:
    """Greedy edges added to ``link`` (each node's up to two tour neighbours, -1: none) in ``order``; ``parent``
    is the union-find forest of the fragments."""
    for e in order:
        i, j = a[e], b[e]
        if link[i, 1] != -1 or link[j, 1] != -1:
            continue
        ri, rj = _root(parent, i), _root(parent, j)
        if ri == rj:
            continue
        parent[ri] = rj
        link[i, 0 if link[i, 0] == -1 else 1] = j
        link[j, 0 if link[j, 0] == -1 else 1] = i


@njit(cache=True)
def _fragments(link: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The paths the greedy edges make, one after another in ``nodes``; ``starts`` where each begins (and n)."""
    n = link.shape[0]
    nodes = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    m, f = 0, 0
    for v in range(n):
        if seen[v] or link[v, 1] != -1:
            continue  # a path is walked from one of its ends (a node with at most one tour edge)
        starts[f] = m
        f += 1
        previous, current = -1, v
        while current != -1:
            seen[current] = True
            nodes[m] = current
            m += 1
            step = link[current, 0] if link[current, 0] != previous else link[current, 1]
            previous, current = current, step
    starts[f] = m
    return nodes, starts[: f + 1]


@njit(cache=True)
def _chain(nodes: np.ndarray, starts: np.ndarray, order: np.ndarray, xy: np.ndarray, matrix: np.ndarray, rule: int) -> np.ndarray:
    """The fragments in ``order``, each turned to begin at its end nearer to the previous fragment's last node."""
    tour = np.empty(nodes.shape[0], dtype=np.int64)
    m, last = 0, -1
    for f in order:
        first, end = starts[f], starts[f + 1]
        forward = last == -1 or _cost(last, nodes[first], matrix, xy, rule) <= _cost(last, nodes[end - 1], matrix, xy, rule)
        for s in range(end - first):
            tour[m + s] = nodes[first + s] if forward else nodes[end - 1 - s]
        m += end - first
        last = tour[m - 1]
    return tour


def greedy_tour(costs: TourCosts, neighbours: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The greedy-edge tour over the candidate lists ``neighbours`` (n, k), priced by ``costs``; ``points`` (n, 2)
    order the fragments along the Hilbert curve."""
    n = len(points)
    if n < 3:
        return np.arange(n, dtype=np.int64)
    link, parent = np.full((n, 2), -1, dtype=np.int64), np.arange(n)
    listed = np.ascontiguousarray(neighbours, dtype=np.int64)
    ends = np.arange(n)
    for _ in range(ROUNDS):
        a, b, cost = _pairs(listed, ends, costs.matrix, costs.xy, costs.rule)
        _match(link, parent, a, b, np.argsort(cost))  # ties in any fixed order: the sort is deterministic
        ends = np.flatnonzero(link[:, 1] == -1)  # the fragments' ends (a single node is both)
        if len(ends) <= 2:
            break
        # the next round's candidates: each end's nearest other ends (its own fragment's other end is refused)
        listed = grid_neighbours(np.asarray(points, dtype=np.float64)[ends], ENDS_LISTED)
    nodes, starts = _fragments(link)
    firsts = nodes[starts[:-1]]
    order = np.argsort(hilbert_index(np.asarray(points, dtype=np.float64)[firsts]), kind="stable")
    return _chain(nodes, starts, order, costs.xy, costs.matrix, costs.rule)


def warm_up() -> None:
    """Compile the kernels and the grid's (or load them from numba's cache) on 12 random points."""
    points = np.random.default_rng(0).random((12, 2))
    costs = TourCosts(np.zeros((1, 1)), points, 1)
    greedy_tour(costs, grid_neighbours(points, 1), points)  # one neighbour each: later rounds run too
