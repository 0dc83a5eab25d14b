"""The DIMACS TSP Challenge's portable generator: the block-wise stream equals the one-at-a-time form."""

import numpy as np
import pytest

from frontierco.problems.generate import generate
from frontierco.problems.routing.dimacs import MAXCOORD, SIZES, KnuthSubtractive, dimacs_seed, knuth_stream


@pytest.mark.parametrize("seed", [0, 1, 1000, 10000, 123456789])
def test_the_block_stream_is_the_generator_drawn_one_at_a_time(seed: int) -> None:
    reference = KnuthSubtractive(seed)
    expected = np.array([reference.draw() for _ in range(5000)])
    assert np.array_equal(knuth_stream(seed, 5000), expected)
    assert expected.min() >= 0 and expected.max() < 10**9


def test_portgen_cities_are_integer_points_from_consecutive_draws() -> None:
    instance = generate("tsp-dimacs-uniform", "E1k", 1000, {"n": 1000}).instance
    coords = instance.weights.coords
    draws = knuth_stream(1000, 2000)
    assert coords.shape == (1000, 2) and instance.weights.rule == "EUC_2D"
    assert np.array_equal(coords[:, 0], draws[0::2] // 1000) and np.array_equal(coords[:, 1], draws[1::2] // 1000)
    assert coords.min() >= 0 and coords.max() < MAXCOORD and np.all(coords == np.round(coords))


def test_portcgen_cities_gather_around_n_over_100_centres() -> None:
    n = 3000
    first = generate("tsp-dimacs-clustered", "C3k", 7, {"n": n}).instance.weights.coords
    again = generate("tsp-dimacs-clustered", "C3k", 7, {"n": n}).instance.weights.coords
    assert np.array_equal(first, again) and first.shape == (n, 2) and np.all(first == np.round(first))
    draws = KnuthSubtractive(7)
    centres = np.array([[int(draws.draw() / 1e9 * MAXCOORD), int(draws.draw() / 1e9 * MAXCOORD)] for _ in range(n // 100)])
    nearest = np.linalg.norm(first[:, None, :] - centres[None, :, :], axis=2).min(axis=1)
    assert np.median(nearest) < 3 * MAXCOORD / np.sqrt(n)  # offsets are normal with sigma 10^6 / sqrt(n)
    assert np.median(nearest) > 0.3 * MAXCOORD / np.sqrt(n)


@pytest.mark.parametrize(
    ("n", "index", "seed"),
    [(10000, 0, 10000), (10000, 1, 100001), (10000, 2, 100002), (31623, 1, 316231), (100000, 1, 1000001), (316228, 0, 316228)],
)
def test_the_seed_of_an_instance_is_n_for_index_0_else_ten_n_plus_the_index(n: int, index: int, seed: int) -> None:
    assert dimacs_seed(n, index) == seed  # the challenge README's lines, e.g. "portgen 10000 100001 > E10k.1"


# cities 1, 2, 20, 707 and 1000 of the challenge's sample files E1k.1 and C1k.1 ("portgen 1000 10001", "portcgen 1000
# 10001"; a public copy: github AaravJalan/tsp-solver @ 2d74af4, TravelRoutes/DataSample/Datasets/); every city of
# C1k.1 looked at there matched, negative coordinates included
SAMPLE_C1K1 = {0: (75015, 517752), 1: (601402, 227765), 19: (63554, -47097), 706: (1019167, 244194), 999: (84097, 608845)}
SAMPLE_E1K1 = {0: (80464, 9585), 1: (192626, 548478), 2: (351091, 714240)}


def test_the_generators_give_the_challenges_sample_files() -> None:
    clustered = generate("tsp-dimacs", "C1k.1", dimacs_seed(1000, 1), {"n": 1000, "clustered": True}).instance.weights.coords
    uniform = generate("tsp-dimacs", "E1k.1", dimacs_seed(1000, 1), {"n": 1000}).instance.weights.coords
    assert all(tuple(clustered[city]) == xy for city, xy in SAMPLE_C1K1.items())
    assert all(tuple(uniform[city]) == xy for city, xy in SAMPLE_E1K1.items())


def test_a_named_instance_is_its_kinds_generator_at_the_readmes_n() -> None:
    assert SIZES["316k"] == 316228 and SIZES["3M"] == 3162278
    clustered = generate("tsp-dimacs", "C", 5, {"n": 400, "clustered": True}).instance.weights.coords
    assert np.array_equal(clustered, generate("tsp-dimacs-clustered", "C", 5, {"n": 400}).instance.weights.coords)
    uniform = generate("tsp-dimacs", "E", 5, {"n": 400}).instance.weights.coords
    assert np.array_equal(uniform, generate("tsp-dimacs-uniform", "E", 5, {"n": 400}).instance.weights.coords)
