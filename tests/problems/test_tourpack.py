"""Packed tours (problems/routing/tourpack.py): they read back to the tour they were made from, on ties and
duplicate cities too, and a form that lies about its cities or its streams is refused, not guessed at."""

import base64
import gzip
import json
import lzma

import numpy as np
import pytest

from frontierco.problems.routing import tourpack, tsp
from frontierco.problems.routing.distances import EdgeWeights


def _grid_tour(side: int) -> tuple[np.ndarray, np.ndarray]:
    """Cities on a side x side integer grid (every distance tied many times) and a boustrophedon tour of them."""
    xs, ys = np.meshgrid(np.arange(side), np.arange(side))
    xs[1::2] = xs[1::2, ::-1]
    coords = np.column_stack((xs.ravel(), ys.ravel())).astype(np.float64)
    rng = np.random.default_rng(3)
    labels = rng.permutation(len(coords))  # cities in random order, as in portgen files
    shuffled = np.empty_like(coords)
    shuffled[labels] = coords
    return shuffled, labels


@pytest.mark.parametrize("seed", [0, 1])
def test_a_random_tour_reads_back(seed: int) -> None:
    rng = np.random.default_rng(seed)
    coords = rng.integers(0, 1000, (500, 2)).astype(np.float64)
    tour = rng.permutation(500)
    assert np.array_equal(tourpack.unpack(tourpack.pack(tour, coords), coords), tour)


def test_a_tour_on_tied_and_duplicate_cities_reads_back() -> None:
    coords, tour = _grid_tour(30)
    coords = np.vstack((coords, coords[:40]))  # 40 cities twice
    tour = np.concatenate((tour, np.arange(900, 940)))
    assert np.array_equal(tourpack.unpack(tourpack.pack(tour, coords), coords), tour)


def test_a_good_tour_packs_to_a_small_fraction_of_its_list() -> None:
    coords, tour = _grid_tour(100)
    packed = json.dumps(tourpack.pack(tour, coords)).encode()
    plain = json.dumps({"tour": tour.tolist()}).encode()
    assert len(gzip.compress(packed)) * 10 < len(gzip.compress(plain))


def test_the_neighbour_table_breaks_ties_by_index() -> None:
    coords = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]], dtype=np.float64)
    assert tourpack.neighbour_table(coords, 4)[0].tolist() == [1, 2, 3, 4]


def _form(tour: np.ndarray, coords: np.ndarray, **change: object) -> dict:
    return {**tourpack.pack(tour, coords), **change}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "other"}, "not a packed tour"),
        ({"n": 99}, "for an instance of 100"),
        ({"first": 100}, "first 100"),
        ({"k": True}, "must be integers"),
        ({"steps": "!!"}, "does not decode"),
        ({"steps": base64.b64encode(lzma.compress(bytes(10**6))).decode()}, "longer than its cities need"),
        ({"steps": base64.b64encode(lzma.compress(bytes([16]) * 99)).decode()}, "more escapes"),
        ({"steps": base64.b64encode(lzma.compress(bytes(98))).decode()}, "has 98 steps"),
    ],
)
def test_a_lying_form_is_refused(change: dict, message: str) -> None:
    rng = np.random.default_rng(5)
    coords = rng.integers(0, 50, (100, 2)).astype(np.float64)
    tour = np.arange(100)  # not a good tour: it has escapes
    with pytest.raises(ValueError, match=message):
        tourpack.unpack(_form(tour, coords, **change), coords)


def test_an_escaped_city_no_step_uses_is_refused() -> None:
    coords = np.array([[0, 0], [1, 0], [2, 0], [3, 0]], dtype=np.float64)
    packed = tourpack.pack(np.array([0, 1, 2, 3]), coords)
    extra = base64.b64encode(lzma.compress(np.array([2], dtype="<u4").tobytes())).decode()
    with pytest.raises(ValueError, match="no step uses"):
        tourpack.unpack({**packed, "escapes": extra}, coords)


def test_a_step_to_a_visited_city_is_refused() -> None:
    coords = np.array([[0, 0], [1, 0], [2, 0], [3, 0]], dtype=np.float64)
    packed = tourpack.pack(np.array([0, 1, 2, 3]), coords)
    escapes = np.array([0, 0, 0], dtype="<u4").tobytes()
    steps = base64.b64encode(lzma.compress(bytes([3, 3, 3]))).decode()
    lying = {**packed, "steps": steps, "escapes": base64.b64encode(lzma.compress(escapes)).decode()}
    with pytest.raises(ValueError, match="visits city 1 twice"):
        tourpack.unpack(lying, coords)


def test_the_tsp_problem_stores_long_tours_packed_and_reads_them_back(monkeypatch: pytest.MonkeyPatch) -> None:
    coords, tour = _grid_tour(20)
    instance = tsp.TSPInstance("grid", EdgeWeights("EUC_2D", coords=coords))
    data = tsp.PROBLEM.encode(tsp.TSPSolution(tour))
    assert tsp.PROBLEM.stored_form(instance, data) is data  # below PACK_FROM: the plain list
    monkeypatch.setattr(tourpack, "PACK_FROM", 100)
    stored = tsp.PROBLEM.stored_form(instance, data)
    assert set(stored) == {"packed_tour"}
    solution = tsp.PROBLEM.read_stored(instance, json.loads(json.dumps(stored)))
    assert np.array_equal(solution.tour, tour)
    assert tsp.PROBLEM.evaluate(instance, solution).objective == tsp.PROBLEM.evaluate(instance, tsp.TSPSolution(tour)).objective
    with pytest.raises(ValueError, match="not a tsp solution: .*for an instance of 400"):
        tsp.PROBLEM.read_stored(instance, {"packed_tour": {**stored["packed_tour"], "n": 5}})
