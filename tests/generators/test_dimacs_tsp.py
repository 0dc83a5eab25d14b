"""The DIMACS TSP Challenge's portable generator: the block-wise stream equals the one-at-a-time form."""

import numpy as np
import pytest

from frontierco.problems.generate import generate
from frontierco.problems.routing.dimacs import MAXCOORD, KnuthSubtractive, knuth_stream


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
