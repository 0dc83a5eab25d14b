"""The ant system of DeepACO for TSP, compiled with numba: tour construction by the random-proportional rule
p(j | i) ~ tau_ij^alpha * eta_ij^beta over the unvisited nodes, and the pheromone update of the Ant System
(evaporation, then every ant deposits 1 / its tour length on its edges, both directions)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def construct(weights: np.ndarray, start: int, count: int, seed: int) -> np.ndarray:
    """``count`` tours from ``start``; ``weights`` (n, n) = tau^alpha * eta^beta."""
    np.random.seed(seed)
    n = weights.shape[0]
    tours = np.empty((count, n), dtype=np.int64)
    for a in range(count):
        visited = np.zeros(n, dtype=np.bool_)
        current = start
        tours[a, 0] = current
        visited[current] = True
        for step in range(1, n):
            total = 0.0
            for j in range(n):
                if not visited[j]:
                    total += weights[current, j]
            pick = -1
            if total > 0.0:
                threshold = np.random.random() * total
                for j in range(n):
                    if not visited[j]:
                        threshold -= weights[current, j]
                        pick = j
                        if threshold <= 0.0:
                            break
            else:
                for j in range(n):
                    if not visited[j]:
                        pick = j
                        break
            tours[a, step] = pick
            visited[pick] = True
            current = pick
    return tours


@njit(cache=True)
def deposit(pheromone: np.ndarray, tours: np.ndarray, lengths: np.ndarray, decay: float) -> None:
    """In place: tau <- decay * tau, then + 1 / length on each ant's edges (both directions)."""
    pheromone *= decay
    count, n = tours.shape
    for a in range(count):
        amount = 1.0 / lengths[a]
        for k in range(n):
            u, v = tours[a, k], tours[a, (k + 1) % n]
            pheromone[u, v] += amount
            pheromone[v, u] += amount


@njit(cache=True)
def construct_routes(weights: np.ndarray, demand: np.ndarray, count: int, seed: int) -> np.ndarray:
    """``count`` CVRP solutions as visit sequences from the depot 0 (0 at each return, -1 after the end):
    the next node is drawn with probability ~ weights[current, j] among the unvisited customers that fit the
    remaining load (``demand`` as fractions of the capacity) and the depot (not from the depot itself)."""
    np.random.seed(seed)
    n = weights.shape[0]
    visits = np.full((count, 2 * n + 1), -1, dtype=np.int64)
    allowed = np.empty(n, dtype=np.int64)  # the depot first (when allowed), then the fitting customers
    for a in range(count):
        visited = np.zeros(n, dtype=np.bool_)
        visited[0] = True
        remaining, load, current, k = n - 1, 0.0, 0, 1
        visits[a, 0] = 0
        while remaining > 0:
            size, total = 0, 0.0
            if current != 0:
                allowed[0], size, total = 0, 1, weights[current, 0]
            first_customer = size
            for j in range(1, n):
                if not visited[j] and load + demand[j] <= 1.0 + 1e-9:
                    allowed[size] = j
                    size += 1
                    total += weights[current, j]
            pick = allowed[0]  # no weight anywhere: back to the depot, or from it the first customer that fits
            if size > first_customer and total > 0.0:
                threshold = np.random.random() * total
                for i in range(size):
                    pick = allowed[i]
                    threshold -= weights[current, pick]
                    if threshold <= 0.0:
                        break
            if pick == 0:
                load = 0.0
            else:
                visited[pick] = True
                remaining -= 1
                load += demand[pick]
            visits[a, k] = pick
            k += 1
            current = pick
        visits[a, k] = 0
    return visits


@njit(cache=True)
def deposit_routes(pheromone: np.ndarray, visits: np.ndarray, lengths: np.ndarray, decay: float) -> None:
    """In place: tau <- decay * tau, then + 1 / length on each solution's directed edges (depot legs included)."""
    pheromone *= decay
    count, width = visits.shape
    for a in range(count):
        amount = 1.0 / lengths[a]
        for k in range(width - 1):
            if visits[a, k + 1] < 0:
                break
            pheromone[visits[a, k], visits[a, k + 1]] += amount


def warm_up() -> None:
    """Compile the four kernels (or load them from numba's on-disk cache) on a 6-node instance, for the solver's
    setup: a cold cache otherwise spends a short run's budget compiling, and the next run with the seed does more."""
    weights = np.ones((6, 6))
    tours = construct(weights, 0, 2, 0)
    deposit(np.ones((6, 6)), tours, np.ones(2), 0.9)
    visits = construct_routes(weights, np.full(6, 0.3), 2, 0)
    deposit_routes(np.ones((6, 6)), visits, np.ones(2), 0.9)
