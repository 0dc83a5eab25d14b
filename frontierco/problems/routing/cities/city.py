"""The city ``.npz`` format, compatible with the RRNCO data release (``{City}_data.npz``).

Arrays: ``points`` (N, 2) latitude/longitude in degrees, ``distance`` (N, N) road distance in km,
``duration`` (N, N) travel time in minutes; both matrices are directed (row = from, column = to).
Files written here add ``metadata``: a JSON string (source extract, its sha256, licence, ...).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.archive import number_array, read_npz

REQUIRED = ("points", "distance", "duration")


@dataclass(frozen=True, eq=False)
class City:
    """Sampled points of a real road network with directed distance and duration matrices."""

    name: str
    points: np.ndarray
    distance: np.ndarray
    duration: np.ndarray
    metadata: dict[str, object] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return int(self.points.shape[0])


def read_city(path: str | Path) -> City:
    """Read a city ``.npz``; a missing array or a shape mismatch is a FormatError."""
    path = Path(path)
    arrays = read_npz(path)  # bounded by the file (common.archive)
    missing = [key for key in REQUIRED if key not in arrays]
    if missing:
        raise FormatError(path, 0, f"arrays {', '.join(REQUIRED)}; missing {', '.join(missing)}")
    points, distance, duration = (number_array(arrays, key, path) for key in REQUIRED)
    n = points.shape[0] if points.ndim == 2 else -1
    if points.ndim != 2 or points.shape[1] != 2:
        raise FormatError(path, 0, f"points of shape (N, 2), got {points.shape}")
    if not np.all(np.isfinite(points)):
        raise FormatError(path, 0, "finite values in points")
    for key, matrix in (("distance", distance), ("duration", duration)):
        if matrix.shape != (n, n):
            raise FormatError(path, 0, f"{key} of shape ({n}, {n}), got {matrix.shape}")
        if not np.all(np.isfinite(matrix)):
            raise FormatError(path, 0, f"finite values in {key}")
    metadata: dict[str, object] = {}
    if "metadata" in arrays:
        try:
            metadata = json.loads(str(arrays["metadata"]))
        except json.JSONDecodeError:
            raise FormatError(path, 0, "metadata as a JSON string") from None
    name = str(metadata.get("name", path.name.removesuffix(".npz").removesuffix("_data")))
    return City(name, points, distance, duration, metadata)


def write_city(path: str | Path, city: City) -> None:
    """Write a city ``.npz`` (compressed), metadata as a JSON string."""
    metadata = json.dumps({"name": city.name, **city.metadata}, sort_keys=True)
    np.savez_compressed(path, points=city.points, distance=city.distance, duration=city.duration, metadata=np.array(metadata))
