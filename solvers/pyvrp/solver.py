"""PyVRP's iterated local search (the successor of its hybrid genetic search) for CVRP and CVRPTW."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from frontierco.problems import CVRPInstance, CVRPSolution, CVRPTWInstance
from frontierco.solver import Budget, Solver
from frontierco.solverkit import Clock, integer_matrix, integer_scale, stream


def problem_data(instance: CVRPInstance) -> Any:
    """PyVRP ProblemData: location 0 is the depot, locations 1..n-1 the customers in order."""
    import pyvrp

    n = instance.n
    coords = instance.weights.coords if instance.weights.coords is not None else np.zeros((n, 2))
    locations = [pyvrp.Location(float(x), float(y)) for x, y in coords.tolist()]
    distances = integer_matrix(instance.weights)
    vehicles = instance.num_vehicles or n - 1
    if isinstance(instance, CVRPTWInstance):
        assert instance.durations is not None and instance.time_windows is not None and instance.service_times is not None
        scale = integer_scale(instance.durations)
        durations = integer_matrix(instance.durations, scale)
        early = np.ceil(instance.time_windows[:, 0] * scale - 1e-9).astype(np.int64)
        late = np.floor(instance.time_windows[:, 1] * scale + 1e-9).astype(np.int64)
        service = np.rint(instance.service_times * scale).astype(np.int64)
        depots = [pyvrp.Depot(0, tw_early=int(early[0]), tw_late=int(late[0]))]
        clients = [
            pyvrp.Client(
                i, delivery=[int(instance.demands[i])], service_duration=int(service[i]), tw_early=int(early[i]), tw_late=int(late[i])
            )
            for i in range(1, n)
        ]
        vehicle = pyvrp.VehicleType(vehicles, capacity=[int(instance.capacity)], tw_early=int(early[0]), tw_late=int(late[0]))
    else:
        durations = np.zeros_like(distances)
        depots = [pyvrp.Depot(0)]
        clients = [pyvrp.Client(i, delivery=[int(instance.demands[i])]) for i in range(1, n)]
        vehicle = pyvrp.VehicleType(vehicles, capacity=[int(instance.capacity)])
    return pyvrp.ProblemData(locations, clients, depots, [vehicle], [distances], [durations])


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
        data = problem_data(instance)

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
