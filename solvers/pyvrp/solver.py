"""PyVRP's iterated local search (the successor of its hybrid genetic search) for CVRP and CVRPTW."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from frontierco.kit.solverkit import Clock, pyvrp_data, stream
from frontierco.problems import CVRPInstance, CVRPSolution
from frontierco.solver import Budget, Solver


def _routes(solution: Any) -> list[list[int]]:
    """Node indices per route: a client activity's ``idx`` counts clients from 0, our customers from 1."""
    return [[activity.idx + 1 for activity in route if activity.is_client()] for route in solution.routes()]


class PyVRP(Solver):
    name = "pyvrp"
    problems = ("cvrp", "cvrptw")
    version = "1"
    requires = {"pyvrp": "pyvrp>=0.14"}

    def solve(self, instance: CVRPInstance, budget: Budget) -> Iterator[CVRPSolution]:
        import pyvrp
        from pyvrp.stop import MaxRuntime

        clock = Clock(budget.time_limit, margin=0.05)
        if instance.n < 2:
            yield CVRPSolution(())
            return
        data = pyvrp_data(instance)

        class Emitter(pyvrp.IteratedLocalSearchCallbacks):
            def __init__(self, emit: Callable[[Any], None]) -> None:
                super().__init__()
                self.emit = emit

            def on_best(self, best: Any) -> None:
                if best.is_feasible():
                    self.emit(_routes(best))

        def run(emit: Callable[[Any], None]) -> None:
            params = pyvrp.SolveParams(ils=pyvrp.IteratedLocalSearchParams(callbacks=Emitter(emit)))
            result = pyvrp.solve(data, MaxRuntime(clock.left()), seed=budget.seed, collect_stats=False, params=params)
            if result.best.is_feasible():
                emit(_routes(result.best))

        for routes in stream(run):
            yield CVRPSolution(tuple(np.array(r, dtype=np.int64) for r in routes if r))
