"""Capacitated vehicle routing: one depot (node 0), customers 1..n-1 with demands, one capacity."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import as_index_array, first_out_of_range, first_repeated, times
from frontierco.problems.routing.distances import EdgeWeights


@dataclass(frozen=True, eq=False)
class CVRPInstance:
    """Depot 0 and customers 1..n-1; ``num_vehicles`` is a hard limit on routes when given."""

    name: str
    weights: EdgeWeights
    demands: np.ndarray
    capacity: int
    num_vehicles: int | None = None

    def __post_init__(self) -> None:
        if len(self.demands) != self.weights.size:
            raise ValueError(f"{len(self.demands)} demands for {self.weights.size} nodes")

    @property
    def n(self) -> int:
        """Number of nodes, depot included."""
        return self.weights.size


@dataclass(frozen=True, eq=False)
class CVRPSolution:
    """Routes as sequences of customer indices (1..n-1), the depot at both ends implied."""

    routes: tuple[np.ndarray, ...]


def check_routes(instance: CVRPInstance, solution: CVRPSolution) -> tuple[list[np.ndarray], str]:
    """The non-empty routes as index arrays, or the reason they are not a valid CVRP solution."""
    n = instance.n
    routes: list[np.ndarray] = []
    for number, raw in enumerate(solution.routes, start=1):
        route, problem = as_index_array(raw, f"route {number}")
        if route is None:
            return [], problem
        bad = first_out_of_range(route, 0, n - 1)
        if bad is not None:
            return [], f"route {number} visits node {bad}, not in 0..{n - 1}"
        if np.any(route == 0):
            return [], f"route {number} passes through the depot (0); list customers only"
        if route.size:
            routes.append(route)
    visits = np.concatenate(routes) if routes else np.zeros(0, dtype=np.int64)
    repeated = first_repeated(visits, n)
    if repeated is not None:
        return [], f"customer {repeated[0]} visited {times(repeated[1])}"
    if visits.size != n - 1:
        missing = np.setdiff1d(np.arange(1, n), visits)
        return [], f"{n - 1 - visits.size} customers not visited, e.g. customer {int(missing[0])}"
    if not routes:  # only a depot (n = 1): nothing to carry
        return routes, ""
    loads = np.add.reduceat(instance.demands[visits], np.cumsum([0] + [len(r) for r in routes[:-1]]))
    over = np.flatnonzero(loads > instance.capacity)
    if over.size:
        k = int(over[0])
        return [], f"route {k + 1} carries {loads[k]:g} > capacity {instance.capacity:g}"
    if instance.num_vehicles is not None and len(routes) > instance.num_vehicles:
        return [], f"{len(routes)} routes used but only {instance.num_vehicles} vehicles available"
    return routes, ""


def routes_length(weights: EdgeWeights, routes: list[np.ndarray]) -> float:
    """Total length of the routes, each from the depot and back, as one walk through the depot."""
    walk = [np.zeros(1, dtype=np.int64)]
    for route in routes:
        walk.extend((route, np.zeros(1, dtype=np.int64)))
    return weights.path_length(np.concatenate(walk))


def evaluate(instance: CVRPInstance, solution: CVRPSolution) -> Evaluation:
    """Each customer exactly once, capacity per route, vehicle limit; total length by the instance's rule."""
    routes, problem = check_routes(instance, solution)
    if problem:
        return Evaluation.infeasible(problem)
    return Evaluation.ok(routes_length(instance.weights, routes))


def routes_data(solution: CVRPSolution) -> dict[str, Any]:
    return {"routes": [np.asarray(r).tolist() for r in solution.routes]}


def routes_from_data(data: dict[str, Any]) -> CVRPSolution:
    return CVRPSolution(tuple(np.asarray(r) for r in data["routes"]))


CVRPLIB_NAME = re.compile(r"^[A-Za-z]+-n(\d+)-k\d+$")  # X-n101-k25: 101 nodes, the depot included


def size_in_name(name: str) -> int | None:
    """The number of customers a CVRPLIB name carries (X-n101-k25: 100), else None."""
    match = CVRPLIB_NAME.match(name)
    return int(match.group(1)) - 1 if match else None


PROBLEM = Problem(
    name="cvrp",
    sense="min",
    instance_type=CVRPInstance,
    solution_type=CVRPSolution,
    evaluate=evaluate,
    description="capacitated vehicle routing (CVRPLIB rounding or asymmetric matrix); total length, minimise",
    to_data=routes_data,
    from_data=routes_from_data,
    size=lambda instance: int(instance.n),
    describe=lambda instance: f"{instance.n} nodes",
    default_collection="cvrp-uniform-50",
    reference_solver="pyvrp",
    baseline="pyvrp",
    time_shift=1.0,
    solution_suffix=".sol",
    cases="frontierco.problems.routing.cases:cvrp_cases",
    size_unit="customers",
    size_in_name=size_in_name,
)
