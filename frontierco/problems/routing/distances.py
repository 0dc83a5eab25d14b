"""Edge weights of routing instances, following each format's own rounding rules.

Coordinate instances compute distances only for the pairs asked for (never an n x n matrix), so a
tour of a million nodes is checked in linear time. Rules (TSPLIB95, Reinelt 1991):

- ``EUC_2D``: Euclidean distance rounded to the nearest integer (nint(x) = floor(x + 0.5)); CVRPLIB
  X and XXL use the same convention.
- ``CEIL_2D``: Euclidean distance rounded up.
- ``ATT``: pseudo-Euclidean distance of the att instances.
- ``GEO``: geographical distance on the idealised sphere (RRR = 6378.388 km, PI = 3.141592), with
  coordinates given as DDD.MM (degrees truncated, minutes as fraction).
- ``MAN_2D`` / ``MAX_2D``: Manhattan / maximum norm rounded to the nearest integer.
- ``EXACT_2D``: unrounded Euclidean distance (generated neural-CO style instances).
- ``EXPLICIT``: an explicit, possibly asymmetric, matrix.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

COORDINATE_RULES = ("EUC_2D", "CEIL_2D", "ATT", "GEO", "MAN_2D", "MAX_2D", "EXACT_2D")
INTEGER_RULES = ("EUC_2D", "CEIL_2D", "ATT", "GEO", "MAN_2D", "MAX_2D")
EUCLIDEAN_RULES = ("EUC_2D", "CEIL_2D", "EXACT_2D")  # Euclidean distances, rounded to the nearest, up, or not at all
_GEO_PI = 3.141592
_GEO_RADIUS = 6378.388


def _nint(x: np.ndarray) -> np.ndarray:
    return np.floor(x + 0.5).astype(np.int64)


def _geo_radians(values: np.ndarray) -> np.ndarray:
    degrees = np.trunc(values)
    minutes = values - degrees
    return _GEO_PI * (degrees + 5.0 * minutes / 3.0) / 180.0


def coordinate_distances(a: np.ndarray, b: np.ndarray, rule: str) -> np.ndarray:
    """Distances between the rows of ``a`` and ``b`` (both shape (k, 2)) under a TSPLIB rule."""
    if rule == "GEO":
        lat_a, lon_a = _geo_radians(a[:, 0]), _geo_radians(a[:, 1])
        lat_b, lon_b = _geo_radians(b[:, 0]), _geo_radians(b[:, 1])
        q1 = np.cos(lon_a - lon_b)
        q2 = np.cos(lat_a - lat_b)
        q3 = np.cos(lat_a + lat_b)
        inner = np.clip(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3), -1.0, 1.0)
        return np.trunc(_GEO_RADIUS * np.arccos(inner) + 1.0).astype(np.int64)
    dx = a[:, 0] - b[:, 0]
    dy = a[:, 1] - b[:, 1]
    if rule == "MAN_2D":
        return _nint(np.abs(dx) + np.abs(dy))
    if rule == "MAX_2D":
        return _nint(np.maximum(np.abs(dx), np.abs(dy)))
    if rule == "ATT":
        r = np.sqrt((dx * dx + dy * dy) / 10.0)
        t = _nint(r)
        return np.where(t < r, t + 1, t)
    euclid = np.sqrt(dx * dx + dy * dy)
    if rule == "EUC_2D":
        return _nint(euclid)
    if rule == "CEIL_2D":
        return np.ceil(euclid).astype(np.int64)
    if rule == "EXACT_2D":
        return euclid
    raise ValueError(f"unknown edge weight rule {rule!r}")


LEG_CHUNK = 1 << 18  # legs costed at once by path_length
MATRIX_BLOCK = 1 << 22  # entries of full_matrix costed at once (its temporaries stay near 100 MB)


@dataclass(frozen=True, eq=False)
class EdgeWeights:
    """Distances between the nodes of a routing instance: coordinates with a rule, or a matrix (which
    may come with coordinates, e.g. latitude/longitude of real-city points, for models and plots)."""

    rule: str
    coords: np.ndarray | None = None
    matrix: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.rule == "EXPLICIT":
            if self.matrix is None or self.matrix.ndim != 2 or self.matrix.shape[0] != self.matrix.shape[1]:
                raise ValueError("an EXPLICIT rule needs a square matrix")
            if self.coords is not None and self.coords.shape != (self.matrix.shape[0], 2):
                raise ValueError("coordinates of an explicit matrix need shape (n, 2)")
        elif self.rule in COORDINATE_RULES:
            if self.coords is None or self.coords.ndim != 2 or self.coords.shape[1] != 2:
                raise ValueError(f"rule {self.rule} needs an (n, 2) coordinate array")
        else:
            raise ValueError(f"unknown edge weight rule {self.rule!r}")

    @property
    def size(self) -> int:
        data = self.matrix if self.rule == "EXPLICIT" else self.coords
        assert data is not None
        return int(data.shape[0])

    @property
    def is_integer(self) -> bool:
        if self.rule == "EXPLICIT":
            assert self.matrix is not None
            return bool(np.issubdtype(self.matrix.dtype, np.integer))
        return self.rule in INTEGER_RULES

    def between(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Distances d(i[k], j[k]) for index arrays ``i`` and ``j``."""
        if self.rule == "EXPLICIT":
            assert self.matrix is not None
            return self.matrix[i, j]
        assert self.coords is not None
        return coordinate_distances(self.coords[i], self.coords[j], self.rule)

    def path_length(self, nodes: np.ndarray) -> float:
        """Length of the walk nodes[0] -> nodes[1] -> ... -> nodes[-1], exact for integer rules."""
        if len(nodes) < 2:
            return 0.0
        total: int | float = 0 if self.is_integer else 0.0
        for start in range(0, len(nodes) - 1, LEG_CHUNK):  # in chunks: a 10M-node tour needs no 10M-long temporaries
            stop = min(start + LEG_CHUNK, len(nodes) - 1)
            legs = self.between(nodes[start:stop], nodes[start + 1 : stop + 1])
            total += int(legs.sum()) if self.is_integer else float(legs.sum(dtype=np.float64))
        return float(total)

    def unrounded(self) -> EdgeWeights | None:
        """The same points with unrounded Euclidean distances (``EXACT_2D``), as FrontierCO's evaluators price edges
        (``math.sqrt`` of the squared differences, whatever the file's rule); None where the distances are not
        Euclidean on coordinates (a matrix, ``GEO``, ``ATT``, the Manhattan and maximum norms)."""
        if self.rule not in EUCLIDEAN_RULES:
            return None
        return self if self.rule == "EXACT_2D" else EdgeWeights("EXACT_2D", coords=self.coords)

    def full_matrix(self) -> np.ndarray:
        """The n x n matrix (for solvers that need one; the checker never calls this)."""
        if self.rule == "EXPLICIT":
            assert self.matrix is not None
            return self.matrix
        assert self.coords is not None
        n, coords = self.size, self.coords
        rows = max(1, MATRIX_BLOCK // max(n, 1))
        matrix = np.empty((n, n), dtype=np.float64 if self.rule == "EXACT_2D" else np.int64)
        for start in range(0, n, rows):  # in row blocks: the only n x n array is the result
            stop = min(n, start + rows)
            block = coordinate_distances(np.repeat(coords[start:stop], n, axis=0), np.tile(coords, (stop - start, 1)), self.rule)
            matrix[start:stop] = block.reshape(stop - start, n)
        return matrix
