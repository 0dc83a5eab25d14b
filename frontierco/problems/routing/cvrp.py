"""Capacitated vehicle routing: one depot (node 0), customers 1..n-1 with demands, one capacity, and optionally a
maximum route length (CVRPLIB's ``DISTANCE``, with the ``SERVICE_TIME`` spent at each customer counted in it, as in
Christofides, Mingozzi & Toth 1979 and Golden et al. 1998). A route's length against the limit is its travel by the
instance's distance rule plus the service time of each customer on it; the objective is the travel alone."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import as_index_array, first_out_of_range, first_repeated, times
from frontierco.problems.common.fingerprint import OMIT_WHEN_DEFAULT
from frontierco.problems.routing.distances import EdgeWeights

ROUTE_LENGTH_TOLERANCE = 1e-6  # absolute slack of a route's length against the limit (float sums in another order)


@dataclass(frozen=True, eq=False)
class CVRPInstance:
    """Depot 0 and customers 1..n-1; ``num_vehicles`` is a hard limit on routes when given. ``max_distance`` is the
    longest a route may be (None: no limit) and ``service_time`` the time spent at each customer, counted in a route's
    length against that limit (None: none); both are keyword-only and left out of the content hash while None, so
    an instance without them hashes as it did before they existed."""

    name: str
    weights: EdgeWeights
    demands: np.ndarray
    capacity: int
    num_vehicles: int | None = None
    max_distance: float | None = field(default=None, kw_only=True, metadata=OMIT_WHEN_DEFAULT)
    service_time: float | None = field(default=None, kw_only=True, metadata=OMIT_WHEN_DEFAULT)

    def __post_init__(self) -> None:
        if len(self.demands) != self.weights.size:
            raise ValueError(f"{len(self.demands)} demands for {self.weights.size} nodes")
        for what, value, kind in (("max_distance", self.max_distance, "positive"), ("service_time", self.service_time, "non-negative")):
            if value is not None and (not math.isfinite(value) or value < 0 or (kind == "positive" and value == 0)):
                raise ValueError(f"{what} must be a finite {kind} number, got {value!r}")

    @property
    def has_route_limit(self) -> bool:
        """Whether routes have a maximum length (solvers that cannot honour one refuse such an instance)."""
        return self.max_distance is not None

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


def route_limit_violation(instance: CVRPInstance, routes: list[np.ndarray]) -> str:
    """'' when every route's length (travel plus service times) is within ``max_distance``, else the reason for the
    first that is not."""
    limit = instance.max_distance
    if limit is None or not routes:
        return ""
    walk = [np.zeros(1, dtype=np.int64)]
    for route in routes:
        walk.extend((route, np.zeros(1, dtype=np.int64)))
    nodes = np.concatenate(walk)
    legs = instance.weights.between(nodes[:-1], nodes[1:]).astype(np.float64)
    sizes = np.array([len(r) for r in routes])
    travel = np.add.reduceat(legs, np.concatenate(([0], np.cumsum(sizes[:-1] + 1))))
    service = sizes * float(instance.service_time or 0.0)
    over = np.flatnonzero(travel + service > limit + ROUTE_LENGTH_TOLERANCE)
    if not over.size:
        return ""
    k = int(over[0])
    served = f" ({travel[k]:.6g} travel + {service[k]:.6g} service)" if instance.service_time else ""
    return f"route {k + 1} has length {travel[k] + service[k]:.6g}{served} > maximum route length {limit:g}"


def routes_length(weights: EdgeWeights, routes: list[np.ndarray]) -> float:
    """Total length of the routes, each from the depot and back, as one walk through the depot."""
    walk = [np.zeros(1, dtype=np.int64)]
    for route in routes:
        walk.extend((route, np.zeros(1, dtype=np.int64)))
    return weights.path_length(np.concatenate(walk))


def evaluate(instance: CVRPInstance, solution: CVRPSolution) -> Evaluation:
    """Each customer exactly once, capacity per route, vehicle limit, route length limit; total length by the
    instance's rule."""
    routes, problem = check_routes(instance, solution)
    if not problem:
        problem = route_limit_violation(instance, routes)
    if problem:
        return Evaluation.infeasible(problem)
    return Evaluation.ok(routes_length(instance.weights, routes))


def unrounded_length(instance: CVRPInstance, solution: CVRPSolution) -> float | None:
    """The total length of a feasible solution's routes with unrounded Euclidean distances, as FrontierCO's CVRP
    evaluator computes it (CVRPLIB rounds the XXL set's); None where the distances are not Euclidean."""
    weights = instance.weights.unrounded()
    if weights is None:
        return None
    return routes_length(weights, [np.asarray(route, dtype=np.int64) for route in solution.routes if len(route)])


def routes_data(solution: CVRPSolution) -> dict[str, Any]:
    return {"routes": [np.asarray(r).tolist() for r in solution.routes]}


def routes_from_data(data: dict[str, Any]) -> CVRPSolution:
    return CVRPSolution(tuple(np.asarray(r) for r in data["routes"]))


CVRPLIB_NAME = re.compile(r"^[A-Za-z]+-n(\d+)-k\d+$")  # X-n101-k25: 101 nodes, the depot included


def size_in_name(name: str) -> int | None:
    """The number of customers a CVRPLIB name carries (X-n101-k25: 100), else None."""
    match = CVRPLIB_NAME.match(name)
    return int(match.group(1)) - 1 if match else None


def unrounded(instance: CVRPInstance) -> CVRPInstance:
    """The instance with unrounded Euclidean distances (EUC_2D read as EXACT_2D): CVRPLIB's convention for the
    classical sets whose best-known costs are real numbers (Golden et al. 1998, Christofides et al. 1979)."""
    if instance.weights.rule != "EUC_2D":
        raise ValueError(f"distances are {instance.weights.rule}, not EUC_2D")
    return replace(instance, weights=EdgeWeights("EXACT_2D", coords=instance.weights.coords))


def unrounded_without_route_limit(instance: CVRPInstance) -> CVRPInstance:
    """``unrounded`` and without the maximum route length and service time: the instance as FrontierCO's CVRP loader
    reads a CVRPLIB file (coordinates, demands and capacity alone; distances unrounded)."""
    return replace(unrounded(instance), max_distance=None, service_time=None)


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
    transforms={"unrounded": unrounded, "unrounded-no-route-limit": unrounded_without_route_limit},
    unrounded=unrounded_length,
    frontierco_folder="CVRP",
    frontierco_transform="unrounded-no-route-limit",  # FrontierCO reads coordinates, demands, capacity; unrounded
)
