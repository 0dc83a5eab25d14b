"""A TSP baseline for every size: a Hilbert space-filling-curve tour, then 2-opt and Or-opt on the 8 nearest
neighbours of each city (don't-look bits; ``frontierco.kit.tour_search``) to a local optimum, then iterated local
search with local double-bridge kicks for the rest of the time; in bounded rounds so that it answers at any
time. No move turns around more than 50,000 cities, and a rejected kick is undone move by move, so that the
work per move and per kick does not grow with n; rounds are sized by the search's own time, and handing a tour
over (a copy, sent to the harness and checked there: about a second at 1M cities) takes at most a fifth of it.
Linear memory: coordinates, a k-d tree, the candidate lists and the tour; no n x n matrix above 4,000 cities."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock, hilbert_index
from frontierco.problems import TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver

CANDIDATES = 8


class SpaceFillingCurveTwoOpt(Solver):
    name = "sfc-2opt"
    problems = ("tsp",)
    version = "5"
    requires = {"numba": "numba>=0.59"}
    deterministic = True

    def setup(self) -> None:
        from frontierco.kit.tour_search import warm_up

        warm_up()  # the local search compiled (or loaded from numba's cache) before the clock starts

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[TSPSolution]:
        from frontierco.kit.tour_search import LocalSearch, TourCosts, anytime, candidates

        clock = Clock(budget.time_limit, margin=0.05)
        n = instance.n
        coords = instance.weights.coords
        if coords is None or n <= 3:
            yield TSPSolution(np.arange(n))  # no coordinates to lay a curve over: the identity tour
            return
        points = np.asarray(coords, dtype=np.float64)[:, :2]
        tour = np.argsort(hilbert_index(points), kind="stable").astype(np.int64)
        yield TSPSolution(tour)
        costs = TourCosts.of(instance)
        if costs is None or clock.expired():
            return
        search = LocalSearch(tour, costs, candidates(costs, points, CANDIDATES))
        for better in anytime(search, clock, budget.seed):
            yield TSPSolution(better)
