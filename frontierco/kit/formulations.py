"""Problems written as MILPs, for the solvers that take a MILP (and for the generated MILP families): MIS as its
clique cover, CFLP and CPMP as their assignment models, each registered once in ``FORMS``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from frontierco.problems.cflp import CFLPInstance, CFLPSolution
from frontierco.problems.cpmp import CPMPInstance, CPMPSolution
from frontierco.problems.mds import MDSInstance, MDSSolution
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


def _binary_model(
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


def _assignment_rows(n: int, m: int, demand: np.ndarray, capacity: np.ndarray) -> list[tuple[Any, float, float, str]]:
    """Columns y_0..y_{n-1}, then x_ij at n + i*m + j: each j's x sum to 1, x_ij <= y_i, sum_j d_j x_ij <= b_i y_i."""
    import scipy.sparse as sp

    x = n + np.arange(n * m).reshape(n, m)
    width = n + n * m
    served = sp.csr_matrix((np.ones(n * m), (np.tile(np.arange(m), n), x.ravel())), shape=(m, width))
    link_rows = np.repeat(np.arange(n * m), 2)
    link_cols = np.stack([x.ravel(), np.repeat(np.arange(n), m)], axis=1).ravel()
    link = sp.csr_matrix((np.tile([1.0, -1.0], n * m), (link_rows, link_cols)), shape=(n * m, width))
    cap_rows = np.concatenate([np.repeat(np.arange(n), m), np.arange(n)])
    cap_cols = np.concatenate([x.ravel(), np.arange(n)])
    cap = sp.csr_matrix((np.concatenate([np.tile(demand, n), -capacity]), (cap_rows, cap_cols)), shape=(n, width))
    return [(served, 1.0, 1.0, "serve"), (link, -np.inf, 0.0, "link"), (cap, -np.inf, 0.0, "capacity")]


def cflp_to_milp(instance: CFLPInstance) -> MILPInstance:
    """FrontierCO's model (``data/CFLP/solve.py``): binary y_i opens facility i, continuous x_ij in [0, 1] is the
    fraction of customer j served by i; min sum f_i y_i + sum c_ij x_ij s.t. sum_i x_ij = 1, x_ij <= y_i,
    sum_j d_j x_ij <= b_i y_i. Column i is y_i, column n + i*m + j is x_ij."""
    n, m = instance.n, instance.m
    integer = np.concatenate([np.ones(n, dtype=bool), np.zeros(n * m, dtype=bool)])
    names = [f"y{i}" for i in range(n)] + [f"x{i}_{j}" for i in range(n) for j in range(m)]
    objective = np.concatenate([instance.fixed_cost, instance.cost.ravel()])
    return _binary_model(instance.name, objective, integer, _assignment_rows(n, m, instance.demand, instance.capacity), names)


def cflp_solution(instance: CFLPInstance, x: np.ndarray) -> CFLPSolution:
    """Open where y_i > 0.5; every x_ij above 1e-9 of an open facility is a served fraction (values a solver's
    tolerance put on closed facilities are dropped)."""
    n, m = instance.n, instance.m
    opened = np.flatnonzero(x[:n] > 0.5)
    fractions = np.clip(x[n:].reshape(n, m), 0.0, 1.0)
    keep = np.zeros(n, dtype=bool)
    keep[opened] = True
    facility, customer = np.nonzero((fractions > 1e-9) & keep[:, None])
    return CFLPSolution(opened, customer, facility, fractions[facility, customer])


def cpmp_to_milp(instance: CPMPInstance) -> MILPInstance:
    """Binary y_j (point j is a median) and x_ij (point i assigned to median j): min sum floor(d_ij) x_ij s.t.
    sum_j x_ij = 1, x_ij <= y_j, sum_i q_i x_ij <= Q_j y_j, sum_j y_j = p. Column j is y_j, column n + j*n + i
    is x_ij (the facility-location layout with medians as facilities and points as customers)."""
    import scipy.sparse as sp

    n = instance.n
    rows = _assignment_rows(n, n, instance.demand, instance.capacity)
    count = sp.csr_matrix((np.ones(n), (np.zeros(n, dtype=np.int64), np.arange(n))), shape=(1, n + n * n))
    rows.append((count, float(instance.p), float(instance.p), "medians"))
    cost = np.concatenate([instance.distances_to(np.arange(n))[:, j] for j in range(n)])  # column j*n + i: d(i, j)
    names = [f"y{j}" for j in range(n)] + [f"x{i}_{j}" for j in range(n) for i in range(n)]
    return _binary_model(instance.name, np.concatenate([np.zeros(n), cost]), np.ones(n + n * n, dtype=bool), rows, names)


def cpmp_solution(instance: CPMPInstance, x: np.ndarray) -> CPMPSolution:
    """Medians where y_j > 0.5; each point goes to the median of its largest x."""
    n = instance.n
    assign = x[n:].reshape(n, n)  # [median, point]
    return CPMPSolution(np.flatnonzero(x[:n] > 0.5), np.argmax(assign, axis=0))


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


@dataclass(frozen=True)
class Form:
    """A problem written as a MILP: ``model(instance)``, and ``solution(instance, column values)`` back."""

    model: Callable[[Any], MILPInstance]
    solution: Callable[[Any, np.ndarray], Any]


# A problem that has a MILP form registers it here (and lists its name in the `problems` of the MILP solvers).
FORMS: dict[type, Form] = {
    MISInstance: Form(mis_to_milp, lambda instance, x: MISSolution(np.flatnonzero(x > 0.5))),
    CFLPInstance: Form(cflp_to_milp, cflp_solution),
    CPMPInstance: Form(cpmp_to_milp, cpmp_solution),
    MDSInstance: Form(mds_to_milp, lambda instance, x: MDSSolution(np.flatnonzero(x > 0.5))),
}


def as_milp(instance: Any) -> tuple[MILPInstance, Callable[[np.ndarray], Any]]:
    """The MILP a MILP solver works on, and how its column values become a solution of the instance: a MILP as
    it is, any other problem through its registered form (``FORMS``)."""
    form = FORMS.get(type(instance))
    if form is None:
        return instance, MILPSolution
    return form.model(instance), lambda x: form.solution(instance, x)
