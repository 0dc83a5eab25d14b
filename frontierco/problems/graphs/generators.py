"""Seeded generators of MIS graphs.

- ``mis-er``: Erdos-Renyi G(n, p) (the ER-[700-800], p = 0.15 family of DIMES/DIFUSCO uses n = 700).
- ``mis-er-sparse``: G(n, m) with m = n * degree / 2 uniform random edges, for graphs of millions of vertices.
- ``mis-ba``: Barabasi-Albert preferential attachment with ``m`` edges per new vertex (networkx).
- ``mis-rb``: the RB model of Xu and Li (2000) with a forced (planted) solution, as used for BHOSLIB:
  ``cliques`` groups of ``clique_size`` vertices, each group a clique; then r * n * ln(n) constraints,
  each between two random groups, add round(p * k^2) edges between their vertices, never between the
  two planted vertices. With alpha = ln(k) / ln(n) and r = 0.8 / alpha, p is the model's critical value
  1 - exp(-alpha / r). The groups partition the vertices, so the planted set of one vertex per group is a
  maximum independent set: the optimum is exactly ``cliques``. ``cliques`` and ``clique_size`` may be
  given as [low, high] ranges, drawn from the seed.
- ``mis-rb-frontierco``: the RB recipe of FrontierCO's MIS training and validation graphs (``RB_800_1200``, from
  DIFUSCO's and DiffUCO's generators): ``cliques`` and ``clique_size`` drawn from ranges, p uniform in
  [0.3, 1), alpha = ln(k) / ln(n), r = -alpha / ln(1 - p), r * n * ln(n) - 1 constraints, each adding
  int(p * k^2) new edges between two random groups (fewer when the pair has fewer left); draws are repeated
  until the vertex count lies in ``vertices``. One change: as in the forced RB model, no edge ever joins two
  planted vertices, so the planted set is a maximum independent set and the optimum is ``cliques`` (FrontierCO's
  graphs are not forced and have no known optimum).
"""

from __future__ import annotations

import math
from typing import Annotated

import numpy as np

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.graphs.mis import MISInstance, MISSolution, canonical_edges


def mis_er(name: str, seed: int, n: Annotated[int, Range(1, 20_000)], p: Annotated[float, Range(0.0, 1.0)]) -> Generated:
    rng = np.random.default_rng(seed)
    u, v = np.triu_indices(n, 1)
    keep = rng.random(u.size) < p
    return Generated(MISInstance(name, n, canonical_edges(np.stack([u[keep], v[keep]], axis=1))))


def mis_er_sparse(name: str, seed: int, n: Annotated[int, Range(1, 10**8)], degree: Annotated[float, Range(0.0, 10_000.0)]) -> Generated:
    """A sparse random graph for the frontier's sizes: about n * degree / 2 edges, each between two distinct
    vertices drawn uniformly (repeats merged), so G(n, m) rather than G(n, p); memory linear in the edges,
    never n^2 (1M vertices and 10M edges in a few seconds)."""
    rng = np.random.default_rng(seed)
    m = round(n * degree / 2)
    edges = rng.integers(0, n, size=(m, 2), dtype=np.int64)
    edges = edges[edges[:, 0] != edges[:, 1]]
    return Generated(MISInstance(name, n, canonical_edges(edges)))


def mis_ba(name: str, seed: int, n: Annotated[int, Range(2, 10**7)], m: Annotated[int, Range(1, 10_000)]) -> Generated:
    import networkx as nx

    if m >= n:
        raise ValueError(f"m = {m} must be below n = {n} (edges per new vertex)")
    graph = nx.barabasi_albert_graph(n, m, seed=seed)
    return Generated(MISInstance(name, n, canonical_edges(np.array(graph.edges(), dtype=np.int64))))


def _draw(rng: np.random.Generator, value: int | tuple[int, int]) -> int:
    """``value`` itself, or a number drawn from the range [low, high] (a TOML array of two)."""
    if isinstance(value, int):
        return value
    low, high = value
    return int(rng.integers(low, high + 1))


def mis_rb(
    name: str,
    seed: int,
    cliques: Annotated[int | tuple[int, int], Range(2, 10**6)],
    clique_size: Annotated[int | tuple[int, int], Range(2, 10_000)],
) -> Generated:
    rng = np.random.default_rng(seed)
    n, k = _draw(rng, cliques), _draw(rng, clique_size)
    alpha = math.log(k) / math.log(n)
    r = 0.8 / alpha
    p = 1.0 - math.exp(-alpha / r)
    planted = rng.integers(0, k, size=n)
    edges = [np.stack(np.triu_indices(k, 1), axis=1) + g * k for g in range(n)]
    pairs_per_constraint = int(round(p * k * k))
    for _ in range(int(round(r * n * math.log(n)))):
        a, b = rng.choice(n, size=2, replace=False)
        forbidden = planted[a] * k + planted[b]
        chosen = rng.choice(k * k - 1, size=min(pairs_per_constraint, k * k - 1), replace=False)
        chosen = np.where(chosen >= forbidden, chosen + 1, chosen)
        edges.append(np.stack([a * k + chosen // k, b * k + chosen % k], axis=1))
    graph = MISInstance(name, n * k, canonical_edges(np.concatenate(edges)))
    return Generated(graph, known_optimum=float(n), certificate=MISSolution(np.arange(n) * k + planted))


def mis_rb_frontierco(
    name: str,
    seed: int,
    cliques: Annotated[tuple[int, int], Range(2, 10**6)] = (40, 54),
    clique_size: Annotated[tuple[int, int], Range(2, 10_000)] = (20, 24),
    vertices: Annotated[tuple[int, int], Range(4, 10**8)] = (800, 1200),
) -> Generated:
    if not any(
        max(clique_size[0], -(-vertices[0] // n)) <= min(clique_size[1], vertices[1] // n) for n in range(cliques[0], cliques[1] + 1)
    ):
        raise ValueError(f"no cliques x clique_size ({cliques} x {clique_size}) gives vertices in {vertices}")  # drawn forever
    rng = np.random.default_rng(seed)
    while True:
        n, k = _draw(rng, cliques), _draw(rng, clique_size)
        p = float(rng.uniform(0.3, 1.0))
        if vertices[0] <= n * k <= vertices[1]:
            break
    alpha = math.log(k) / math.log(n)
    r = -alpha / math.log(1.0 - p)
    per_constraint = int(p * k * k)
    planted = rng.integers(0, k, size=n)
    used: dict[tuple[int, int], np.ndarray] = {}  # per pair of groups, which of the k^2 vertex pairs are edges
    edges = [np.stack(np.triu_indices(k, 1), axis=1) + g * k for g in range(n)]
    for _ in range(int(r * n * math.log(n) - 1)):
        a, b = (int(x) for x in rng.choice(n, size=2, replace=False))
        taken = used.setdefault((a, b), np.zeros(k * k, dtype=bool))
        taken[planted[a] * k + planted[b]] = True  # the planted pair stays non-adjacent
        free = np.flatnonzero(~taken)
        chosen = rng.choice(free, size=min(per_constraint, free.size), replace=False)
        taken[chosen] = True
        edges.append(np.stack([a * k + chosen // k, b * k + chosen % k], axis=1))
    graph = MISInstance(name, n * k, canonical_edges(np.concatenate(edges)))
    return Generated(graph, known_optimum=float(n), certificate=MISSolution(np.arange(n) * k + planted))
