"""CPMP: FrontierCO's ``load_data`` gives ``n``, ``p`` and ``customers``, one ``(customer_id, x, y, capacity,
demand)`` per point with ids from 0; ``solve`` yields ``{'medians': [p customer ids], 'assignments': [the median id
of each customer]}``. Distances are the suite's (Euclidean rounded down, as FrontierCO's eval_func)."""

from __future__ import annotations

from typing import Any

from frontierco.problems import CPMPInstance, CPMPSolution

from . import field, integers

FORM = "{'medians': [4, 17, ...], 'assignments': [4, 4, 17, ...]} (customer ids from 0)"


def kwargs(instance: CPMPInstance) -> dict[str, Any]:
    points = zip(instance.coords.tolist(), instance.capacity.tolist(), instance.demand.tolist(), strict=True)
    return {
        "n": len(instance.coords),
        "p": int(instance.p),
        "customers": [(k, float(x), float(y), float(q), float(d)) for k, ((x, y), q, d) in enumerate(points)],
    }


def solution(instance: CPMPInstance, data: object) -> CPMPSolution:
    return CPMPSolution(integers(field(data, "medians", FORM), "'medians'"), integers(field(data, "assignments", FORM), "'assignments'"))
