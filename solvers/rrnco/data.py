"""Routing data as tensors: batches built from suite instances (inference) or sampled (training, dev sets).

Three kinds, one per decoder context: ``tsp`` (ATSP when the matrix is asymmetric), ``cvrp`` (ACVRP) and
``cvrptw`` (ACVRPTW). Node 0 is the depot of the vehicle-routing kinds. Matrices are kept in their own units
(the cost); the model sees them scaled per instance (``scaled_*``).

Training instances follow the RRNCO recipe (Son et al., ICLR 2026): N+1 points of a real city, drawn
uniformly or clustered exactly as the suite's ``realcity-*`` generators draw them, the city's directed distance
and duration matrices sliced to them, integer demands 1..9 and capacity 50, time windows as the suite's
``realcity-acvrptw`` generator draws them; or uniform points in the unit square with Euclidean distances
(capacities 30/40/50 for 20/50/100 customers, as Kool et al.). Training batches may show each instance in one
of the 8 symmetries of the unit square, drawn at random. Sampling is numpy with a seed, so a dev set is the
same on every machine.

The network reads coordinates in one layout, the same in training and at inference (``model_coords``): the
points in the order the instance stores them (real cities: (lat, lon)), min-max scaled with one factor.
A checkpoint's card records it (``input.coordinates``) and loading refuses any other (the first checkpoints
were trained on the columns swapped while inference fed them unswapped). An instance with no coordinates (a
VRPLIB ``EXPLICIT`` matrix, as road-network files usually are) is placed by classical multidimensional scaling
of its matrix, as the Attention Model and DIMES place one (``frontierco.kit.solverkit.classical_mds``), then scaled
the same way; the card says so (``input.without_coordinates``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import torch

from frontierco.kit.solverkit import classical_mds
from frontierco.problems.routing.cities.city import City
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.realcity import choose_points

KINDS = ("tsp", "cvrp", "cvrptw")
CITY_CAPACITY = 50
UNIFORM_CAPACITY = {10: 20, 20: 30, 50: 40, 100: 50}
# the coordinate layout the network reads (the instance's own column order), recorded in every checkpoint card
TRAINING_ORDER = "stored"
# how an instance without coordinates is placed before ``model_coords`` (recorded in the checkpoint cards)
WITHOUT_COORDINATES = "classical multidimensional scaling of the symmetrised distance matrix, then min-max scaled as stored coordinates are"


@dataclass(frozen=True)
class RoutingBatch:
    """B instances of N nodes. ``distance`` is the cost matrix; the rest is present for the kinds that use it."""

    kind: str
    coords: torch.Tensor  # (B, N, 2), min-max scaled per instance
    distance: torch.Tensor  # (B, N, N), original units
    duration: torch.Tensor | None = None  # (B, N, N), cvrptw
    demand: torch.Tensor | None = None  # (B, N), depot 0
    capacity: torch.Tensor | None = None  # (B,)
    windows: torch.Tensor | None = None  # (B, N, 2), cvrptw
    service: torch.Tensor | None = None  # (B, N), cvrptw

    @property
    def size(self) -> int:
        return int(self.distance.shape[0])

    @property
    def nodes(self) -> int:
        return int(self.distance.shape[1])

    def map(self, change: Callable[[torch.Tensor], torch.Tensor]) -> RoutingBatch:
        """The batch with ``change`` applied to each of its tensors (absent ones stay absent)."""

        def each(tensor: torch.Tensor | None) -> torch.Tensor | None:
            return None if tensor is None else change(tensor)

        optional = (self.duration, self.demand, self.capacity, self.windows, self.service)
        return RoutingBatch(self.kind, change(self.coords), change(self.distance), *map(each, optional))

    @staticmethod
    def concatenate(batches: list[RoutingBatch]) -> RoutingBatch:
        """The instances of several batches of one kind, in order."""
        first = batches[0]

        def joined(name: str) -> torch.Tensor | None:
            return None if getattr(first, name) is None else torch.cat([getattr(b, name) for b in batches])

        coords, distance = torch.cat([b.coords for b in batches]), torch.cat([b.distance for b in batches])
        return RoutingBatch(first.kind, coords, distance, *map(joined, TENSOR_FIELDS[2:]))

    def to(self, device: torch.device | str, dtype: torch.dtype | None = None) -> RoutingBatch:
        return self.map(lambda t: t.to(device, dtype=dtype) if dtype is not None and t.is_floating_point() else t.to(device))

    def repeat(self, times: int) -> RoutingBatch:
        """Each instance ``times`` times in a row (instance b is rows b*times .. b*times+times-1)."""
        return self.map(lambda t: t.repeat_interleave(times, 0))

    def with_coords(self, coords: torch.Tensor) -> RoutingBatch:
        return replace(self, coords=coords)

    def select(self, rows: torch.Tensor) -> RoutingBatch:
        """The instances at ``rows`` (a 1-D index tensor), in that order."""
        return self.map(lambda t: t[rows])


TENSOR_FIELDS = ("coords", "distance", "duration", "demand", "capacity", "windows", "service")


def model_coords(points: np.ndarray) -> np.ndarray:
    """What the network reads for (..., N, 2) points as an instance stores them: min-max scaled per instance
    with one factor for both axes (keeps angles); a point set collapses to 0."""
    low = points.min(axis=-2, keepdims=True)
    span = (points.max(axis=-2, keepdims=True) - low).max(axis=-1, keepdims=True)
    return (points - low) / np.where(span > 0, span, 1.0)


def symmetries(coords: torch.Tensor) -> torch.Tensor:
    """(..., N, 2) coordinates in the unit square -> (8, ..., N, 2): its 8 symmetries (POMO's x8), identity first."""
    x, y = coords[..., 0], coords[..., 1]
    variants = [(x, y), (y, x), (1 - x, y), (y, 1 - x), (x, 1 - y), (1 - y, x), (1 - x, 1 - y), (1 - y, 1 - x)]
    return torch.stack([torch.stack(v, -1) for v in variants])


def scaled_distance(batch: RoutingBatch) -> torch.Tensor:
    """Distances divided by each instance's largest one (the model's view; costs stay in ``distance``)."""
    top = batch.distance.flatten(1).amax(1).clamp_min(1e-12)
    return batch.distance / top[:, None, None]


def horizon(batch: RoutingBatch) -> torch.Tensor:
    assert batch.windows is not None
    return batch.windows[:, 0, 1].clamp_min(1e-12)


def angles(coords: torch.Tensor) -> torch.Tensor:
    """(B, N, N) direction of j seen from i, in (-1, 1] (fractions of pi)."""
    delta = coords[:, None, :, :] - coords[:, :, None, :]
    return torch.atan2(delta[..., 1], delta[..., 0]) / torch.pi


def kind_of(problem: str) -> str:
    if problem not in KINDS:
        raise ValueError(f"rrnco routes tsp, cvrp and cvrptw, not {problem!r}")
    return problem


class Sampler:
    """Seeded random instances of one kind and size, from real cities and/or uniform points."""

    def __init__(
        self, kind: str, n: int, cities: list[City], city_share: float, seed: int, *, clustered_share: float = 0.0, augment: bool = False
    ):
        """``city_share``: the share of batches drawn from ``cities`` (the rest: uniform points in the unit square);
        ``clustered_share``: the share of city instances whose points are clustered; ``augment``: each instance in
        a random one of the 8 symmetries of the unit square."""
        self.kind = kind_of(kind)
        self.n = n
        self.cities = cities
        self.city_share = city_share if cities else 0.0
        self.clustered_share = clustered_share
        self.augment = augment
        if kind == "cvrptw" and self.city_share < 1.0:
            raise ValueError("cvrptw instances are sampled from cities only (durations come from the road network)")
        self.rng = np.random.default_rng(seed)

    @property
    def nodes(self) -> int:
        return self.n if self.kind == "tsp" else self.n + 1

    def sample(self, count: int) -> RoutingBatch:
        from_city = self.rng.random() < self.city_share
        points, distance, duration = self._city(count) if from_city else self._uniform(count)
        n, rng = self.nodes, self.rng
        as_tensor = torch.from_numpy
        coords = as_tensor(model_coords(points)).float()
        if self.augment:
            coords = symmetries(coords)[rng.integers(8, size=count), torch.arange(count)]
        if self.kind == "tsp":
            return RoutingBatch("tsp", coords, as_tensor(distance).float())
        demand = np.concatenate([np.zeros((count, 1)), rng.integers(1, 10, size=(count, n - 1))], axis=1)
        capacity = np.full(count, CITY_CAPACITY if from_city else UNIFORM_CAPACITY.get(n - 1, CITY_CAPACITY), dtype=np.float64)
        windows = service = None
        if self.kind == "cvrptw":
            windows, service = self._windows(duration)
        return RoutingBatch(
            self.kind,
            coords,
            as_tensor(distance).float(),
            None if self.kind != "cvrptw" else as_tensor(duration).float(),
            as_tensor(demand).float(),
            as_tensor(capacity).float(),
            None if windows is None else as_tensor(windows).float(),
            None if service is None else as_tensor(service).float(),
        )

    def _uniform(self, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        coords = self.rng.random((count, self.nodes, 2))
        distance = np.linalg.norm(coords[:, :, None, :] - coords[:, None, :, :], axis=-1)
        return coords, distance, distance

    def _city(self, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        chosen = self.rng.integers(len(self.cities), size=count)
        points, distance, duration = [], [], []
        for c in chosen:
            city = self.cities[c]
            # no coin is drawn without clustering, so the seeded dev sets stay what their reference costs were computed on
            clustered = self.clustered_share > 0 and self.rng.random() < self.clustered_share
            sampling = "clustered" if clustered else "uniform"
            idx = choose_points(city, self.nodes, sampling, self.rng)
            grid = np.ix_(idx, idx)
            points.append(city.points[idx].astype(np.float64))
            distance.append(city.distance[grid].astype(np.float64))
            duration.append(city.duration[grid].astype(np.float64))
        return np.stack(points), np.stack(distance), np.stack(duration)

    def _windows(self, duration: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Time windows as ``realcity_acvrptw`` draws them: depot -> i -> depot is always feasible."""
        count, n, rng = duration.shape[0], self.nodes, self.rng
        service = np.concatenate([np.zeros((count, 1)), rng.integers(5, 16, size=(count, n - 1)).astype(np.float64)], axis=1)
        out, back = duration[:, 0, :], duration[:, :, 0]
        horizon = np.maximum(480.0, 2.0 * np.max(out + service + back, axis=1))
        width = rng.uniform(30.0, 120.0, size=(count, n))
        latest_start = horizon[:, None] - service - back - width
        start = out + rng.random((count, n)) * np.maximum(latest_start - out, 0.0)
        windows = np.stack([start, start + width], axis=-1)
        windows[:, 0, 0], windows[:, 0, 1] = 0.0, horizon
        return windows, service


def instance_points(weights: EdgeWeights) -> np.ndarray:
    """(N, 2) points of an instance as stored; without coordinates, the classical multidimensional scaling of
    its distance matrix (``WITHOUT_COORDINATES``; the checkpoints were trained on stored coordinates only)."""
    if weights.coords is not None:
        return np.asarray(weights.coords, dtype=np.float64)[:, :2]
    return classical_mds(weights.full_matrix())


def from_instance(instance: object) -> RoutingBatch:
    """A batch of one suite instance (``TSPInstance``, ``CVRPInstance`` or ``CVRPTWInstance``), in float64 so
    that costs add up as the checker adds them. Coordinates go through ``model_coords`` as in training;
    an instance without them (a bare distance matrix) is placed by ``instance_points`` first."""
    from frontierco.problems import CVRPInstance, CVRPTWInstance, TSPInstance

    if not isinstance(instance, TSPInstance | CVRPInstance):
        raise TypeError(f"rrnco cannot route a {type(instance).__name__}")
    weights = instance.weights
    distance = torch.from_numpy(np.asarray(weights.full_matrix(), dtype=np.float64))[None]
    coords = torch.from_numpy(model_coords(instance_points(weights)))[None]
    if isinstance(instance, TSPInstance):
        return RoutingBatch("tsp", coords, distance)
    demand = torch.from_numpy(np.asarray(instance.demands, dtype=np.float64))[None]
    capacity = torch.tensor([float(instance.capacity)], dtype=torch.float64)
    if not isinstance(instance, CVRPTWInstance):
        return RoutingBatch("cvrp", coords, distance, None, demand, capacity)
    assert instance.durations is not None and instance.time_windows is not None and instance.service_times is not None
    duration = torch.from_numpy(np.asarray(instance.durations.full_matrix(), dtype=np.float64))[None]
    windows = torch.from_numpy(np.asarray(instance.time_windows, dtype=np.float64))[None]
    service = torch.from_numpy(np.asarray(instance.service_times, dtype=np.float64))[None]
    return RoutingBatch("cvrptw", coords, distance, duration, demand, capacity, windows, service)


def suite_instances(batch: RoutingBatch, prefix: str) -> list[Any]:
    """The batch's instances as suite instances (explicit matrices), for the classical solvers and the checker."""
    from frontierco.problems import CVRPInstance, CVRPTWInstance, TSPInstance
    from frontierco.problems.routing.distances import EdgeWeights

    out: list[TSPInstance | CVRPInstance | CVRPTWInstance] = []
    for b in range(batch.size):
        coords = batch.coords[b].double().numpy()
        weights = EdgeWeights("EXPLICIT", coords=coords, matrix=batch.distance[b].double().numpy())
        name = f"{prefix}-{b}"
        if batch.kind == "tsp":
            out.append(TSPInstance(name, weights))
            continue
        assert batch.demand is not None and batch.capacity is not None
        demands, capacity = batch.demand[b].numpy().astype(np.int64), int(batch.capacity[b])
        if batch.kind == "cvrp":
            out.append(CVRPInstance(name, weights, demands, capacity))
            continue
        assert batch.duration is not None and batch.windows is not None and batch.service is not None
        durations = EdgeWeights("EXPLICIT", coords=coords, matrix=batch.duration[b].double().numpy())
        out.append(
            CVRPTWInstance(
                name, weights, demands, capacity, None, durations, batch.windows[b].double().numpy(), batch.service[b].double().numpy()
            )
        )
    return out
