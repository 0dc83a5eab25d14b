"""A lossless ``.npz`` form for routing instances that VRPLIB cannot hold: explicit distance and
separate duration matrices with time windows (real-city ACVRPTW), kept with their coordinates.

Arrays: ``problem`` ("tsp", "cvrp" or "cvrptw"), ``name``, ``distance`` (n x n) or ``coords`` with
``rule``, optional ``coords`` beside a matrix; for vehicle routing ``demands``, ``capacity``,
``num_vehicles`` (-1 for none); for time windows ``duration`` (n x n), ``time_windows`` (n x 2) and
``service_times`` (n).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.routing.cvrp import CVRPInstance
from frontierco.problems.routing.cvrptw import CVRPTWInstance
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance
from frontierco.problems.routing.tsplib import write_routing_instance

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


def _weights(data: dict[str, np.ndarray], prefix: str, path: Path) -> EdgeWeights:
    try:
        return EdgeWeights(str(data[f"{prefix}rule"]), coords=data.get(f"{prefix}coords"), matrix=data.get(f"{prefix}matrix"))
    except (KeyError, ValueError) as exc:
        raise FormatError(path, 0, f"a valid {prefix}rule with its matrix or coordinates ({exc})") from None


def read_npz_instance(path: str | Path) -> RoutingInstance:
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as archive:
            data = {key: archive[key] for key in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise FormatError(path, 0, f"a NumPy .npz archive ({exc})") from None
    if "problem" not in data:
        raise FormatError(path, 0, "an instance .npz with a 'problem' array (a city .npz is read with the cities tools)")
    problem, name = str(data["problem"]), str(data.get("name", path.stem))
    if problem not in ("tsp", "cvrp", "cvrptw"):
        raise FormatError(path, 0, f"problem tsp, cvrp or cvrptw, got {problem!r}")
    weights = _weights(data, "distance_", path)
    try:
        if problem == "tsp":
            return TSPInstance(name, weights)
        vehicles = int(data["num_vehicles"])
        common = (name, weights, data["demands"], int(data["capacity"]), None if vehicles < 0 else vehicles)
        if problem == "cvrp":
            return CVRPInstance(*common)
        return CVRPTWInstance(*common, _weights(data, "duration_", path), data["time_windows"], data["service_times"])
    except (KeyError, ValueError) as exc:
        raise FormatError(path, 0, f"the arrays of a {problem} instance ({exc})") from None


def cvrptw_suffix(instance: CVRPTWInstance) -> str:
    """``.npz`` where travel durations differ from distances (VRPLIB holds one matrix), else ``.vrp``."""
    return ".npz" if instance.durations is not instance.weights else ".vrp"


def write_cvrptw_instance(path: str | Path, instance: CVRPTWInstance) -> None:
    """A CVRPTW instance in the form ``cvrptw_suffix`` names."""
    if cvrptw_suffix(instance) == ".npz":
        write_npz_instance(path, instance)
    else:
        write_routing_instance(path, instance)
