"""PyVRP's iterated local search (the successor of its hybrid genetic search) for CVRP and CVRPTW."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from frontierco.kit.solverkit import Clock, pyvrp_data, stream
from frontierco.problems import CVRPInstance, CVRPSolution
from frontierco.solver import Budget, Solver


class PyVRP(Solver):
    name = "pyvrp"
    problems = ("cvrp", "cvrptw")
    version = "1"
    requires = {"pyvrp": "pyvrp>=0.14"}

    def solve(self, instance: CVRPInstance, budget: Budget) -> Iterator[CVRPSolution]:
        from frontierco.kit.route_search import client_routes, iterated_local_search

        clock = Clock(budget.time_limit, margin=0.05)
        if instance.n < 2:
            yield CVRPSolution(())
            return
        data = pyvrp_data(instance)

        def run(emit: Callable[[Any], None]) -> None:
            iterated_local_search(data, clock.left(), budget.seed, lambda best: emit(client_routes(best)))

        for routes in stream(run):
            yield CVRPSolution(tuple(np.array(r, dtype=np.int64) for r in routes))
