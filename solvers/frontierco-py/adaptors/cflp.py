"""CFLP: FrontierCO's ``load_data`` gives ``n`` and ``m``, ``capacities`` and ``fixed_cost`` per facility, ``demands``
per customer and ``trans_costs[i][j]`` (all of customer j's demand from facility i). Its loader sets ``n`` to the
number of customers, not of facilities; here ``n`` is the number of facilities, as ``solve``'s docstring there says,
so a file that sizes its arrays by ``n`` works on an instance with more customers than facilities (where FrontierCO's
value ends in an ``IndexError``) and sees every facility where there are fewer. ``solve`` yields ``{'facilities_open': [0/1 per facility],
'assignments': [[amount of customer j's demand from facility i, per i] per j]}``; an amount becomes a fraction of
the customer's demand, and the suite's checker judges the split (sums, closed facilities, capacities)."""

from __future__ import annotations

from typing import Any

import numpy as np

from frontierco.problems import CFLPInstance, CFLPSolution

from . import Malformed, field

FORM = "{'facilities_open': [1, 0, ...], 'assignments': [[amount from each facility] for each customer]}"


def kwargs(instance: CFLPInstance) -> dict[str, Any]:
    return {
        "n": instance.n,  # facilities (FrontierCO's load_data puts the customer count here)
        "m": instance.m,
        "capacities": [float(b) for b in instance.capacity],
        "fixed_cost": [float(f) for f in instance.fixed_cost],
        "demands": [float(d) for d in instance.demand],
        "trans_costs": instance.cost.astype(float).tolist(),
    }


def _numbers(value: object, shape: tuple[int, ...], what: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise Malformed(f"{what} must be numbers, like {FORM}") from None
    if array.shape != shape or not np.all(np.isfinite(array)):
        raise Malformed(f"{what} must be {' x '.join(map(str, shape))} finite numbers, got shape {array.shape}")
    return array


def solution(instance: CFLPInstance, data: object) -> CFLPSolution:
    n, m = instance.n, instance.m
    opened = _numbers(field(data, "facilities_open", FORM), (n,), "'facilities_open'")
    amounts = _numbers(field(data, "assignments", FORM), (m, n), "'assignments'")
    customer, facility = np.nonzero(amounts)
    demand = instance.demand[customer]
    if np.any(demand <= 0):
        raise Malformed(f"customer {int(customer[demand <= 0][0])} has no demand but is assigned an amount")
    return CFLPSolution(np.flatnonzero(opened > 0.5), customer, facility, amounts[customer, facility] / demand)
