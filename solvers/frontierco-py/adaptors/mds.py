"""MDS: FrontierCO's ``load_data`` gives ``graph``, a networkx graph of nodes 1..n (the ``.gr`` file's numbers);
``solve`` yields ``{'mds_nodes': [1-based nodes]}``."""

from __future__ import annotations

from typing import Any

from frontierco.problems import MDSInstance, MDSSolution

from .graphs import graph, vertices

FORM = "{'mds_nodes': [2, 7, ...]} (nodes numbered from 1)"


def kwargs(instance: MDSInstance) -> dict[str, Any]:
    return {"graph": graph(instance)}


def solution(instance: MDSInstance, data: object) -> MDSSolution:
    return MDSSolution(vertices(data, "mds_nodes", FORM))
