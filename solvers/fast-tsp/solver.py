"""The ``fast-tsp`` package: a local search for symmetric TSP on an integer matrix."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock, integer_matrix
from frontierco.problems import TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver


class FastTSP(Solver):
    name = "fast-tsp"
    problems = ("tsp",)
    version = "1"
    deterministic = True
    requires = {"fast_tsp": "fast-tsp>=0.2"}

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[TSPSolution]:
        import fast_tsp

        clock = Clock(budget.time_limit, margin=0.1)
        if instance.n < 3:
            yield TSPSolution(np.arange(instance.n))
            return
        matrix = integer_matrix(instance.weights)
        if instance.is_asymmetric:
            matrix = (matrix + matrix.T) // 2  # fast-tsp needs symmetry; the tour is judged on the real matrix
        tour = fast_tsp.find_tour(matrix.tolist(), duration_seconds=clock.left(), max_threads=budget.threads)
        yield TSPSolution(np.array(tour, dtype=np.int64))
