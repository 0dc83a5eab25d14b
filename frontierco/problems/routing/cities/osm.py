"""Read the drivable road network of an OpenStreetMap extract (``.osm.pbf``, ``.osm``, ``.osm.gz``,
``.osm.bz2``) with ``osmium`` into a directed graph.

Kept: ways tagged highway = motorway, trunk, primary, secondary, tertiary (and their _link roads),
unclassified, residential, living_street, service; dropped: area=yes, access=no/private. Direction:
oneway=yes/true/1 forward only, oneway=-1/reverse backward only, roundabouts and motorways one-way
unless oneway=no. Length: great-circle distance between consecutive way nodes (shape points kept).
Speed: ``maxspeed`` when it is a number (km/h, or "N mph"), else the default of the road class below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError

DEFAULT_SPEED_KMH = {
    "motorway": 100.0,
    "motorway_link": 60.0,
    "trunk": 80.0,
    "trunk_link": 50.0,
    "primary": 60.0,
    "primary_link": 45.0,
    "secondary": 50.0,
    "secondary_link": 40.0,
    "tertiary": 40.0,
    "tertiary_link": 35.0,
    "unclassified": 30.0,
    "residential": 30.0,
    "living_street": 10.0,
    "service": 15.0,
}
EARTH_RADIUS_M = 6_371_008.8
_MAXSPEED = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mph|km/h|kmh)?\s*$")


@dataclass(frozen=True, eq=False)
class RoadGraph:
    """Nodes (lat, lon in degrees) and directed edges with length (m) and speed (km/h)."""

    lat: np.ndarray
    lon: np.ndarray
    source: np.ndarray
    target: np.ndarray
    length_m: np.ndarray
    speed_kmh: np.ndarray

    @property
    def num_nodes(self) -> int:
        return int(self.lat.size)

    @property
    def num_edges(self) -> int:
        return int(self.source.size)


def great_circle_m(lat1: np.ndarray, lon1: np.ndarray, lat2: np.ndarray, lon2: np.ndarray) -> np.ndarray:
    """Haversine distance in metres."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    dp, dl = p2 - p1, np.radians(lon2 - lon1)
    a = np.sin(dp / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))


def parse_maxspeed(value: str | None, highway: str) -> float:
    """km/h from a maxspeed tag, or the class default."""
    if value:
        match = _MAXSPEED.match(value)
        if match:
            speed = float(match.group(1)) * (1.609344 if match.group(2) == "mph" else 1.0)
            if speed > 0:
                return speed
    return DEFAULT_SPEED_KMH[highway]


def direction(tags: dict[str, str]) -> tuple[bool, bool]:
    """(forward allowed, backward allowed) for a way."""
    oneway = tags.get("oneway", "").lower()
    if oneway in ("yes", "true", "1"):
        return True, False
    if oneway in ("-1", "reverse"):
        return False, True
    if oneway == "no":
        return True, True
    implied = tags.get("junction") in ("roundabout", "circular") or tags.get("highway") == "motorway"
    return True, not implied


def is_drivable(tags: dict[str, str]) -> bool:
    return tags.get("highway") in DEFAULT_SPEED_KMH and tags.get("area") != "yes" and tags.get("access") not in ("no", "private")


def read_road_graph(path: str | Path) -> RoadGraph:
    """The directed drivable graph of an OSM extract; an unreadable file is a FormatError."""
    import osmium

    path = Path(path)
    if not path.is_file():
        raise FormatError(path, 0, "file not found")
    index: dict[int, int] = {}
    lat: list[float] = []
    lon: list[float] = []
    edges: list[tuple[int, int, float]] = []  # (u, v, speed); lengths computed afterwards

    def node_index(ref: object) -> int:
        ref_id = ref.ref  # type: ignore[attr-defined]
        if ref_id not in index:
            index[ref_id] = len(lat)
            lat.append(ref.lat)  # type: ignore[attr-defined]
            lon.append(ref.lon)  # type: ignore[attr-defined]
        return index[ref_id]

    try:
        for way in osmium.FileProcessor(str(path)).with_locations().with_filter(osmium.filter.KeyFilter("highway")):
            if not isinstance(way, osmium.osm.Way):  # a node may carry a highway tag too
                continue
            tags = {tag.k: tag.v for tag in way.tags}
            if not is_drivable(tags):
                continue
            refs = [node for node in way.nodes if node.location.valid()]
            if len(refs) < 2:
                continue
            forward, backward = direction(tags)
            speed = parse_maxspeed(tags.get("maxspeed"), tags["highway"])
            ids = [node_index(node) for node in refs]
            for u, v in zip(ids[:-1], ids[1:], strict=True):
                if u == v:
                    continue
                if forward:
                    edges.append((u, v, speed))
                if backward:
                    edges.append((v, u, speed))
    except RuntimeError as exc:
        raise FormatError(path, 0, f"an OpenStreetMap extract osmium can read ({exc})") from None
    if not edges:
        raise FormatError(path, 0, "at least one drivable road (highway=...) in the extract")
    lat_a, lon_a = np.array(lat), np.array(lon)
    array = np.array(edges)
    source, target = array[:, 0].astype(np.int64), array[:, 1].astype(np.int64)
    length = great_circle_m(lat_a[source], lon_a[source], lat_a[target], lon_a[target])
    return RoadGraph(lat_a, lon_a, source, target, length, array[:, 2])


def speed_table() -> str:
    return ", ".join(f"{k} {v:g}" for k, v in DEFAULT_SPEED_KMH.items())


def travel_minutes(length_m: np.ndarray, speed_kmh: np.ndarray) -> np.ndarray:
    return length_m / 1000.0 / speed_kmh * 60.0
