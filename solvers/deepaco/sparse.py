"""DeepACO's ant system on the sparse graph alone, for instances too large for n x n matrices (compiled with numba).

The authors' ants keep dense pheromone and heuristic matrices whose entries off the network's sparse graph hold
the heuristic 1e-10: an ant practically never takes such an edge while a graph edge is open. Here the pheromone
and the heuristic live on the graph's edges only, as candidate lists (n, k): an ant draws its next node among the
unvisited candidates of the current one with probability ~ tau * eta, and moves to the nearest unvisited node
when every candidate is visited (the candidate-list rule of Dorigo and Stutzle's ant colony optimisation, where
the dense ants would draw a near-uniform unvisited node). CVRP: the graph's depot edges are held apart (the
depot's edges to every customer, and back); from the depot an ant draws among every unvisited customer, from a
customer among its unvisited candidates that fit the remaining load and the depot. Pheromone: evaporation, then
each ant deposits 1 / its length on the graph edges it used. The neural-guided perturbation of the local search
(improving 2-opt moves on the heuristic distance 1 / (eta / row max + 1e-5)) reads that distance on the graph's
edges and its value for eta = 1e-10 elsewhere, as the dense matrix holds it.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _draw(weights: np.ndarray, size: int) -> int:
    """An index below ``size`` drawn with probability ~ weights[:size] (-1 when they sum to 0)."""
    total = 0.0
    for i in range(size):
        total += weights[i]
    if total <= 0.0:
        return -1
    threshold = np.random.random() * total
    for i in range(size):
        threshold -= weights[i]
        if threshold <= 0.0:
            return i
    return size - 1


@njit(cache=True)
def _nearest_unvisited(current: int, points: np.ndarray, visited: np.ndarray) -> int:
    best, nearest = -1, np.inf
    for j in range(points.shape[0]):
        if not visited[j]:
            dx = points[j, 0] - points[current, 0]
            dy = points[j, 1] - points[current, 1]
            if dx * dx + dy * dy < nearest:
                best, nearest = j, dx * dx + dy * dy
    return best


@njit(cache=True)
def construct_tours(candidates: np.ndarray, weights: np.ndarray, points: np.ndarray, start: int, count: int, seed: int) -> np.ndarray:
    """``count`` tours from ``start``; ``weights`` (n, k) = tau * eta on the candidate edges ``candidates`` (n, k)."""
    np.random.seed(seed)
    n, k = candidates.shape
    tours = np.empty((count, n), dtype=np.int64)
    options = np.empty(k, dtype=np.int64)
    chances = np.empty(k)
    for a in range(count):
        visited = np.zeros(n, dtype=np.bool_)
        current = start
        tours[a, 0] = current
        visited[current] = True
        for step in range(1, n):
            size = 0
            for c in range(k):
                j = candidates[current, c]
                if not visited[j]:
                    options[size], chances[size] = j, weights[current, c]
                    size += 1
            pick = _draw(chances, size)
            current = options[pick] if pick >= 0 else _nearest_unvisited(current, points, visited)
            tours[a, step] = current
            visited[current] = True
    return tours


@njit(cache=True)
def _slot(candidates: np.ndarray, u: int, v: int) -> int:
    """The place of v in u's candidate list (-1 when the edge is off the graph)."""
    for c in range(candidates.shape[1]):
        if candidates[u, c] == v:
            return c
    return -1


@njit(cache=True)
def deposit_tours(pheromone: np.ndarray, candidates: np.ndarray, tours: np.ndarray, lengths: np.ndarray, decay: float) -> None:
    """In place: tau <- decay * tau, then + 1 / length on each ant's graph edges, in both directions."""
    pheromone *= decay
    count, n = tours.shape
    for a in range(count):
        amount = 1.0 / lengths[a]
        for i in range(n):
            u, v = tours[a, i], tours[a, (i + 1) % n]
            c = _slot(candidates, u, v)
            if c >= 0:
                pheromone[u, c] += amount
            c = _slot(candidates, v, u)
            if c >= 0:
                pheromone[v, c] += amount


@njit(cache=True)
def _guide(candidates: np.ndarray, guide: np.ndarray, far: np.ndarray, u: int, v: int) -> float:
    c = _slot(candidates, u, v)
    return guide[u, c] if c >= 0 else far[u]


