"""The greedy-edge tour: a permutation whatever the points, the classical greedy matching when every pair is a
candidate, and far shorter than the space-filling curve it replaces as the numba search's start."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.kit.greedy_tour import greedy_tour  # noqa: E402
from frontierco.kit.solverkit import hilbert_index  # noqa: E402
from frontierco.kit.tour_search import TourCosts, candidates  # noqa: E402


def _costs(points: np.ndarray) -> TourCosts:
    return TourCosts(np.zeros((1, 1)), np.ascontiguousarray(points, dtype=np.float64), 1)  # EXACT_2D from the coordinates


def _classical_greedy_length(points: np.ndarray) -> float:
    """Every pair shortest first, taken while both ends have fewer than two edges and no cycle closes; the
    Hamiltonian path it ends with, closed."""
    n = len(points)
    pairs = sorted((float(np.linalg.norm(points[i] - points[j])), i, j) for i in range(n) for j in range(i + 1, n))
    degree, parent, total = [0] * n, list(range(n)), 0.0

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for length, i, j in pairs:
        if degree[i] < 2 and degree[j] < 2 and root(i) != root(j):
            parent[root(i)] = root(j)
            degree[i] += 1
            degree[j] += 1
            total += length
    ends = [v for v in range(n) if degree[v] < 2]
    return total + float(np.linalg.norm(points[ends[0]] - points[ends[1]]))


@pytest.mark.parametrize("seed", range(4))
def test_with_every_pair_a_candidate_it_is_the_classical_greedy_matching(seed: int) -> None:
    points = np.random.default_rng(seed).random((40, 2))
    costs = _costs(points)
    tour = greedy_tour(costs, candidates(costs, points, 39), points)
    assert sorted(tour.tolist()) == list(range(40))
    assert costs.length(tour) == pytest.approx(_classical_greedy_length(points), rel=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 9])
def test_tiny_instances_get_a_permutation(n: int) -> None:
    points = np.random.default_rng(n).random((n, 2))
    costs = _costs(points)
    assert sorted(greedy_tour(costs, candidates(costs, points, 8), points).tolist()) == list(range(n))


@pytest.mark.parametrize("k", [1, 2, 5])
def test_short_lists_leave_fragments_that_later_rounds_and_the_chain_join(k: int) -> None:
    """With one to five candidates each, greedy leaves many fragments (a node's few nearest are taken by others);
    duplicate points and a clustered layout included."""
    rng = np.random.default_rng(k)
    centres = rng.random((20, 2)) * 100
    points = np.concatenate([centres[rng.integers(0, 20, 3000)] + rng.normal(0, 0.5, (3000, 2)), centres[:5]])
    costs = _costs(points)
    tour = greedy_tour(costs, candidates(costs, points, k), points)
    assert sorted(tour.tolist()) == list(range(len(points)))


def test_it_is_far_shorter_than_the_hilbert_curve() -> None:
    points = np.random.default_rng(7).random((5000, 2))
    costs = _costs(points)
    greedy = costs.length(greedy_tour(costs, candidates(costs, points, 8), points))
    curve = costs.length(np.argsort(hilbert_index(points), kind="stable"))
    assert greedy < 0.9 * curve  # about 14% and 38% above the optimum on uniform points
