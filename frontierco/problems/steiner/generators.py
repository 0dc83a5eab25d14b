"""Seeded generators of Steiner tree instances.

- ``stp-hypercube``: the hypercube instances of Rosseti, Poggi de Aragao, Ribeiro, Uchoa and Werneck (SteinLib's
  PUC set, "New benchmark instances for the Steiner problem in graphs", 2001): the d-dimensional hypercube (2^d
  vertices, vertex i adjacent to i XOR 2^k), its terminals the vertices of even parity (an even number of one
  bits), every weight 1 (``hcXu``) or, with ``perturbed = true``, an integer drawn uniformly from [100, 110]
  (as ``hcXp``). The unit graphs are SteinLib's ``hc6u`` ... ``hc12u`` exactly (the tests compare them).
- ``stp-random``: a connected random graph: a random spanning tree (each vertex after the first, in a random
  order, joins a uniformly drawn earlier one), then distinct uniform random edges up to ``m`` in all; integer
  weights uniform in [low, high]; ``terminals`` vertices drawn uniformly.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.steiner.stp import STPInstance, edge_keys


def stp_hypercube(name: str, seed: int, dimension: Annotated[int, Range(1, 24)], perturbed: bool = False) -> Generated:
    if not 1 <= dimension <= 24:
        raise ValueError(f"dimension must be in 1..24, got {dimension}")
    n = 1 << dimension
    vertices = np.arange(n, dtype=np.int64)
    bits = 1 << np.arange(dimension, dtype=np.int64)
    neighbours = vertices[:, None] ^ bits[None, :]
    upward = neighbours > vertices[:, None]
    edges = np.stack([np.broadcast_to(vertices[:, None], neighbours.shape)[upward], neighbours[upward]], axis=1)
    rng = np.random.default_rng(seed)
    weights = rng.integers(100, 111, size=len(edges)) if perturbed else np.ones(len(edges), dtype=np.int64)
    parity = np.array([bin(v).count("1") % 2 for v in range(n)])
    return Generated(STPInstance.build(name, n, edges, weights, vertices[parity == 0]))


def stp_random(
    name: str,
    seed: int,
    n: Annotated[int, Range(1, 10**7)],
    m: Annotated[int, Range(0, 10**8)],
    terminals: Annotated[int, Range(1, 10**7)],
    low: Annotated[int, Range(0, 10**9)] = 1,
    high: Annotated[int, Range(0, 10**9)] = 100,
) -> Generated:
    if n < 1 or not 1 <= terminals <= n or not n - 1 <= m <= n * (n - 1) // 2 or not 0 <= low <= high:
        raise ValueError(f"need 1 <= terminals <= n, n - 1 <= m <= n(n-1)/2 and 0 <= low <= high; got n={n} m={m} terminals={terminals}")
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    tree = (
        np.stack([order[1:], order[(rng.random(n - 1) * np.arange(1, n)).astype(np.int64)]], axis=1)
        if n > 1
        else np.zeros((0, 2), np.int64)
    )
    keys = set(edge_keys(n, tree).tolist())
    while len(keys) < m:
        pairs = rng.integers(0, n, size=(2 * (m - len(keys)) + 8, 2))
        pairs = pairs[pairs[:, 0] != pairs[:, 1]]
        for key in edge_keys(n, pairs).tolist():
            if len(keys) == m:
                break
            keys.add(key)
    ordered = np.array(sorted(keys), dtype=np.int64)
    edges = np.stack([ordered // n, ordered % n], axis=1)
    weights = rng.integers(low, high + 1, size=len(edges))
    chosen = rng.choice(n, size=terminals, replace=False)
    return Generated(STPInstance.build(name, n, edges, weights, chosen))
