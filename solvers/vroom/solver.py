"""VROOM (Vehicle Routing Open-source Optimization Machine) through ``pyvroom``, for CVRP and CVRPTW."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import numpy as np

from frontierco.problems import CVRPInstance, CVRPSolution, CVRPTWInstance
from frontierco.solver import Budget, Solver
from frontierco.solverkit import Clock, integer_matrix, integer_scale


class VROOM(Solver):
    name = "vroom"
    problems = ("cvrp", "cvrptw")
    version = "1"
    requires = {"vroom": "pyvroom>=1.14"}

    def solve(self, instance: CVRPInstance, budget: Budget) -> Iterator[CVRPSolution]:
        import vroom

        clock = Clock(budget.time_limit, margin=0.1)
        n = instance.n
        if n < 2:
            yield CVRPSolution(())
            return
        problem = vroom.Input()
        distances = integer_matrix(instance.weights)
        problem.set_costs_matrix("car", distances.astype(np.uint32))
        vehicles = instance.num_vehicles or n - 1
        window = None
        if isinstance(instance, CVRPTWInstance):
            assert instance.durations is not None and instance.time_windows is not None and instance.service_times is not None
            scale = integer_scale(instance.durations)
            problem.set_durations_matrix("car", integer_matrix(instance.durations, scale).astype(np.uint32))
            early = np.ceil(instance.time_windows[:, 0] * scale - 1e-9).astype(np.int64)
            late = np.floor(instance.time_windows[:, 1] * scale + 1e-9).astype(np.int64)
            service = np.rint(instance.service_times * scale).astype(np.int64)
            window = vroom.TimeWindow(int(early[0]), int(late[0]))
            for c in range(1, n):
                problem.add_job(
                    vroom.Job(
                        c,
                        location=c,
                        delivery=[int(instance.demands[c])],
                        default_service=int(service[c]),
                        time_windows=[vroom.TimeWindow(int(early[c]), int(late[c]))],
                    )
                )
        else:
            problem.set_durations_matrix("car", distances.astype(np.uint32))
            for c in range(1, n):
                problem.add_job(vroom.Job(c, location=c, delivery=[int(instance.demands[c])]))
        for v in range(vehicles):
            if window is None:
                problem.add_vehicle(vroom.Vehicle(v, start=0, end=0, capacity=[int(instance.capacity)]))
            else:
                problem.add_vehicle(vroom.Vehicle(v, start=0, end=0, capacity=[int(instance.capacity)], time_window=window))
        solution = problem.solve(exploration_level=5, nb_threads=budget.threads, timeout=timedelta(seconds=clock.left()))
        routes = solution.routes
        jobs = routes[routes["type"] == "job"]
        yield CVRPSolution(tuple(np.array(group["id"].tolist(), dtype=np.int64) for _, group in jobs.groupby("vehicle_id", sort=True)))
