"""Real-city instances (the RRNCO recipe): N+1 points of a city, the directed distance (km) and duration
(min) matrices sliced to them; point 0 is the depot for vehicle routing.

- ``sampling``: "uniform" (points drawn without replacement) or "clustered" (3-5 centre points; each
  instance point drawn near a random centre with weight exp(-d / (0.1 x mean distance))).
- ``coordinates``: false leaves the points' coordinates out (a bare ``EXPLICIT`` matrix, as road-network files
  a user brings usually are); the same seed draws the same points and matrices either way.
- ``realcity-atsp``: the distance matrix (ATSP).
- ``realcity-acvrp``: integer demands uniform in 1..9, capacity 50.
- ``realcity-acvrptw``: as ACVRP, plus the duration matrix, service times uniform in 5..15 min and time
  windows within a horizon H = max(480, 2 x the longest depot round trip) min: a window of width uniform in
  30..120 min whose start is drawn so that leaving the depot at 0, driving there, waiting, serving and
  driving back by H is possible, so depot -> i -> depot is always feasible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import numpy as np

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.routing.cities.catalog import load_city
from frontierco.problems.routing.cities.city import City
from frontierco.problems.routing.cvrp import CVRPInstance
from frontierco.problems.routing.cvrptw import CVRPTWInstance
from frontierco.problems.routing.distances import EdgeWeights

if TYPE_CHECKING:
    from frontierco.filestore import FileStore
from frontierco.problems.routing.tsp import TSPInstance

CAPACITY = 50


def choose_points(city: City, count: int, sampling: str, rng: np.random.Generator) -> np.ndarray:
    if count > city.size:
        raise ValueError(f"{city.name} has {city.size} points, {count} asked for")
    if sampling == "uniform":
        return rng.choice(city.size, size=count, replace=False)
    if sampling != "clustered":
        raise ValueError(f"sampling must be uniform or clustered, not {sampling!r}")
    centres = rng.choice(city.size, size=int(rng.integers(3, 6)), replace=False)
    scale = 0.1 * float(city.distance.mean())
    chosen: list[int] = []
    taken = np.zeros(city.size, dtype=bool)
    while len(chosen) < count:
        weights = np.exp(-city.distance[rng.choice(centres)] / scale) * ~taken
        point = int(rng.choice(city.size, p=weights / weights.sum()))
        taken[point] = True
        chosen.append(point)
    return np.array(chosen)


def _slice(city: City, points: np.ndarray, coordinates: bool = True) -> tuple[EdgeWeights, EdgeWeights]:
    grid = np.ix_(points, points)
    coords = city.points[points].astype(np.float64) if coordinates else None
    distance = EdgeWeights("EXPLICIT", coords=coords, matrix=city.distance[grid].astype(np.float64))
    duration = EdgeWeights("EXPLICIT", coords=coords, matrix=city.duration[grid].astype(np.float64))
    return distance, duration


def realcity_atsp(
    name: str,
    seed: int,
    city: str,
    n: Annotated[int, Range(1, 10**6)],
    sampling: str = "uniform",
    coordinates: bool = True,
    files: FileStore | None = None,
) -> Generated:
    rng = np.random.default_rng(seed)
    data = load_city(city, files)
    distance, _ = _slice(data, choose_points(data, n, sampling, rng), coordinates)
    return Generated(TSPInstance(name, distance))


def realcity_acvrp(
    name: str,
    seed: int,
    city: str,
    n: Annotated[int, Range(1, 10**6)],
    sampling: str = "uniform",
    coordinates: bool = True,
    files: FileStore | None = None,
) -> Generated:
    rng = np.random.default_rng(seed)
    data = load_city(city, files)
    distance, _ = _slice(data, choose_points(data, n + 1, sampling, rng), coordinates)
    demands = np.concatenate(([0], rng.integers(1, 10, size=n))).astype(np.int64)
    return Generated(CVRPInstance(name, distance, demands, CAPACITY))


def realcity_acvrptw(
    name: str,
    seed: int,
    city: str,
    n: Annotated[int, Range(1, 10**6)],
    sampling: str = "uniform",
    coordinates: bool = True,
    files: FileStore | None = None,
) -> Generated:
    rng = np.random.default_rng(seed)
    data = load_city(city, files)
    distance, duration = _slice(data, choose_points(data, n + 1, sampling, rng), coordinates)
    assert duration.matrix is not None
    demands = np.concatenate(([0], rng.integers(1, 10, size=n))).astype(np.int64)
    service = np.concatenate(([0.0], rng.integers(5, 16, size=n).astype(np.float64)))
    out, back = duration.matrix[0], duration.matrix[:, 0]
    horizon = max(480.0, 2.0 * float(np.max(out + service + back)))
    width = rng.uniform(30.0, 120.0, size=n + 1)
    latest_start = horizon - service - back - width  # the window must close early enough to serve and return
    start = out + rng.random(n + 1) * np.maximum(latest_start - out, 0.0)
    windows = np.stack([start, start + width], axis=1)
    windows[0] = (0.0, horizon)
    return Generated(CVRPTWInstance(name, distance, demands, CAPACITY, None, duration, windows, service))
