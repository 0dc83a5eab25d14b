"""CVRP: FrontierCO's ``load_data`` gives ``nodes`` (coordinates, depot first), ``demands`` (the depot's 0 first),
``capacity``, ``depot_idx`` (0), ``dist_matrix`` (float Euclidean, as its loader computes it; the matrix itself for
an instance given by one) and ``optimal_routes`` (None); ``solve`` yields ``{'routes': [[0, 3, 1, 0], ...]}``, each
route from the depot back to it. The suite's own checker scores the routes by the instance's distance rule."""

from __future__ import annotations

from typing import Any

from frontierco.problems import CVRPInstance, CVRPSolution

from . import Malformed, field, integers

FORM = "{'routes': [[0, 3, 1, 0], [0, 2, 5, 0], ...]}"


def kwargs(instance: CVRPInstance) -> dict[str, Any]:
    weights = instance.weights
    if weights.rule == "EXPLICIT":
        matrix = weights.full_matrix().astype(float)
    else:
        from scipy.spatial.distance import cdist

        assert weights.coords is not None
        matrix = cdist(weights.coords, weights.coords)  # float Euclidean, as FrontierCO's loader
    return {
        "nodes": [tuple(p) for p in weights.coords.tolist()] if weights.coords is not None else [],
        "demands": [int(d) for d in instance.demands],
        "capacity": int(instance.capacity),
        "depot_idx": 0,
        "dist_matrix": matrix,
        "optimal_routes": None,
    }


def solution(instance: CVRPInstance, data: object) -> CVRPSolution:
    routes = field(data, "routes", FORM)
    if not isinstance(routes, list | tuple):
        raise Malformed(f"'routes' must be a list of routes like {FORM}, got a {type(routes).__name__}")
    inner = []
    for number, route in enumerate(routes, start=1):
        visits = integers(route, f"route {number}")
        if visits.size < 2 or visits[0] != 0 or visits[-1] != 0:
            raise Malformed(f"route {number} must start and end at the depot 0, like {FORM}")
        inner.append(visits[1:-1])  # a depot inside a route is left for the checker to name
    return CVRPSolution(tuple(inner))
