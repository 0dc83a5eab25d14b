"""Facility location and p-median written as MILPs (for the solvers that take a MILP): their assignment models, each
with the map from column values back to a solution."""

from __future__ import annotations

from typing import Any

import numpy as np

from frontierco.problems.facility.cflp import CFLPInstance, CFLPSolution
from frontierco.problems.facility.cpmp import CPMPInstance, CPMPSolution
from frontierco.problems.milp.milp import MILPInstance
from frontierco.problems.milp.model import binary_model


def assignment_rows(n: int, m: int, demand: np.ndarray, capacity: np.ndarray) -> list[tuple[Any, float, float, str]]:
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
    return binary_model(instance.name, objective, integer, assignment_rows(n, m, instance.demand, instance.capacity), names)


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
    rows = assignment_rows(n, n, instance.demand, instance.capacity)
    count = sp.csr_matrix((np.ones(n), (np.zeros(n, dtype=np.int64), np.arange(n))), shape=(1, n + n * n))
    rows.append((count, float(instance.p), float(instance.p), "medians"))
    cost = np.concatenate([instance.distances_to(np.arange(n))[:, j] for j in range(n)])  # column j*n + i: d(i, j)
    names = [f"y{j}" for j in range(n)] + [f"x{i}_{j}" for j in range(n) for i in range(n)]
    return binary_model(instance.name, np.concatenate([np.zeros(n), cost]), np.ones(n + n * n, dtype=bool), rows, names)


def cpmp_solution(instance: CPMPInstance, x: np.ndarray) -> CPMPSolution:
    """Medians where y_j > 0.5; each point goes to the median of its largest x."""
    n = instance.n
    assign = x[n:].reshape(n, n)  # [median, point]
    return CPMPSolution(np.flatnonzero(x[:n] > 0.5), np.argmax(assign, axis=0))
