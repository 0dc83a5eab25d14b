"""The random instances of the 8th DIMACS Implementation Challenge (TSP), as its ``portgen`` (uniform) and
``portcgen`` (clustered) programs make them: integer coordinates in 0..999,999 from a portable subtractive
random number generator of Knuth's (The Art of Computer Programming, vol. 2, 3.6), seeded with an integer.

The challenge's README gives the command for each instance of its testbed: ``<kind><size>.0`` with seed n and
``<kind><size>.<i>`` for i > 0 with seed 10 n + i (``portgen 10000 100001 > E10k.1``); ``dimacs_seed`` is that
rule and ``dimacs_instance`` builds an instance by its challenge name. Checked against the challenge's sample files
E1k.1 and C1k.1 (``portgen 1000 10001``, ``portcgen 1000 10001``): the same coordinates, city by city.

Written here from the published description of the generators; ``KnuthSubtractive`` is the reference form
of the number stream (one number at a time) and ``knuth_stream`` the same stream computed in blocks with
numpy (each value is the value 55 places back minus the value 24 places back, modulo 10^9), which the tests
check against each other.
"""

from __future__ import annotations

import math
from typing import Annotated

import numpy as np

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance

MODULUS = 1_000_000_000
MAXCOORD = 1_000_000
LONG_LAG, SHORT_LAG = 55, 24
WARM_UP = 165


class KnuthSubtractive:
    """The generator one number at a time: a table of 55 numbers and two moving positions."""

    def __init__(self, seed: int) -> None:
        table = [0] * LONG_LAG
        previous, current = seed, 1
        table[0] = seed
        for i in range(1, LONG_LAG):
            slot = (21 * i) % LONG_LAG
            table[slot] = current
            previous, current = current, (previous - current) % MODULUS
        self.table, self.first, self.second = table, 0, 24
        for _ in range(WARM_UP):
            self.draw()

    def draw(self) -> int:
        self.first = (self.first - 1) % LONG_LAG
        self.second = (self.second - 1) % LONG_LAG
        value = (self.table[self.first] - self.table[self.second]) % MODULUS
        self.table[self.first] = value
        return value


def knuth_stream(seed: int, count: int) -> np.ndarray:
    """The first ``count`` numbers ``KnuthSubtractive(seed)`` draws, in blocks of 24 (int64)."""
    start = KnuthSubtractive(seed)
    # the last 55 numbers drawn (warm-up included), oldest first: the table read backwards from the position
    history = [start.table[(start.first + k) % LONG_LAG] for k in range(LONG_LAG)][::-1]
    out = np.empty(LONG_LAG + count, dtype=np.int64)
    out[:LONG_LAG] = history
    for at in range(LONG_LAG, LONG_LAG + count, SHORT_LAG):
        stop = min(at + SHORT_LAG, LONG_LAG + count)
        out[at:stop] = (out[at - LONG_LAG : stop - LONG_LAG] - out[at - SHORT_LAG : stop - SHORT_LAG]) % MODULUS
    return out[LONG_LAG:]


def dimacs_uniform(name: str, seed: int, n: Annotated[int, Range(1, 10**8)]) -> Generated:
    """``portgen n seed``: x and y of each city from consecutive draws, divided by 1,000 (integers)."""
    draws = knuth_stream(seed, 2 * n) // (MODULUS // MAXCOORD)
    return Generated(TSPInstance(name, EdgeWeights("EUC_2D", coords=draws.reshape(n, 2).astype(np.float64))))


class _Draws:
    """The stream as a cursor (drawn ahead in numpy blocks)."""

    def __init__(self, seed: int, ahead: int) -> None:
        self.seed, self.values, self.at = seed, knuth_stream(seed, ahead).tolist(), 0

    def next(self) -> float:
        if self.at == len(self.values):
            self.values = knuth_stream(self.seed, 2 * len(self.values)).tolist()  # the same stream, longer
        self.at += 1
        return float(self.values[self.at - 1])


def dimacs_clustered(name: str, seed: int, n: Annotated[int, Range(1, 10**8)]) -> Generated:
    """``portcgen n seed``: n/100 centres uniform in the square, each city around a centre drawn uniformly,
    offset by normal deviates (Knuth's polar method, vol. 2, 3.4.1, pairs used x then y) times 10^6 / sqrt(n),
    truncated towards zero as C's ``(int)`` does. The same floating-point steps as the description, in order."""
    draws = _Draws(seed, 2 * (n // 100) + 4 * n + 64)
    centres = max(n // 100, 1)
    scale = 1.0 / math.sqrt(n)
    centre = [(int(draws.next() / MODULUS * MAXCOORD), int(draws.next() / MODULUS * MAXCOORD)) for _ in range(centres)]
    coords = np.empty((n, 2), dtype=np.float64)
    for i in range(n):
        cx, cy = centre[int(draws.next() / MODULUS * centres)]
        while True:
            v1 = 2 * draws.next() / MODULUS - 1.0
            v2 = 2 * draws.next() / MODULUS - 1.0
            s = v1 * v1 + v2 * v2
            if s < 1.0:
                break
        t = math.sqrt((-2.0 * math.log(s)) / s)
        coords[i, 0] = cx + int(v2 * t * scale * MAXCOORD)
        coords[i, 1] = cy + int(v1 * t * scale * MAXCOORD)
    return Generated(TSPInstance(name, EdgeWeights("EUC_2D", coords=coords)))


SIZES = {"1k": 1000, "3k": 3162, "10k": 10000, "31k": 31623, "100k": 100000, "316k": 316228, "1M": 1000000}
SIZES |= {"3M": 3162278, "10M": 10000000}  # the README's n for each size name (316k is 316,228, 3M 3,162,278)


def dimacs_seed(n: int, index: int) -> int:
    """The seed of the challenge's instance ``<size>.<index>`` of n cities: n for index 0, else 10 n + index."""
    return n if index == 0 else 10 * n + index


def dimacs_instance(name: str, seed: int, n: Annotated[int, Range(1, 10**8)], clustered: bool = False) -> Generated:
    """``portcgen n seed`` when ``clustered``, else ``portgen n seed``: one generator for a collection that holds
    both kinds (the challenge's E- and C-instances)."""
    return (dimacs_clustered if clustered else dimacs_uniform)(name, seed, n)
