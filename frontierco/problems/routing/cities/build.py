"""``frontierco cities build`` and ``cities import-rrnco``: make a city ``.npz`` and check it."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError, UsageError
from frontierco.names import check_name
from frontierco.problems.common.fingerprint import file_sha256
from frontierco.problems.routing.cities.city import City, read_city, write_city
from frontierco.problems.routing.cities.network import distance_duration, largest_strong_component, sample_points
from frontierco.problems.routing.cities.osm import read_road_graph, speed_table

LICENCE = "ODbL 1.0, (c) OpenStreetMap contributors"


MAX_POINTS = 20_000  # its two matrices then take 3.2 GB (RRNCO's cities have 1,000 points)


def build_city(osm: Path, name: str, points: int, seed: int = 0) -> City:
    """Sample ``points`` points on the largest strongly connected drivable network of an extract and
    compute their distance (km) and duration (min) matrices. ``name`` is a plain name (it names the default file,
    ``instances/cities/NAME.npz``) and ``points`` in 1..``MAX_POINTS``, both checked before the extract is read."""
    check_name(name, "city name")
    if not 1 <= points <= MAX_POINTS:
        raise UsageError(f"points in 1..{MAX_POINTS} (two float32 matrices of points x points), got {points}")
    graph = largest_strong_component(read_road_graph(osm))
    network = sample_points(graph, points, seed)
    distance, duration = distance_duration(network)
    coordinates = np.stack([network.graph.lat[network.points], network.graph.lon[network.points]], axis=1)
    metadata = {
        "source": osm.name,
        "source_sha256": file_sha256(str(osm)),
        "licence": LICENCE,
        "points": points,
        "seed": seed,
        "scc_nodes": graph.num_nodes,
        "scc_edges": graph.num_edges,
        "default_speeds_kmh": speed_table(),
        "recipe": "points uniform along drivable roads (length-weighted), shortest distance and fastest duration by Dijkstra",
    }
    return City(name, coordinates, distance.astype(np.float32), duration.astype(np.float32), metadata)


@dataclass(frozen=True)
class CityReport:
    """What the checks found: all must hold for a usable city."""

    finite: bool
    triangle_violations: int
    asymmetry: float
    one_way_share: float
    mean_speed_kmh: float

    @property
    def ok(self) -> bool:
        return self.finite and self.triangle_violations == 0


def check_city(city: City, samples: int = 2000, seed: int = 0) -> CityReport:
    """Finite entries, the triangle inequality on sampled triples (shortest paths obey it, up to float32
    rounding), asymmetry statistics, and the mean speed implied by the matrices."""
    rng = np.random.default_rng(seed)
    d = city.distance.astype(np.float64)
    i, j, k = rng.integers(0, city.size, size=(3, samples))
    slack = 1e-5 * (d[i, k] + d[k, j]) + 1e-6
    violations = int(np.sum(d[i, j] > d[i, k] + d[k, j] + slack))
    off = ~np.eye(city.size, dtype=bool)
    asymmetry = float(np.abs(d - d.T)[off].mean() / d[off].mean())
    one_way = float(np.mean(np.abs(d - d.T)[off] > 1e-3))
    speed = float(d[off].sum() / (city.duration.astype(np.float64)[off].sum() / 60.0))
    return CityReport(bool(np.isfinite(city.distance).all() and np.isfinite(city.duration).all()), violations, asymmetry, one_way, speed)


def import_rrnco(directory: Path, out: Path) -> list[Path]:
    """Copy the RRNCO release's ``{City}_data.npz`` files unchanged, after checking each reads."""
    files = sorted(directory.glob("*_data.npz"))
    if not files:
        raise FormatError(directory, 0, "one or more {City}_data.npz files")
    out.mkdir(parents=True, exist_ok=True)
    copied = []
    for path in files:
        read_city(path)
        shutil.copyfile(path, out / path.name)
        copied.append(out / path.name)
    return copied


def save_city(city: City, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    write_city(out, city)
    return out
