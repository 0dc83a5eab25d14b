"""Seeded generators for capacitated facility location and capacitated p-median, as FrontierCO's own.

- ``cflp-cornuejols``: Cornuejols, Sridharan and Thizy (1991), as FrontierCO's ``data/CFLP/generate_training_instances.py
  --method cornuejols``: customers and facilities uniform in the unit square, demands 5-35, raw capacities 10-160,
  fixed cost floor((100-110) * sqrt(raw capacity) + (0-90)), capacities scaled to ``ratio`` x total demand and
  truncated, cost[i, j] = floor(10 * distance * demand_j). Drawn from ``numpy.random.RandomState(seed)`` in
  FrontierCO's order, so seed s gives the instance FrontierCO writes for instance seed s (its ``--seed`` plus the
  instance's index).
- ``cpmp-frontierco``: FrontierCO's ``data/CPMP/generate_training_instances.py``: integer coordinates 1-100, demands
  1-20, a tightness t uniform in [0.82, 0.96] and one capacity ceil(total demand / t / p) for every point, drawn
  from ``RandomState(seed)`` (FrontierCO seeds the global generator with the same number: same stream).
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.facility.cflp import CFLPInstance
from frontierco.problems.facility.cpmp import CPMPInstance


def cflp_cornuejols(
    name: str,
    seed: int,
    customers: Annotated[int, Range(1, 10**5)],
    facilities: Annotated[int, Range(1, 10**5)],
    ratio: Annotated[float, Range(1.0, 1000.0)] = 5.0,
) -> Generated:
    rng = np.random.RandomState(seed)
    c_x, c_y = rng.rand(customers), rng.rand(customers)
    f_x, f_y = rng.rand(facilities), rng.rand(facilities)
    demand = rng.randint(5, 35 + 1, size=customers)
    raw = rng.randint(10, 160 + 1, size=facilities)
    fixed = (rng.randint(100, 110 + 1, size=facilities) * np.sqrt(raw) + rng.randint(90 + 1, size=facilities)).astype(int)
    capacity = (raw * ratio * demand.sum() / raw.sum()).astype(int)
    distance = np.sqrt((c_x[:, None] - f_x[None, :]) ** 2 + (c_y[:, None] - f_y[None, :]) ** 2)
    cost = (distance * 10 * demand[:, None]).astype(int)  # customers x facilities, as FrontierCO computes it
    instance = CFLPInstance(
        name, capacity.astype(np.float64), fixed.astype(np.float64), demand.astype(np.float64), cost.T.astype(np.float64)
    )
    return Generated(instance)


def cpmp_frontierco(
    name: str,
    seed: int,
    n: Annotated[int, Range(1, 10**5)],
    p: Annotated[int, Range(1, 10**5)],
    demand: Annotated[tuple[int, int] | list[int], Range(1, 10**6)] = (1, 20),
    tightness: Annotated[tuple[float, float] | list[float], Range(0.01, 1.0)] = (0.82, 0.96),
) -> Generated:
    rng = np.random.RandomState(seed)
    coords = rng.randint(1, 101, size=(n, 2))
    demands = rng.randint(demand[0], demand[1] + 1, size=n)
    tight = rng.uniform(tightness[0], tightness[1])
    capacity = int(np.ceil(demands.sum() / tight / p))
    instance = CPMPInstance(name, p, coords.astype(np.float64), np.full(n, float(capacity)), demands.astype(np.float64))
    return Generated(instance)
