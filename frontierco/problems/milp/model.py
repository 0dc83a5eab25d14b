"""Building MILPs, for the forms other problems are written in and for the generated MILP families: a binary model
from named row blocks, and a greedy clique partition of a graph's edges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from frontierco.problems.milp.milp import MILPInstance

if TYPE_CHECKING:
    import networkx as nx


def greedy_clique_partition(graph: nx.Graph) -> list[list[int]]:
    """Cliques covering every edge: take the vertex of highest remaining degree (lowest index on ties),
    grow a clique from it over its remaining neighbours in order of decreasing degree (then index),
    remove the clique's edges, repeat until no edge is left."""
    import heapq

    neighbours = {v: set(graph.neighbors(v)) for v in graph.nodes}
    heap = [(-len(ns), v) for v, ns in neighbours.items() if ns]
    heapq.heapify(heap)
    cliques: list[list[int]] = []
    while heap:
        degree, start = heapq.heappop(heap)
        if -degree != len(neighbours[start]) or not neighbours[start]:
            if neighbours[start]:
                heapq.heappush(heap, (-len(neighbours[start]), start))
            continue
        clique = [start]
        for v in sorted(neighbours[start], key=lambda v: (-len(neighbours[v]), v)):
            if all(w in neighbours[v] for w in clique):
                clique.append(v)
        for k, a in enumerate(clique):
            for b in clique[k + 1 :]:
                neighbours[a].discard(b)
                neighbours[b].discard(a)
        for v in clique:
            if neighbours[v]:
                heapq.heappush(heap, (-len(neighbours[v]), v))
        cliques.append(sorted(clique))
    return cliques


def binary_model(
    name: str, objective: np.ndarray, integer: np.ndarray, rows: list[tuple[Any, float, float, str]], names: list[str]
) -> MILPInstance:
    """min objective . x over 0 <= x <= 1 (``integer`` marks the binaries) subject to the row blocks ``(matrix, lower,
    upper, name)``, each block's rows named name0, name1, ..."""
    import scipy.sparse as sp

    matrix = sp.vstack([block for block, _, _, _ in rows]).tocsr()
    sizes = [block.shape[0] for block, _, _, _ in rows]
    return MILPInstance(
        name=name,
        sense="min",
        objective=objective,
        matrix=matrix,
        row_lower=np.concatenate([np.full(k, lower) for k, (_, lower, _, _) in zip(sizes, rows, strict=True)]),
        row_upper=np.concatenate([np.full(k, upper) for k, (_, _, upper, _) in zip(sizes, rows, strict=True)]),
        col_lower=np.zeros(len(objective)),
        col_upper=np.ones(len(objective)),
        integrality=integer,
        col_names=tuple(names),
        row_names=tuple(f"{label}{k}" for size, (_, _, _, label) in zip(sizes, rows, strict=True) for k in range(size)),
    )
