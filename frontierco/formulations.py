"""Problems written as MILPs, for the solvers that take a MILP (and for the generated MILP families)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from frontierco.problems.milp import MILPInstance, MILPSolution
from frontierco.problems.mis import MISInstance, MISSolution

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


def mis_to_milp(instance: MISInstance, clique_cover: bool = True) -> MILPInstance:
    """max sum x_v over binary x with sum_{v in C} x_v <= 1 for each clique C of a greedy clique
    partition of the edges (``clique_cover``), or x_u + x_v <= 1 for each edge. Column v is vertex v."""
    import networkx as nx
    import scipy.sparse as sp

    if clique_cover and instance.m:
        graph = nx.Graph()
        graph.add_nodes_from(range(instance.n))
        graph.add_edges_from(instance.edges.tolist())
        groups = greedy_clique_partition(graph)
    else:
        groups = instance.edges.tolist()
    rows = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    cols = np.concatenate([np.asarray(g, dtype=np.int64) for g in groups]) if groups else np.zeros(0, dtype=np.int64)
    matrix = sp.csr_matrix((np.ones(cols.size), (rows, cols)), shape=(len(groups), instance.n))
    return MILPInstance(
        name=instance.name,
        sense="max",
        objective=np.ones(instance.n),
        matrix=matrix,
        row_lower=np.full(len(groups), -np.inf),
        row_upper=np.ones(len(groups)),
        col_lower=np.zeros(instance.n),
        col_upper=np.ones(instance.n),
        integrality=np.ones(instance.n, dtype=bool),
        col_names=tuple(f"x{v}" for v in range(instance.n)),
        row_names=tuple(f"clique{k}" for k in range(len(groups))),
    )


def as_milp(instance: MILPInstance | MISInstance) -> tuple[MILPInstance, Callable[[np.ndarray], MILPSolution | MISSolution]]:
    """The MILP a MILP solver works on, and how its column values become a solution of the instance:
    a MILP as it is, an MIS as its clique-cover model (vertices whose column is 1)."""
    if isinstance(instance, MISInstance):
        return mis_to_milp(instance), lambda x: MISSolution(np.flatnonzero(x > 0.5))
    return instance, MILPSolution
