"""Clarke-Wright savings for CVRP: the classical constructive baseline."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.savings import savings_routes
from frontierco.problems import CVRPInstance, CVRPSolution
from frontierco.solver import Budget, Solver


class Savings(Solver):
    name = "savings"
    problems = ("cvrp",)
    version = "1"
    deterministic = True

    def solve(self, instance: CVRPInstance, budget: Budget) -> Iterator[CVRPSolution]:
        yield CVRPSolution(tuple(np.array(route, dtype=np.int64) for route in savings_routes(instance)))
