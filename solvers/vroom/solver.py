"""VROOM (Vehicle Routing Open-source Optimization Machine) through ``pyvroom``, for CVRP and CVRPTW.

Anytime within the budget (version 2): a first call at exploration level 0 with a short timeout gives a
solution early, then calls at rising levels (1, 3, 5), each with the time left, each yielding its routes
when they cost less than the best so far. Version 1 made one call at level 5 with 90% of the budget and
yielded only at its end: on 100-customer CVRPs nothing came within 3 s.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import numpy as np

from frontierco.kit.solverkit import Clock, integer_matrix, integer_scale, refuse_route_limit
from frontierco.problems import CVRPInstance, CVRPSolution, CVRPTWInstance
from frontierco.solver import Budget, Solver

LEVELS = (0, 1, 3, 5)  # exploration levels of the successive calls (VROOM's own default is 5)
FIRST_SHARE = 0.1  # the first call's timeout, as a share of the budget
FIRST_MIN = 0.05  # ... and at least this many seconds
OVERRUN = 0.05  # share of the budget kept back from each call's timeout: VROOM returns a little after it


def vroom_input(instance: CVRPInstance) -> Any:
    """The instance as a ``vroom.Input``: integer-scaled costs (durations, service times and windows too
    for CVRPTW), one job per customer, ``num_vehicles`` vehicles or one per customer."""
    import vroom

    n = instance.n
    problem = vroom.Input()
    distances = integer_matrix(instance.weights)
    problem.set_costs_matrix("car", distances.astype(np.uint32))
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
    capacity = [int(instance.capacity)]
    for v in range(instance.num_vehicles or n - 1):
        if window is None:
            problem.add_vehicle(vroom.Vehicle(v, start=0, end=0, capacity=capacity))
        else:
            problem.add_vehicle(vroom.Vehicle(v, start=0, end=0, capacity=capacity, time_window=window))
    return problem


def timeouts(clock: Clock) -> Iterator[tuple[int, float]]:
    """(exploration level, timeout in seconds) of each call: the first short, the others the time left less
    a small allowance for VROOM's overrun; none once the budget is spent."""
    first = max(FIRST_MIN, FIRST_SHARE * clock.time_limit)
    for k, level in enumerate(LEVELS):
        if clock.expired():
            return
        left = clock.left() - OVERRUN * clock.time_limit
        if left <= 0.0:
            return
        yield level, min(first, left) if k == 0 else left


def quality(solution: Any) -> tuple[int, int]:
    """What a call's solution is judged by: jobs left unassigned (a CVRPTW may leave some), then cost."""
    summary = solution.summary
    return int(summary.unassigned), int(summary.cost)


def routes(solution: Any) -> CVRPSolution:
    table = solution.routes
    jobs = table[table["type"] == "job"]
    return CVRPSolution(tuple(np.array(group["id"].tolist(), dtype=np.int64) for _, group in jobs.groupby("vehicle_id", sort=True)))


class VROOM(Solver):
    name = "vroom"
    problems = ("cvrp", "cvrptw")
    version = "2"
    requires = {"vroom": "pyvroom>=1.14"}

    def setup(self) -> None:
        """Import VROOM and pandas (its solutions' routes are a DataFrame) and solve a 3-customer instance, so
        that the first timed call pays none of that."""
        from frontierco.problems import EdgeWeights

        square = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]])
        tiny = CVRPInstance("warm-up", EdgeWeights("EUC_2D", coords=square), demands=np.array([0, 1, 1, 1]), capacity=2)
        routes(vroom_input(tiny).solve(exploration_level=0, nb_threads=1))

    def solve(self, instance: CVRPInstance, budget: Budget) -> Iterator[CVRPSolution]:
        refuse_route_limit(instance, self.name)  # its vehicles get no distance limit here
        clock = Clock(budget.time_limit, margin=0.1)
        if instance.n < 2:
            yield CVRPSolution(())
            return
        best: tuple[int, int] | None = None
        for level, seconds in timeouts(clock):
            solution = vroom_input(instance).solve(exploration_level=level, nb_threads=budget.threads, timeout=timedelta(seconds=seconds))
            if best is None or quality(solution) < best:
                best = quality(solution)
                yield routes(solution)
