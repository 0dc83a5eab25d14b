"""Seeded generators of dominating set graphs.

- ``mds-ba``: Barabasi-Albert preferential attachment (networkx), ``m`` edges per new vertex, as FrontierCO's
  MDS training and validation sets (its ``generate_training_instances.py``: m = 4; "large" draws n in
  800..1200). ``n`` may be a [low, high] range, drawn from the seed.
- ``mds-sparse``: G(n, m) with about n * degree / 2 uniform random edges (repeats merged), memory linear in
  the edges, for 100k-1M vertices in seconds.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.graphs.mds import MDSInstance
from frontierco.problems.graphs.mis import canonical_edges


def mds_ba(name: str, seed: int, n: Annotated[int | list[int], Range(2, 10**7)], m: Annotated[int, Range(1, 10_000)] = 4) -> Generated:
    import networkx as nx

    rng = np.random.default_rng(seed)
    size = int(rng.integers(n[0], n[1] + 1)) if isinstance(n, list) else int(n)
    if m >= size:
        raise ValueError(f"m = {m} must be below n = {size} (edges per new vertex)")
    graph = nx.barabasi_albert_graph(size, m, seed=seed)
    return Generated(MDSInstance(name, size, canonical_edges(np.array(graph.edges(), dtype=np.int64))))


def mds_sparse(name: str, seed: int, n: Annotated[int, Range(1, 10**8)], degree: Annotated[float, Range(0.0, 10_000.0)]) -> Generated:
    rng = np.random.default_rng(seed)
    edges = rng.integers(0, n, size=(round(n * degree / 2), 2), dtype=np.int64)
    edges = edges[edges[:, 0] != edges[:, 1]]
    return Generated(MDSInstance(name, n, canonical_edges(edges)))
