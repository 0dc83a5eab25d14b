"""DIMES's decoders on a heatmap over candidate edges, compiled with numba (the paper's "G" and "S").

From a start node, each step moves to the unvisited candidate of the current node with the highest score
(greedy) or samples one with probability softmax(theta / temperature) over the unvisited candidates
(Gumbel-max); when every candidate of the current node is visited, it moves to the nearest unvisited node.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def construct(
    starts: np.ndarray, neighbours: np.ndarray, theta: np.ndarray, points: np.ndarray, temperature: float, seed: int
) -> np.ndarray:
    """Tours (one row per start): ``neighbours`` (n, k) candidate lists, ``theta`` (n, k) their scores,
    ``points`` (n, 2) for the nearest-unvisited fallback; temperature 0 is greedy."""
    np.random.seed(seed)
    n, k = neighbours.shape
    tours = np.empty((len(starts), n), dtype=np.int64)
    for s in range(len(starts)):
        visited = np.zeros(n, dtype=np.bool_)
        current = starts[s]
        tours[s, 0] = current
        visited[current] = True
        for step in range(1, n):
            best, best_score = -1, -np.inf
            for c in range(k):
                j = neighbours[current, c]
                if visited[j]:
                    continue
                score = theta[current, c]
                if temperature > 0.0:
                    score = score / temperature - np.log(-np.log(np.random.random() + 1e-300) + 1e-300)
                if score > best_score:
                    best, best_score = j, score
            if best < 0:
                nearest = np.inf
                for j in range(n):
                    if not visited[j]:
                        dx = points[j, 0] - points[current, 0]
                        dy = points[j, 1] - points[current, 1]
                        d = dx * dx + dy * dy
                        if d < nearest:
                            best, nearest = j, d
            tours[s, step] = best
            visited[best] = True
            current = best
    return tours


def warm_up() -> None:
    """Compile the decoder (or load it from numba's on-disk cache) on 6 points, for the solver's setup."""
    points = np.random.default_rng(0).random((6, 2))
    neighbours = np.array([[(i + 1) % 6, (i + 2) % 6] for i in range(6)], dtype=np.int64)
    construct(np.zeros(1, dtype=np.int64), neighbours, np.zeros((6, 2)), points, 0.0, 0)
    construct(np.zeros(1, dtype=np.int64), neighbours, np.zeros((6, 2)), points, 0.01, 0)
