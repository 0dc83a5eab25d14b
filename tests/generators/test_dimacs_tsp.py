"""The DIMACS TSP Challenge's portable generator: the block-wise stream equals the one-at-a-time form."""

import numpy as np
import pytest

from frontierco.generators import generate
from frontierco.generators.dimacs_tsp import MAXCOORD, KnuthSubtractive, knuth_stream


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
