"""A lossless ``.npz`` form for routing instances that VRPLIB cannot hold: explicit distance and
separate duration matrices with time windows (real-city ACVRPTW), kept with their coordinates.

Arrays: ``problem`` ("tsp", "cvrp" or "cvrptw"), ``name``, ``distance`` (n x n) or ``coords`` with
``rule``, optional ``coords`` beside a matrix; for vehicle routing ``demands``, ``capacity``,
``num_vehicles`` (-1 for none); for time windows ``duration`` (n x n), ``time_windows`` (n x 2) and
``service_times`` (n).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.archive import number_array, read_npz
from frontierco.problems.routing.cvrp import CVRPInstance
from frontierco.problems.routing.cvrptw import CVRPTWInstance
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance
from frontierco.problems.routing.tsplib import MAX_COORDINATE, MAX_WEIGHT, write_routing_instance

RoutingInstance = TSPInstance | CVRPInstance | CVRPTWInstance


def _weights_arrays(prefix: str, weights: EdgeWeights) -> dict[str, np.ndarray]:
    arrays = {f"{prefix}rule": np.array(weights.rule)}
    if weights.matrix is not None:
        arrays[f"{prefix}matrix"] = weights.matrix
    if weights.coords is not None:
        arrays[f"{prefix}coords"] = weights.coords
    return arrays


def write_npz_instance(path: str | Path, instance: RoutingInstance) -> None:
    arrays: dict[str, np.ndarray] = {"name": np.array(instance.name)}
    arrays |= _weights_arrays("distance_", instance.weights)
    if isinstance(instance, TSPInstance):
        arrays["problem"] = np.array("tsp")
    else:
        arrays |= {
            "demands": instance.demands,
            "capacity": np.array(instance.capacity),
            "num_vehicles": np.array(instance.num_vehicles or -1),
        }
        arrays["problem"] = np.array("cvrp")
        if isinstance(instance, CVRPTWInstance):
            assert instance.durations is not None and instance.time_windows is not None and instance.service_times is not None
            arrays |= _weights_arrays("duration_", instance.durations)
            arrays |= {"problem": np.array("cvrptw"), "time_windows": instance.time_windows, "service_times": instance.service_times}
    with open(path, "wb") as handle:
        np.savez_compressed(handle, allow_pickle=False, **arrays)


def _numbers(data: dict[str, np.ndarray], key: str, path: Path, shape: tuple[int | None, ...], limit: float) -> np.ndarray:
    """The array ``key`` as float64 numbers of ``shape`` (None: any length), finite and within +-limit."""
    values = number_array(data, key, path)
    if values.ndim != len(shape) or any(want is not None and got != want for got, want in zip(values.shape, shape, strict=True)):
        raise FormatError(path, 0, f"{key} of shape {tuple('n' if want is None else want for want in shape)}, got {values.shape}")
    if not np.all(np.isfinite(values) & (np.abs(values) <= limit)):
        raise FormatError(path, 0, f"finite numbers within +-{limit:g} in {key}")
    return values


def _weights(data: dict[str, np.ndarray], prefix: str, path: Path) -> EdgeWeights:
    coords = _numbers(data, f"{prefix}coords", path, (None, 2), MAX_COORDINATE) if f"{prefix}coords" in data else None
    matrix = _numbers(data, f"{prefix}matrix", path, (None, None), MAX_WEIGHT) if f"{prefix}matrix" in data else None
    try:
        return EdgeWeights(str(data[f"{prefix}rule"]), coords=coords, matrix=matrix)
    except (KeyError, ValueError) as exc:
        raise FormatError(path, 0, f"a valid {prefix}rule with its matrix or coordinates ({exc})") from None


def _whole(data: dict[str, np.ndarray], key: str, path: Path) -> int:
    """A single whole number (``capacity``, ``num_vehicles``)."""
    value = _numbers(data, key, path, (), MAX_WEIGHT)
    if value != np.round(value):
        raise FormatError(path, 0, f"a whole number {key}, got {float(value)!r}")
    return int(value)


def _demands(data: dict[str, np.ndarray], n: int, capacity: int, path: Path) -> np.ndarray:
    demands = _numbers(data, "demands", path, (n,), MAX_WEIGHT)
    if capacity < 1 or np.any(demands < 0) or np.any(demands > capacity):
        raise FormatError(path, 0, f"a positive capacity and demands in 0..capacity, got capacity {capacity}")
    return demands.astype(np.int64) if np.all(demands == np.round(demands)) else demands


def _windows(data: dict[str, np.ndarray], n: int, path: Path) -> tuple[np.ndarray, np.ndarray]:
    windows = _numbers(data, "time_windows", path, (n, 2), MAX_WEIGHT)
    service = _numbers(data, "service_times", path, (n,), MAX_WEIGHT)
    if np.any(windows[:, 0] > windows[:, 1]) or np.any(service < 0):
        raise FormatError(path, 0, "time windows that open before they close and service times >= 0")
    return windows, service


def read_npz_instance(path: str | Path) -> RoutingInstance:
    """A routing instance ``.npz``; its arrays are bounded by the file (``common.archive``) and every number is
    checked as the TSPLIB reader checks it (finite coordinates and weights, demands within the capacity)."""
    path = Path(path)
    data = read_npz(path)
    if "problem" not in data:
        raise FormatError(path, 0, "an instance .npz with a 'problem' array (a city .npz is read with the cities tools)")
    problem, name = str(data["problem"]), str(data.get("name", path.stem))
    if problem not in ("tsp", "cvrp", "cvrptw"):
        raise FormatError(path, 0, f"problem tsp, cvrp or cvrptw, got {problem!r}")
    weights = _weights(data, "distance_", path)
    if problem == "tsp":
        return TSPInstance(name, weights)
    if "demands" not in data or "capacity" not in data or "num_vehicles" not in data:
        raise FormatError(path, 0, f"the arrays of a {problem} instance: demands, capacity, num_vehicles")
    capacity, vehicles = _whole(data, "capacity", path), _whole(data, "num_vehicles", path)
    common = (name, weights, _demands(data, weights.size, capacity, path), capacity, None if vehicles < 0 else vehicles)
    if problem == "cvrp":
        return CVRPInstance(*common)
    if "time_windows" not in data or "service_times" not in data:
        raise FormatError(path, 0, "the arrays of a cvrptw instance: time_windows, service_times")
    durations = _weights(data, "duration_", path)
    if durations.size != weights.size:
        raise FormatError(path, 0, f"durations between the {weights.size} nodes, got {durations.size}")
    return CVRPTWInstance(*common, durations, *_windows(data, weights.size, path))


def cvrptw_suffix(instance: CVRPTWInstance) -> str:
    """``.npz`` where travel durations differ from distances (VRPLIB holds one matrix), else ``.vrp``."""
    return ".npz" if instance.durations is not instance.weights else ".vrp"


def write_cvrptw_instance(path: str | Path, instance: CVRPTWInstance) -> None:
    """A CVRPTW instance in the form ``cvrptw_suffix`` names."""
    if cvrptw_suffix(instance) == ".npz":
        write_npz_instance(path, instance)
    else:
        write_routing_instance(path, instance)