@njit(cache=True)
def perturb(tour: np.ndarray, candidates: np.ndarray, guide: np.ndarray, far: np.ndarray, lists: np.ndarray, moves: int) -> np.ndarray:
    """A copy of ``tour`` after up to ``moves`` improving 2-opt moves on the heuristic distance (``guide`` (n, k) on
    the candidate edges, ``far`` (n,) off them), each bringing an edge (a, c), c in a's ``lists`` (its candidates
    of least heuristic distance first), into the tour, the nodes taken in tour order (as the dense perturbation,
    the first improving move of each)."""
    tour = tour.copy()
    n = tour.shape[0]
    pos = np.empty(n, dtype=np.int64)
    for i in range(n):
        pos[tour[i]] = i
    made = 0
    for a in tour.copy():
        if made >= moves:
            break
        for forward in (True, False):
            pa = pos[a]
            a_next = tour[(pa + 1) % n] if forward else tour[(pa - 1) % n]
            d_a = _guide(candidates, guide, far, a, a_next)
            done = False
            for c in lists[a]:
                g1 = d_a - _guide(candidates, guide, far, a, c)
                if g1 <= 1e-9:
                    break
                pc = pos[c]
                c_next = tour[(pc + 1) % n] if forward else tour[(pc - 1) % n]
                if c == a_next or c_next == a:
                    continue
                gain = g1 + _guide(candidates, guide, far, c, c_next) - _guide(candidates, guide, far, a_next, c_next)
                if gain > 1e-9:
                    i, j = ((pa + 1) % n, pc) if forward else (pc, (pa - 1) % n)
                    length = (j - i) % n + 1
                    if 2 * length > n:
                        i, j, length = (j + 1) % n, (i - 1) % n, n - length
                    for _ in range(length // 2):
                        x, y = tour[i], tour[j]
                        tour[i], tour[j] = y, x
                        pos[y], pos[x] = i, j
                        i, j = (i + 1) % n, (j - 1) % n
                    made += 1
                    done = True
                    break
            if done:
                break
    return tour


@njit(cache=True)
def construct_routes(
    candidates: np.ndarray, weights: np.ndarray, leave: np.ndarray, back: np.ndarray, demand: np.ndarray, count: int, seed: int
) -> np.ndarray:
    """``count`` CVRP solutions as visit sequences from the depot 0 (0 at each return, -1 after the end).
    ``candidates`` (n, k) and ``weights`` (n, k): each customer's candidate customers and tau * eta on those
    edges (row 0 unused); ``leave`` (n,) and ``back`` (n,): tau * eta from the depot to each customer and back;
    ``demand`` as fractions of the capacity."""
    np.random.seed(seed)
    n, k = candidates.shape
    visits = np.full((count, 2 * n + 1), -1, dtype=np.int64)
    options = np.empty(max(n, k + 1), dtype=np.int64)
    chances = np.empty(max(n, k + 1))
    for a in range(count):
        visited = np.zeros(n, dtype=np.bool_)
        visited[0] = True
        remaining, load, current, step = n - 1, 0.0, 0, 1
        visits[a, 0] = 0
        while remaining > 0:
            size = 0
            if current == 0:  # every unvisited customer fits an empty vehicle
                for j in range(1, n):
                    if not visited[j]:
                        options[size], chances[size] = j, leave[j]
                        size += 1
            else:
                options[0], chances[0], size = 0, back[current], 1
                for c in range(k):
                    j = candidates[current, c]
                    if not visited[j] and load + demand[j] <= 1.0 + 1e-9:
                        options[size], chances[size] = j, weights[current, c]
                        size += 1
            pick = _draw(chances, size)
            nxt = options[pick] if pick >= 0 else options[0]
            if nxt == 0:
                load = 0.0
            else:
                visited[nxt] = True
                remaining -= 1
                load += demand[nxt]
            visits[a, step] = nxt
            step += 1
            current = nxt
        visits[a, step] = 0
    return visits


@njit(cache=True)
def deposit_routes(
    pheromone: np.ndarray,
    leave: np.ndarray,
    back: np.ndarray,
    candidates: np.ndarray,
    visits: np.ndarray,
    lengths: np.ndarray,
    decay: float,
) -> None:
    """In place: every tau <- decay * tau, then + 1 / length on each solution's directed graph edges (depot legs
    in ``leave`` and ``back``)."""
    pheromone *= decay
    leave *= decay
    back *= decay
    count, width = visits.shape
    for a in range(count):
        amount = 1.0 / lengths[a]
        for i in range(width - 1):
            u, v = visits[a, i], visits[a, i + 1]
            if v < 0:
                break
            if u == 0 and v != 0:
                leave[v] += amount
            elif v == 0 and u != 0:
                back[u] += amount
            elif u != 0:
                c = _slot(candidates, u, v)
                if c >= 0:
                    pheromone[u, c] += amount


def warm_up() -> None:
    """Compile the kernels (or load them from numba's on-disk cache) on 8 nodes, for the solver's setup."""
    points = np.random.default_rng(0).random((8, 2))
    candidates = np.array([[(i + 1) % 8, (i + 2) % 8] for i in range(8)], dtype=np.int64)
    weights = np.ones((8, 2))
    tours = construct_tours(candidates, weights, points, 0, 2, 0)
    deposit_tours(weights.copy(), candidates, tours, np.ones(2), 0.9)
    perturb(tours[0], candidates, weights, np.ones(8), candidates, 2)
    visits = construct_routes(candidates, weights, np.ones(8), np.ones(8), np.full(8, 0.3), 2, 0)
    deposit_routes(weights.copy(), np.ones(8), np.ones(8), candidates, visits, np.ones(2), 0.9)
