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
