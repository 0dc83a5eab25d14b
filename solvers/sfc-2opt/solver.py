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
ROUND_SECONDS = 1.0  # search between two looks at the clock: moves or kicks per round adapt to it
YIELD_RATIO = 4.0  # an improvement is handed over once the search since the last one took 4x what that handover did


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
        from frontierco.kit.tour_search import LocalSearch, TourCosts, candidates

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
        best, steps, round_ = search.length, 1000, 0
        searched, handover = 0.0, 0.0  # search seconds since the last yield; what the last yield cost
        while not clock.expired():
            descending = not search.at_local_optimum
            started = clock.elapsed()
            if descending:
                search.descend(steps)  # to the 2-opt + Or-opt local optimum first
            else:
                search.kick(steps, seed=budget.seed * 1_000_003 + round_)
                round_ += 1
            took = max(clock.elapsed() - started, 1e-4)  # the search alone: rounds are sized by it
            searched += took
            if search.length < best - 1e-9 and searched >= YIELD_RATIO * handover:
                best, searched = search.length, 0.0
                handed = clock.elapsed()
                yield TSPSolution(search.tour.copy())
                handover = clock.elapsed() - handed
            if descending and search.at_local_optimum:
                steps = 64  # kicks are counted apart from moves
            else:
                steps = int(max(1, min(steps * ROUND_SECONDS / took, 4 * steps, steps * clock.left() / took)))
        if search.length < best - 1e-9:
            yield TSPSolution(search.tour.copy())  # the last improvement, within the clock's margin
