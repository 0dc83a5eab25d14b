"""TSP: FrontierCO's ``load_data`` gives ``nodes`` (the [x, y] of NODE_COORD_SECTION, floats); ``solve`` yields
``{'tour': [0-based node indices]}``, each node once, the return to the start implied. An instance given only by a
matrix (FrontierCO's TSP files always have coordinates) also gets ``dist_matrix``, as FrontierCO's CVRP does."""

from __future__ import annotations

from typing import Any

from frontierco.problems import TSPInstance, TSPSolution

from . import field, integers

FORM = "{'tour': [0, 3, 1, ...]}"


def kwargs(instance: TSPInstance) -> dict[str, Any]:
    weights = instance.weights
    data: dict[str, Any] = {"nodes": weights.coords.tolist() if weights.coords is not None else []}
    if weights.rule == "EXPLICIT":
        data["dist_matrix"] = weights.full_matrix()
    return data


def solution(instance: TSPInstance, data: object) -> TSPSolution:
    return TSPSolution(integers(field(data, "tour", FORM), "'tour'"))
