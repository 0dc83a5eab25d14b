"""CVRP at XXL size: savings at once (then savings with other route-shape parameters, the shortest kept), then
PyVRP's iterated local search on route-based subproblems (routes whose barycentres lie near a random route's,
Santini, Schneider, Vidal and Vigo 2023), each result kept when it shortens the routes it replaces. Memory grows
with the subproblem, never with n x n."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.route_search import client_routes
from frontierco.kit.savings import savings_routes
from frontierco.kit.solverkit import Clock, pyvrp_data
from frontierco.problems import CVRPInstance, CVRPSolution
from frontierco.problems.routing.cvrp import routes_length
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.solver import Budget, Solver

SHAPES = (1.0, 1.2, 1.4, 1.7, 2.0)  # the route-shape parameters savings tries, in this order


def groups(instance: CVRPInstance, routes: list[np.ndarray], rng: np.random.Generator, size: int) -> list[list[np.ndarray]]:
    """A partition of ``routes`` into groups of ``size`` routes (the last may hold fewer): a random route not yet
    grouped, then the ungrouped routes whose barycentres are nearest its barycentre."""
    coords = instance.weights.coords
    centres = np.array([coords[r].mean(axis=0) if coords is not None else np.zeros(2) for r in routes]).reshape(-1, 2)
    free = np.ones(len(routes), dtype=bool)
    parts = []
    while free.any():
        candidates = np.flatnonzero(free)
        seed = candidates[rng.integers(len(candidates))]
        order = candidates[np.argsort(np.linalg.norm(centres[candidates] - centres[seed], axis=1), kind="stable")]
        group = order[:size]
        free[group] = False
        parts.append([routes[k] for k in group])
    return parts


def solution(parts: list[list[np.ndarray]]) -> CVRPSolution:
    return CVRPSolution(tuple(r.astype(np.int64) for part in parts for r in part))


def subinstance(instance: CVRPInstance, customers: np.ndarray, vehicles: int | None) -> CVRPInstance:
    """The depot and ``customers`` as an instance of their own (node k + 1 is customers[k]) with at most
    ``vehicles`` routes (None: no limit)."""
    nodes = np.concatenate([[0], customers]).astype(np.int64)
    weights = instance.weights
    if weights.rule == "EXPLICIT":
        assert weights.matrix is not None
        coords = None if weights.coords is None else weights.coords[nodes]
        sub = EdgeWeights("EXPLICIT", coords, weights.matrix[np.ix_(nodes, nodes)])
    else:
        assert weights.coords is not None
        sub = EdgeWeights(weights.rule, weights.coords[nodes])
    limits = {"max_distance": instance.max_distance, "service_time": instance.service_time}  # each route keeps its limit
    return CVRPInstance(instance.name, sub, instance.demands[nodes], instance.capacity, vehicles, **limits)


def improve(
    instance: CVRPInstance, routes: list[np.ndarray], vehicles: int | None, iterations: int, seconds: float, seed: int
) -> list[np.ndarray]:
    """PyVRP's iterated local search on the customers of ``routes`` alone (at most ``vehicles`` routes), from
    ``routes``, for ``iterations`` iterations or ``seconds``; its best feasible routes in the instance's numbering
    (``routes`` if none is feasible)."""
    import pyvrp
    from pyvrp.stop import MaxIterations, MaxRuntime, MultipleCriteria

    customers = np.concatenate(routes)
    local = np.empty(instance.n, dtype=np.int64)
    local[customers] = np.arange(1, len(customers) + 1)
    data = pyvrp_data(subinstance(instance, customers, vehicles))
    start = pyvrp.Solution(data, [(local[r] - 1).tolist() for r in routes])
    stop = MultipleCriteria([MaxIterations(iterations), MaxRuntime(max(seconds, 0.0))])
    best = pyvrp.solve(data, stop, seed=seed, collect_stats=False, initial_solution=start).best
    if not best.is_feasible():
        return routes
    return [customers[np.asarray(r) - 1] for r in client_routes(best)]


class PyVRPDecomposition(Solver):
    name = "pyvrp-decomp"
    problems = ("cvrp",)
    version = "3"
    requires = {"pyvrp": "pyvrp>=0.14"}

    def solve(self, instance: CVRPInstance, budget: Budget) -> Iterator[CVRPSolution]:
        clock = Clock(budget.time_limit, margin=0.05)
        if instance.n < 2:
            yield CVRPSolution(())
            return
        shapes = int(self.params["shapes"])
        if not 1 <= shapes <= len(SHAPES):
            raise ValueError(f"shapes must be 1 to {len(SHAPES)}, not {shapes}")
        routes: list[np.ndarray] = []
        for shape in SHAPES[:shapes]:
            if clock.expired():
                return
            candidate = [np.asarray(r, dtype=np.int64) for r in savings_routes(instance, shape)]
            fits = instance.num_vehicles is None or len(candidate) <= instance.num_vehicles
            if not routes or (fits and routes_length(instance.weights, candidate) < routes_length(instance.weights, routes)):
                routes = candidate
                yield solution([routes])
        rng = np.random.default_rng(budget.seed)
        size, iterations = int(self.params["routes"]), int(self.params["iterations"])
        while not clock.expired():  # passes over a partition of the routes, each with twice the work of the last
            parts = sorted(groups(instance, routes, rng, size), key=len, reverse=True)
            for k, part in enumerate(parts):
                if clock.expired():
                    return
                spare = None if instance.num_vehicles is None else instance.num_vehicles - len(routes) + len(part)
                new = improve(instance, part, spare, iterations, clock.left(), int(rng.integers(2**31)))
                if routes_length(instance.weights, new) < routes_length(instance.weights, part) - 1e-9:
                    parts[k] = new
                    yield solution(parts)
            routes = [r for part in parts for r in part]
            iterations = min(2 * iterations, int(self.params["max_iterations"]))
