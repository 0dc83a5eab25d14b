"""CVRP with time windows: travel durations, service times and [earliest, latest] start windows.

A vehicle leaves the depot at the depot's earliest time; at each customer it may wait for the window
to open, must arrive no later than the window closes, then serves it; it must be back at the depot no
later than the depot's window closes. Time comparisons allow an absolute slack of ``TIME_TOLERANCE``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.routing.cvrp import (
    CVRPInstance,
    CVRPSolution,
    check_routes,
    route_limit_violation,
    routes_data,
    routes_from_data,
    routes_length,
)
from frontierco.problems.routing.distances import EdgeWeights

TIME_TOLERANCE = 1e-6


@dataclass(frozen=True, eq=False)
class CVRPTWInstance(CVRPInstance):
    """A CVRP instance plus durations, service times and time windows (shape (n, 2))."""

    durations: EdgeWeights | None = None
    time_windows: np.ndarray | None = None
    service_times: np.ndarray | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.durations is None or self.time_windows is None or self.service_times is None:
            raise ValueError("a CVRPTW instance needs durations, time windows and service times")
        if self.durations.size != self.n or self.time_windows.shape != (self.n, 2) or len(self.service_times) != self.n:
            raise ValueError("durations, time windows and service times must cover every node")


CVRPTWSolution = CVRPSolution


def _route_time_violation(instance: CVRPTWInstance, number: int, route: np.ndarray) -> str:
    assert instance.durations is not None and instance.time_windows is not None
    assert instance.service_times is not None
    windows = instance.time_windows
    walk = np.concatenate(([0], route, [0]))
    legs = instance.durations.between(walk[:-1], walk[1:])
    now = float(windows[0, 0])
    for k, node in enumerate(walk[1:]):
        arrival = now + float(instance.service_times[walk[k]]) + float(legs[k])
        if arrival > windows[node, 1] + TIME_TOLERANCE:
            place = "the depot" if node == 0 else f"customer {node}"
            return f"route {number} reaches {place} at {arrival:g}, after its window closes at {windows[node, 1]:g}"
        now = max(arrival, float(windows[node, 0]))
    return ""


def evaluate(instance: CVRPTWInstance, solution: CVRPTWSolution) -> Evaluation:
    """The CVRP checks, then each route's schedule against the time windows; total length."""
    routes, problem = check_routes(instance, solution)
    if not problem:
        problem = route_limit_violation(instance, routes)
    if problem:
        return Evaluation.infeasible(problem)
    for number, route in enumerate(routes, start=1):
        violation = _route_time_violation(instance, number, route)
        if violation:
            return Evaluation.infeasible(violation)
    return Evaluation.ok(routes_length(instance.weights, routes))


PROBLEM = Problem(
    name="cvrptw",
    sense="min",
    instance_type=CVRPTWInstance,
    solution_type=CVRPTWSolution,
    evaluate=evaluate,
    description="CVRP with time windows (waiting allowed); total length, minimise",
    to_data=routes_data,
    from_data=routes_from_data,
    size=lambda instance: int(instance.n),
    describe=lambda instance: f"{instance.n} nodes",
    default_collection="realcity-acvrptw-50",
    reference_solver="pyvrp",
    baseline="pyvrp",
    time_shift=1.0,
    solution_suffix=".sol",
    cases="frontierco.problems.routing.cases:cvrptw_cases",
)
