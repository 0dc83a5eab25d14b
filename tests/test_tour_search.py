"""2-opt on candidate lists: a permutation comes out, never longer, a true 2-opt local optimum with complete
candidate lists, and the same search from a matrix or from coordinates."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.problems import TSPInstance  # noqa: E402
from frontierco.problems.distances import EdgeWeights  # noqa: E402
from frontierco.tour_search import DENSE_LIMIT, TourCosts, candidates, two_opt  # noqa: E402


def instance(n: int, rule: str = "EUC_2D", seed: int = 0) -> TSPInstance:
    return TSPInstance("t", EdgeWeights(rule, coords=np.random.default_rng(seed).random((n, 2)) * 1000))


def test_two_opt_reaches_a_local_optimum_of_the_checker_costs() -> None:
    tsp = instance(40)
    costs = TourCosts.of(tsp)
    assert costs is not None
    tour = two_opt(np.random.default_rng(1).permutation(40), costs, candidates(costs, tsp.weights.coords, 39))
    assert sorted(tour.tolist()) == list(range(40))
    d = tsp.weights.full_matrix()
    for i, j in itertools.combinations(range(40), 2):
        a, b, c, e = tour[i], tour[(i + 1) % 40], tour[j], tour[(j + 1) % 40]
        if len({a, b, c, e}) == 4:
            assert d[a, c] + d[b, e] >= d[a, b] + d[c, e]  # no improving exchange is left


def test_two_opt_never_lengthens_and_respects_its_move_budget() -> None:
    tsp = instance(300, seed=2)
    costs = TourCosts.of(tsp)
    assert costs is not None
    start = np.random.default_rng(3).permutation(300)
    lists = candidates(costs, tsp.weights.coords, 8)
    one = two_opt(start, costs, lists, max_moves=1)
    full = two_opt(start, costs, lists)
    assert costs.length(full) < costs.length(one) < costs.length(start)
    assert int((one != start).sum()) > 0 and costs.length(full) == tsp.weights.path_length(np.append(full, full[0]))


def test_coordinate_costs_match_the_dense_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    tsp = instance(120, seed=4)
    dense = TourCosts.of(tsp)
    monkeypatch.setattr("frontierco.tour_search.DENSE_LIMIT", 50)
    from_coords = TourCosts.of(tsp)
    assert dense is not None and from_coords is not None and dense.rule == 0 and from_coords.rule == 2
    start = np.random.default_rng(5).permutation(120)
    a = two_opt(start, dense, candidates(dense, tsp.weights.coords, 10))
    b = two_opt(start, from_coords, candidates(from_coords, tsp.weights.coords, 10))
    assert dense.length(a) == from_coords.length(a) and dense.length(b) == tsp.weights.path_length(np.append(b, b[0]))
    assert DENSE_LIMIT > 50


def test_no_search_where_two_opt_cannot_run() -> None:
    matrix = np.random.default_rng(6).integers(1, 9, (8, 8)) * (1 - np.eye(8, dtype=int))
    assert TourCosts.of(TSPInstance("a", EdgeWeights("EXPLICIT", matrix=matrix))) is None
