"""Google OR-Tools routing (first solution by cheapest arc, then guided local search) for TSP, CVRP and
CVRPTW, symmetric or asymmetric."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from frontierco.kit.solverkit import Clock, integer_matrix, integer_scale, route_limit, stream
from frontierco.problems import CVRPInstance, CVRPSolution, CVRPTWInstance, TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver


def _vehicles(instance: CVRPInstance) -> int:
    if instance.num_vehicles is not None:
        return instance.num_vehicles
    if isinstance(instance, CVRPTWInstance):
        return instance.n - 1
    lower = math.ceil(float(instance.demands.sum()) / instance.capacity)
    return min(instance.n - 1, max(1, math.ceil(1.5 * lower) + 2))


def _routes(routing: Any, manager: Any, vehicles: int, value: Callable[[Any], int]) -> list[list[int]]:
    routes = []
    for vehicle in range(vehicles):
        index = routing.Start(vehicle)
        route = []
        while not routing.IsEnd(index):
            node = manager.IndexToNode(index)
            if node != 0:
                route.append(node)
            index = value(routing.NextVar(index))
        routes.append(route)
    return routes


class ORTools(Solver):
    name = "ortools"
    problems = ("tsp", "cvrp", "cvrptw")
    version = "1"
    requires = {"ortools": "ortools>=9.10"}

    def solve(self, instance: Any, budget: Budget) -> Iterator[Any]:
        from ortools.constraint_solver import pywrapcp, routing_enums_pb2

        clock = Clock(budget.time_limit, margin=0.1)
        is_tsp = isinstance(instance, TSPInstance)
        n = instance.n
        if n < 2 or (not is_tsp and n < 2):
            yield TSPSolution(np.arange(n)) if is_tsp else CVRPSolution(())
            return
        vehicles = 1 if is_tsp else _vehicles(instance)
        manager = pywrapcp.RoutingIndexManager(n, vehicles, 0)
        routing = pywrapcp.RoutingModel(manager)
        scale = integer_scale(instance.weights)
        distance = routing.RegisterTransitMatrix(integer_matrix(instance.weights, scale).tolist())
        routing.SetArcCostEvaluatorOfAllVehicles(distance)
        if not is_tsp:
            demand = routing.RegisterUnaryTransitVector([int(d) for d in instance.demands])
            routing.AddDimensionWithVehicleCapacity(demand, 0, [int(instance.capacity)] * vehicles, True, "load")
            limited = route_limit(instance)
            if limited is not None:  # travel i -> j plus the service at i, at most the limit per route
                length = routing.RegisterTransitMatrix((limited.travel + limited.service[:, None]).tolist())
                routing.AddDimension(length, 0, limited.limit, True, "length")
        if isinstance(instance, CVRPTWInstance):
            self._time_windows(routing, manager, instance, vehicles)
        parameters = pywrapcp.DefaultRoutingSearchParameters()
        parameters.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC
        parameters.local_search_metaheuristic = routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
        parameters.time_limit.FromMilliseconds(int(clock.left() * 1000))

        def run(emit: Callable[[Any], None]) -> None:
            best = [math.inf]

            def on_solution() -> None:  # guided local search also accepts worse solutions: send improvements only
                cost = routing.CostVar().Value()
                if cost < best[0]:
                    best[0] = cost
                    emit(_routes(routing, manager, vehicles, lambda var: var.Value()))

            routing.AddAtSolutionCallback(on_solution)
            routing.SolveWithParameters(parameters)

        for routes in stream(run):
            if is_tsp:
                yield TSPSolution(np.array([0] + routes[0], dtype=np.int64))
            else:
                yield CVRPSolution(tuple(np.array(r, dtype=np.int64) for r in routes if r))

    @staticmethod
    def _time_windows(routing: Any, manager: Any, instance: CVRPTWInstance, vehicles: int) -> None:
        assert instance.durations is not None and instance.time_windows is not None and instance.service_times is not None
        scale = integer_scale(instance.durations)
        travel = integer_matrix(instance.durations, scale) + np.rint(instance.service_times * scale).astype(np.int64)[:, None]
        windows = instance.time_windows * scale
        earliest = np.ceil(windows[:, 0] - 1e-9).astype(np.int64)
        latest = np.floor(windows[:, 1] + 1e-9).astype(np.int64)
        time = routing.RegisterTransitMatrix(travel.tolist())
        horizon = int(latest[0])
        routing.AddDimension(time, horizon, horizon, False, "time")
        dimension = routing.GetDimensionOrDie("time")
        for node in range(1, instance.n):
            dimension.CumulVar(manager.NodeToIndex(node)).SetRange(int(earliest[node]), int(latest[node]))
        for vehicle in range(vehicles):
            dimension.CumulVar(routing.Start(vehicle)).SetRange(int(earliest[0]), int(latest[0]))
            dimension.CumulVar(routing.End(vehicle)).SetRange(int(earliest[0]), int(latest[0]))
