"""2-opt on candidate lists: a permutation comes out, never longer, a true 2-opt local optimum with complete
candidate lists, and the same search from a matrix or from coordinates."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.kit.tour_search import DENSE_LIMIT, LocalSearch, TourCosts, candidates, nearest_neighbours, two_opt  # noqa: E402
from frontierco.problems import TSPInstance  # noqa: E402
from frontierco.problems.routing.distances import EdgeWeights  # noqa: E402


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
    monkeypatch.setattr("frontierco.kit.tour_search.DENSE_LIMIT", 50)
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


def _or_opt_gains(tour: np.ndarray, d: np.ndarray) -> list[float]:
    """The gain of every move of a segment of 1-3 cities to another place, either way round (brute force), that
    passes the search's gain criterion: a new edge between an end of the segment and a city of the place is
    shorter than what taking the segment out saves (the place just before the segment is the move of the city
    before it, and left out)."""
    n, gains = len(tour), []
    for length in (1, 2, 3):
        for i in range(n):
            segment = [tour[(i + k) % n] for k in range(length)]
            rest = [tour[(i + length + k) % n] for k in range(n - length)]
            p, q = rest[-1], rest[0]
            removed = d[p, segment[0]] + d[segment[-1], q] - d[p, q]
            for k in range(len(rest) - 2):
                x, y = rest[k], rest[k + 1]
                if min(d[end, c] for end in (segment[0], segment[-1]) for c in (x, y)) >= removed:
                    continue
                for piece in (segment, segment[::-1]):
                    gains.append(removed - (d[x, piece[0]] + d[piece[-1], y] - d[x, y]))
    return gains


def test_the_local_search_ends_where_neither_2_opt_nor_or_opt_improves() -> None:
    tsp = instance(30, seed=3)
    costs = TourCosts.of(tsp)
    assert costs is not None
    start, lists, d = np.random.default_rng(7).permutation(30), candidates(costs, tsp.weights.coords, 29), tsp.weights.full_matrix()
    assert max(_or_opt_gains(two_opt(start, costs, lists), d)) > 0  # 2-opt alone leaves a segment move here
    search = LocalSearch(start, costs, lists)
    while not search.at_local_optimum:
        search.descend(5)  # bounded steps reach the same kind of optimum
    tour = search.tour
    assert sorted(tour.tolist()) == list(range(30)) and search.length == costs.length(tour)
    assert max(_or_opt_gains(tour, d)) <= 1e-9  # no segment move improves
    for i, j in itertools.combinations(range(30), 2):
        a, b, c, e = tour[i], tour[(i + 1) % 30], tour[j], tour[(j + 1) % 30]
        if len({a, b, c, e}) == 4:
            assert d[a, c] + d[b, e] >= d[a, b] + d[c, e]


@pytest.mark.parametrize(
    ("rule", "limit", "depth"),
    [("EUC_2D", 400, 0), ("CEIL_2D", 400, 0), ("EXACT_2D", 400, 0), ("EUC_2D", 12, 0), ("EUC_2D", 400, 6), ("EUC_2D", 12, 6)],
)
def test_kicks_never_lengthen_and_the_length_is_kept_exactly(rule: str, limit: int, depth: int) -> None:
    """A kick whose descent does not pay is undone exactly (tour, positions and length), whatever the moves'
    reversal limit, with LK-style moves too."""
    tsp = instance(400, rule=rule, seed=8)
    costs = TourCosts.of(tsp)
    assert costs is not None
    lists = candidates(costs, tsp.weights.coords, 8)
    search = LocalSearch(np.random.default_rng(9).permutation(400), costs, lists, limit=limit, depth=depth)
    while not search.at_local_optimum:
        search.descend(1000)
    optimum = search.length
    lengths = []
    for seed in range(5):
        search.kick(200, seed)
        lengths.append(search.length)
        assert sorted(search.tour.tolist()) == list(range(400))
        assert search.length == pytest.approx(costs.length(search.tour), abs=1e-6)
        assert np.array_equal(search.pos[search.tour], np.arange(400))
    assert lengths[-1] < optimum and all(b <= a + 1e-9 for a, b in zip([optimum, *lengths], lengths, strict=False))


def test_no_move_turns_around_more_than_its_limit() -> None:
    tsp = instance(400, seed=10)
    costs = TourCosts.of(tsp)
    assert costs is not None
    lists = candidates(costs, tsp.weights.coords, 8)
    start = np.random.default_rng(11).permutation(400)
    bounded, free = LocalSearch(start, costs, lists, limit=15), LocalSearch(start, costs, lists)
    widest = {}
    for name, search in (("bounded", bounded), ("free", free)):
        widest[name] = 0
        while not search.at_local_optimum:
            before = search.tour.copy()
            search.descend(1)
            widest[name] = max(widest[name], int((search.tour != before).sum()))  # cities that moved in one move
        assert search.length == pytest.approx(costs.length(search.tour), abs=1e-6)
    assert widest["bounded"] <= 15 + 4 < widest["free"]  # an Or-opt move also shifts its segment of up to 3


def test_duplicate_points_never_list_themselves_and_the_length_stays_exact() -> None:
    """With duplicate points the k-d tree may return a twin before the point itself: the lists must still leave
    the point out (a list holding it made 2-opt count a move from a city to itself that changed nothing)."""
    rng = np.random.default_rng(12)
    base = rng.integers(0, 60, (300, 2)).astype(float)
    coords = np.concatenate([base, base[:150], base[:40]])  # 190 points have twins, 40 have two
    lists = nearest_neighbours(coords, 8)
    assert lists.shape == (490, 8) and not (lists == np.arange(490)[:, None]).any()
    tsp = TSPInstance("d", EdgeWeights("EUC_2D", coords=coords))
    costs = TourCosts(np.zeros((1, 1)), coords, 2)  # coordinate costs, as above DENSE_LIMIT
    search = LocalSearch(rng.permutation(490), costs, candidates(costs, coords, 8))
    while not search.at_local_optimum:
        search.descend(50)
    search.kick(300, 0)
    assert search.length == pytest.approx(tsp.weights.path_length(np.append(search.tour, search.tour[0])), abs=1e-6)


def test_lk_moves_reach_a_shorter_local_optimum_than_2_opt_and_or_opt() -> None:
    tsp = instance(3000, seed=12)
    costs = TourCosts.of(tsp)
    assert costs is not None
    lists, start = candidates(costs, tsp.weights.coords, 8), np.random.default_rng(13).permutation(3000)
    optima = []
    for depth in (0, 8):
        search = LocalSearch(start, costs, lists, depth=depth)
        while not search.at_local_optimum:
            search.descend(100)
        assert sorted(search.tour.tolist()) == list(range(3000))
        assert search.length == pytest.approx(costs.length(search.tour), abs=1e-6)
        optima.append(search.length)
    assert optima[1] < optima[0]
