"""Seeded generators of TSP and CVRP instances.

- ``tsp-uniform``: n points uniform in the unit square, unrounded Euclidean distances (the neural-CO
  convention, as in the DIMES/DIFUSCO test sets).
- ``tsp-clustered``: n points around ``clusters`` centres uniform in the unit square, Gaussian with
  standard deviation ``spread``, clipped to the square.
- ``cvrp-uniform``: depot and n customers uniform in the unit square, integer demand uniform in 1..9,
  capacity by size as in Kool et al. (2019) and later neural-CO work (20: 30, 50: 40, 100: 50,
  200: 80, 500: 100, 1000: 250), unrounded distances.
- ``cvrp-xlike``: the recipe of Uchoa et al. (2017) for the X instances: integer points on a
  1000 x 1000 grid; depot central (C), eccentric at (0, 0) (E) or random (R); customers random (R),
  clustered around 3-8 seeds with attraction exp(-d/40) (C) or half and half (RC); demands unitary (U),
  1-10, 5-10, 1-100, 50-100, by quadrant (Q: 1-50 in even, 51-100 in odd quadrants) or many small few
  large (SL: 70-95% in 1-10, the rest 50-100); capacity ceil(r * sum(d) / n) for a mean route size r
  drawn from a triangular distribution on [3, 25]; distances rounded to the nearest integer (EUC_2D).
  Any setting left as "random" is drawn from the seed.
"""

from __future__ import annotations

import math
from typing import Annotated

import numpy as np

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.routing.cvrp import CVRPInstance
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance

KOOL_CAPACITY = {10: 20, 20: 30, 50: 40, 100: 50, 200: 80, 500: 100, 1000: 250}
GRID = 1000
CLUSTER_DECAY = 40.0


def tsp_uniform(name: str, seed: int, n: Annotated[int, Range(1, 10**8)]) -> Generated:
    rng = np.random.default_rng(seed)
    return Generated(TSPInstance(name, EdgeWeights("EXACT_2D", coords=rng.random((n, 2)))))


def tsp_clustered(
    name: str,
    seed: int,
    n: Annotated[int, Range(1, 10**8)],
    clusters: Annotated[int, Range(1, 10**6)] = 10,
    spread: Annotated[float, Range(0.0, 1.0)] = 0.05,
) -> Generated:
    rng = np.random.default_rng(seed)
    centres = rng.random((clusters, 2))
    points = centres[rng.integers(0, clusters, size=n)] + rng.normal(0.0, spread, size=(n, 2))
    return Generated(TSPInstance(name, EdgeWeights("EXACT_2D", coords=np.clip(points, 0.0, 1.0))))


def cvrp_uniform(
    name: str, seed: int, n: Annotated[int, Range(1, 10**6)], capacity: Annotated[int | None, Range(1, 10**9)] = None
) -> Generated:
    if capacity is None and n not in KOOL_CAPACITY:
        raise ValueError(f"no standard capacity for n={n}; pass capacity (known sizes: {sorted(KOOL_CAPACITY)})")
    rng = np.random.default_rng(seed)
    coords = rng.random((n + 1, 2))
    demands = np.concatenate(([0], rng.integers(1, 10, size=n)))
    return Generated(CVRPInstance(name, EdgeWeights("EXACT_2D", coords=coords), demands, capacity or KOOL_CAPACITY[n]))


def _pick(rng: np.random.Generator, value: str, options: tuple[str, ...]) -> str:
    if value == "random":
        return options[int(rng.integers(len(options)))]
    if value not in options:
        raise ValueError(f"{value!r} is not one of {options} or 'random'")
    return value


def _clustered_points(rng: np.random.Generator, count: int) -> np.ndarray:
    seeds = rng.integers(0, GRID + 1, size=(int(rng.integers(3, 9)), 2)).astype(np.float64)
    points = [*seeds]
    while len(points) < count:
        candidate = rng.integers(0, GRID + 1, size=2).astype(np.float64)
        attraction = np.exp(-np.linalg.norm(seeds - candidate, axis=1) / CLUSTER_DECAY).sum()
        if rng.random() < min(1.0, attraction):
            points.append(candidate)
    return np.array(points[:count])


def _customers(rng: np.random.Generator, kind: str, n: int) -> np.ndarray:
    if kind == "R":
        return rng.integers(0, GRID + 1, size=(n, 2)).astype(np.float64)
    if kind == "C":
        return _clustered_points(rng, n)
    half = n // 2
    return np.vstack([_clustered_points(rng, half), rng.integers(0, GRID + 1, size=(n - half, 2)).astype(np.float64)])


def _demands(rng: np.random.Generator, kind: str, customers: np.ndarray) -> np.ndarray:
    n = len(customers)
    ranges = {"U": (1, 1), "1-10": (1, 10), "5-10": (5, 10), "1-100": (1, 100), "50-100": (50, 100)}
    if kind in ranges:
        low, high = ranges[kind]
        return rng.integers(low, high + 1, size=n)
    if kind == "Q":
        quadrant = (customers[:, 0] > GRID / 2).astype(int) + (customers[:, 1] > GRID / 2).astype(int)
        return np.where(quadrant % 2 == 0, rng.integers(1, 51, size=n), rng.integers(51, 101, size=n))
    small = rng.random(n) < rng.uniform(0.70, 0.95)
    return np.where(small, rng.integers(1, 11, size=n), rng.integers(50, 101, size=n))


def cvrp_xlike(
    name: str,
    seed: int,
    n: Annotated[int, Range(1, 10**6)],
    depot: str = "random",
    customers: str = "random",
    demand: str = "random",
    route_size: Annotated[float | None, Range(1.0, 1e6)] = None,
) -> Generated:
    rng = np.random.default_rng(seed)
    depot_kind = _pick(rng, depot, ("C", "E", "R"))
    customer_kind = _pick(rng, customers, ("R", "C", "RC"))
    demand_kind = _pick(rng, demand, ("U", "1-10", "5-10", "1-100", "50-100", "Q", "SL"))
    r = route_size if route_size is not None else float(rng.triangular(3.0, 6.0, 25.0))
    depot_point = {"C": np.array([GRID / 2, GRID / 2]), "E": np.zeros(2)}.get(depot_kind)
    if depot_point is None:
        depot_point = rng.integers(0, GRID + 1, size=2).astype(np.float64)
    points = _customers(rng, customer_kind, n)
    demands = _demands(rng, demand_kind, points)
    capacity = max(int(math.ceil(r * demands.sum() / n)), int(demands.max()))
    coords = np.vstack([depot_point, points])
    weights = EdgeWeights("EUC_2D", coords=coords)
    return Generated(CVRPInstance(name, weights, np.concatenate(([0], demands)).astype(np.int64), capacity))
