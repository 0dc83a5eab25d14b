"""The grid's nearest neighbours are the brute-force ones: nearest first, ties by index, never the point itself."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.kit.grid_neighbours import grid_neighbours  # noqa: E402


def _brute(points: np.ndarray, k: int) -> np.ndarray:
    d = ((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=-1)
    np.fill_diagonal(d, np.inf)
    return np.array([np.lexsort((np.arange(len(points)), row))[:k] for row in d])


@pytest.mark.parametrize(
    "layout",
    ["uniform", "integer grid with ties", "duplicates", "clustered", "a line"],
)
def test_the_lists_are_the_brute_force_ones(layout: str) -> None:
    rng = np.random.default_rng(5)
    n = 1500
    points = {
        "uniform": rng.random((n, 2)) * 1000,
        "integer grid with ties": rng.integers(0, 30, (n, 2)).astype(float),
        "duplicates": np.repeat(rng.random((n // 5, 2)), 5, axis=0),
        "clustered": rng.random((10, 2))[rng.integers(0, 10, n)] * 1e6 + rng.normal(0, 3, (n, 2)),
        "a line": np.column_stack([rng.random(n), np.zeros(n)]),
    }[layout]
    for k in (1, 8, 17):
        assert np.array_equal(grid_neighbours(points, k), _brute(points, k)), (layout, k)


@pytest.mark.parametrize("n", [1, 2, 3, 9])
def test_tiny_sets(n: int) -> None:
    points = np.random.default_rng(n).random((n, 2))
    found = grid_neighbours(points, 8)
    assert found.shape == (n, min(8, n - 1))
    assert np.array_equal(found, _brute(points, min(8, n - 1))) if n > 1 else found.size == 0
