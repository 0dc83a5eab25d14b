"""The fast nearest-neighbour tour is the scanning one, ties and duplicate points included."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.kit.nearest_tour import nearest_tour  # noqa: E402
from frontierco.kit.solverkit import nearest_neighbour  # noqa: E402
from frontierco.problems.routing.distances import EdgeWeights  # noqa: E402


@pytest.mark.parametrize("rule", ["EUC_2D", "CEIL_2D", "EXACT_2D"])
@pytest.mark.parametrize("spread", [6, 1000])  # on a 6 x 6 grid nearly every step has ties; duplicates too
def test_the_tour_from_the_lists_is_the_scanning_one(rule: str, spread: int) -> None:
    rng = np.random.default_rng(spread)
    coords = rng.integers(0, spread, (300, 2)).astype(float) if rule != "EXACT_2D" else rng.random((300, 2)) * spread
    weights = EdgeWeights(rule, coords=coords)
    for start in (0, 17, 299):
        assert np.array_equal(nearest_tour(weights, start), nearest_neighbour(weights, start))


def test_other_rules_and_matrices_take_the_scan() -> None:
    matrix = np.random.default_rng(1).integers(1, 50, (20, 20))
    weights = EdgeWeights("EXPLICIT", matrix=matrix)
    assert np.array_equal(nearest_tour(weights, 3), nearest_neighbour(weights, 3))
    geo = EdgeWeights("GEO", coords=np.random.default_rng(2).random((30, 2)) * 50)
    assert np.array_equal(nearest_tour(geo, 0), nearest_neighbour(geo, 0))
