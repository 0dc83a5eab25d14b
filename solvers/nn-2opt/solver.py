"""Nearest neighbour followed by 2-opt: the simple TSP baseline (symmetric and asymmetric)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock, nearest_neighbour
from frontierco.problems import TSPInstance, TSPSolution
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.solver import Budget, Solver


def two_opt_pass(weights: EdgeWeights, tour: np.ndarray, clock: Clock) -> bool:
    """One sweep of best-improvement 2-opt moves per position; True when the tour improved.

    Reversing tour[i+1 .. j] replaces edges (a, b) and (c, d) by (a, c) and (b, d), where a = tour[i],
    b = tour[i+1], c = tour[j], d = tour[j+1], and turns the segment around; prefix sums of the forward
    and backward edge costs along the tour price the turn, so asymmetric matrices are handled exactly.
    """
    n = len(tour)
    improved = False
    for i in range(n - 2):
        if clock.expired():
            break
        nxt = np.roll(tour, -1)
        forward = weights.between(tour, nxt).astype(np.float64)
        backward = weights.between(nxt, tour).astype(np.float64)
        fwd_prefix = np.concatenate(([0.0], np.cumsum(forward)))
        bwd_prefix = np.concatenate(([0.0], np.cumsum(backward)))
        a, b = tour[i], tour[i + 1]
        js = np.arange(i + 2, n if i > 0 else n - 1)
        if js.size == 0:
            continue
        c, d = tour[js], nxt[js]
        segment_forward = fwd_prefix[js] - fwd_prefix[i + 1]
        segment_backward = bwd_prefix[js] - bwd_prefix[i + 1]
        delta = (
            weights.between(np.full(js.size, a), c)
            + weights.between(np.full(js.size, b), d)
            - forward[i]
            - forward[js]
            + segment_backward
            - segment_forward
        )
        best = int(np.argmin(delta))
        if delta[best] < -1e-9:
            j = int(js[best])
            tour[i + 1 : j + 1] = tour[i + 1 : j + 1][::-1].copy()
            improved = True
    return improved


class NearestNeighbour2Opt(Solver):
    name = "nn-2opt"
    problems = ("tsp",)
    version = "1"
    deterministic = True

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[TSPSolution]:
        clock = Clock(budget.time_limit)
        n = instance.n
        start = int(np.random.default_rng(budget.seed).integers(n))
        tour = nearest_neighbour(instance.weights, start)
        yield TSPSolution(tour.copy())
        if n < 4:
            return
        while not clock.expired() and two_opt_pass(instance.weights, tour, clock):
            yield TSPSolution(tour.copy())
