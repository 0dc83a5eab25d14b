"""Independent set and dominating set written as MILPs (for the solvers that take a MILP): MIS as its clique
cover, MDS as its set cover; each with the map from column values back to a solution."""

from __future__ import annotations

import numpy as np

from frontierco.problems.graphs.mds import MDSInstance, MDSSolution
from frontierco.problems.graphs.mis import MISInstance, MISSolution
from frontierco.problems.milp.milp import MILPInstance
from frontierco.problems.milp.model import greedy_clique_partition


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


def mis_solution(instance: MISInstance, x: np.ndarray) -> MISSolution:
    """The vertices whose column is above 0.5."""
    return MISSolution(np.flatnonzero(x > 0.5))


def mds_to_milp(instance: MDSInstance) -> MILPInstance:
    """The set-cover model of dominating set: min sum x_v over binary x with sum_{u in N[v]} x_u >= 1 for
    each vertex v (its closed neighbourhood). Column v and row v are vertex v."""
    import scipy.sparse as sp

    adjacency = instance.adjacency
    loops = sp.identity(instance.n, format="csr")
    matrix = sp.csr_matrix((np.ones(adjacency.indices.size), adjacency.indices, adjacency.indptr), shape=(instance.n, instance.n))
    return MILPInstance(
        name=instance.name,
        sense="min",
        objective=np.ones(instance.n),
        matrix=(matrix + loops).tocsr(),
        row_lower=np.ones(instance.n),
        row_upper=np.full(instance.n, np.inf),
        col_lower=np.zeros(instance.n),
        col_upper=np.ones(instance.n),
        integrality=np.ones(instance.n, dtype=bool),
        col_names=tuple(f"x{v}" for v in range(instance.n)),
        row_names=tuple(f"dominate{v}" for v in range(instance.n)),
    )


def mds_solution(instance: MDSInstance, x: np.ndarray) -> MDSSolution:
    """The vertices whose column is above 0.5."""
    return MDSSolution(np.flatnonzero(x > 0.5))
