"""MIS: FrontierCO's ``load_data`` gives ``graph``, a networkx graph of nodes 1..n; ``solve`` yields
``{'mis_nodes': [1-based nodes]}``."""

from __future__ import annotations

from typing import Any

from frontierco.problems import MISInstance, MISSolution

from .graphs import graph, vertices

FORM = "{'mis_nodes': [1, 5, ...]} (nodes numbered from 1)"


def kwargs(instance: MISInstance) -> dict[str, Any]:
    return {"graph": graph(instance)}


def solution(instance: MISInstance, data: object) -> MISSolution:
    return MISSolution(vertices(data, "mis_nodes", FORM))
