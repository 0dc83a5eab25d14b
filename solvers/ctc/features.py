"""The instance modality: a MILP as a variable-constraint bipartite graph with the objective as an extra
constraint node, static features normalised per instance, and the LP relaxation's solution (HiGHS).

Variable features: objective coefficient (minimisation form, divided by the largest |c|), binary, integer,
continuous, LP value, LP value fractional, degree / largest degree.
Constraint features (rows in ``a.x <= b`` form): b / |a|, equality, cosine of a with the objective, degree /
largest degree, tight in the LP, gain / (1 + gain), one-hot type (17 MIPLIB types), objective flag.
Edges: a_ij / |a_i| (the objective node's: c_j / |c|).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np
import scipy.sparse as sp
import torch

from frontierco.problems import MILPInstance

from .constraints import TYPES, Rows, analyse

VARIABLE_FEATURES = 7
CONSTRAINT_FEATURES = 6 + len(TYPES) + 1
OBJECTIVE_TYPE = len(TYPES)  # the objective node's constraint type index
LP_TIME = 20.0


@dataclass(frozen=True)
class Graph:
    variables: torch.Tensor  # (n, VARIABLE_FEATURES)
    constraints: torch.Tensor  # (m + 1, CONSTRAINT_FEATURES); row m is the objective
    edges: torch.Tensor  # (2, E) long: variable index, constraint index
    weights: torch.Tensor  # (E,)
    variable_type: torch.Tensor  # (n,) 0 binary, 1 integer, 2 continuous
    constraint_type: torch.Tensor  # (m + 1,) index into TYPES, OBJECTIVE_TYPE for the objective
    inequality: torch.Tensor  # (m + 1,) bool: rows a CTC can be
    binary: torch.Tensor  # (n,) bool

    def to(self, device: str | torch.device) -> Graph:
        """The same graph with every tensor on ``device``."""
        return Graph(*(getattr(self, f.name).to(device) for f in fields(self)))


def lp_relaxation(instance: MILPInstance, time_limit: float = LP_TIME) -> np.ndarray:
    """The LP optimum's column values (zeros when HiGHS does not reach one in time)."""
    from frontierco.problems.milp.mps import to_highs

    relaxed = replace(instance, integrality=np.zeros(instance.num_cols, dtype=bool))
    highs = to_highs(relaxed)
    highs.setOptionValue("time_limit", time_limit)
    highs.setOptionValue("threads", 1)
    highs.run()
    values = np.asarray(highs.getSolution().col_value, dtype=np.float64)
    return values if values.shape == (instance.num_cols,) else np.zeros(instance.num_cols)


def analyse_instance(instance: MILPInstance) -> Rows:
    return analyse(instance.matrix, instance.row_lower, instance.row_upper, instance.col_lower, instance.col_upper, instance.integrality)


def build_graph(instance: MILPInstance, rows: Rows, lp: np.ndarray) -> Graph:
    n, m = instance.num_cols, instance.num_rows
    c = instance.objective if instance.sense == "min" else -instance.objective
    c_scale = max(float(np.abs(c).max()), 1e-12)
    matrix = sp.csr_matrix(rows.matrix)
    row_norm = np.sqrt(np.asarray(matrix.multiply(matrix).sum(1)).ravel())
    safe_norm = np.where(row_norm > 0, row_norm, 1.0)
    var_degree = np.bincount(matrix.indices, minlength=n).astype(np.float64)
    con_degree = np.diff(matrix.indptr).astype(np.float64)
    kinds = rows.variable_types
    fractional = np.abs(lp - np.round(lp)) > 1e-6
    variables = np.stack(
        [
            c / c_scale,
            kinds == 0,
            kinds == 1,
            kinds == 2,
            np.clip(lp, -10, 10),
            fractional & (kinds < 2),
            var_degree / max(var_degree.max(), 1.0),
        ],
        axis=1,
    ).astype(np.float32)
    activity = matrix @ lp
    rhs = np.where(np.isfinite(rows.rhs), rows.rhs, 0.0)
    lp_tight = np.abs(rhs - activity) <= 1e-6 * np.maximum(1.0, np.abs(rhs))
    c_norm = max(float(np.linalg.norm(c)), 1e-12)
    cosine = (matrix @ c) / (safe_norm * c_norm)
    one_hot = np.eye(len(TYPES), dtype=np.float32)[rows.types]
    base = np.stack(
        [
            np.clip(rhs / safe_norm, -10, 10),
            rows.equality,
            cosine,
            con_degree / max(con_degree.max(), 1.0),
            lp_tight,
            rows.gain / (1.0 + rows.gain),
        ],
        axis=1,
    )
    constraints = np.concatenate([base, one_hot, np.zeros((m, 1))], axis=1).astype(np.float32)
    objective_row = np.zeros((1, CONSTRAINT_FEATURES), dtype=np.float32)
    objective_row[0, 2], objective_row[0, 3], objective_row[0, -1] = 1.0, 1.0, 1.0
    coo = matrix.tocoo()
    nonzero = np.flatnonzero(c)
    edge_var = np.concatenate([coo.col, nonzero])
    edge_con = np.concatenate([coo.row, np.full(len(nonzero), m)])
    weights = np.concatenate([coo.data / safe_norm[coo.row], c[nonzero] / c_norm]).astype(np.float32)
    return Graph(
        torch.from_numpy(variables),
        torch.from_numpy(np.concatenate([constraints, objective_row])),
        torch.from_numpy(np.stack([edge_var, edge_con]).astype(np.int64)),
        torch.from_numpy(weights),
        torch.from_numpy(kinds.astype(np.int64)),
        torch.from_numpy(np.concatenate([rows.types, [OBJECTIVE_TYPE]]).astype(np.int64)),
        torch.from_numpy(np.concatenate([rows.inequality, [False]])),
        torch.from_numpy(kinds == 0),
    )


def signature(rows: Rows) -> np.ndarray:
    """Share of rows per type followed by share of columns per variable type: what a formulation is made of."""
    rows_share = np.bincount(rows.types, minlength=len(TYPES)) / max(len(rows.types), 1)
    cols_share = np.bincount(rows.variable_types, minlength=3) / max(len(rows.variable_types), 1)
    return np.concatenate([rows_share, cols_share])
