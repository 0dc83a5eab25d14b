"""From predictions to a reduced model, in two forms: SCIP (indicator constraints) and a plain MILP (big-M,
for HiGHS).

- Variables (the trust region of Han et al., "A GNN-Guided Predict-and-Search Framework for MILP", ICLR
  2023): the ``ZERO_SHARE`` of binaries with the lowest predicted marginal (below 0.5) and the ``ONE_SHARE``
  with the highest (above 0.5) are pinned to 0 and 1, of which at most Delta = ``FLIP_SHARE`` x their number
  may flip: sum_{pinned 0} x + sum_{pinned 1} (1 - x) <= Delta.
- Constraints ("Constraint Matters"): the inequality rows with predicted CTC probability at least 0.5, at
  most ``ROW_SHARE`` of the inequality rows (most probable first), must hold with equality (a.x >= b in
  their ``a.x <= b`` form) unless a binary release indicator z_i is 1; at most ``RELEASE_SHARE`` of them may
  be released: sum z <= Gamma. SCIP gets indicator constraints (z_i = 0 -> a.x >= b); HiGHS the big-M row
  a.x + M_i z_i >= b with M_i = b - (least possible a.x over the bounds); rows with an unbounded M are left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from frontierco.problems import MILPInstance

from .constraints import Rows

ZERO_SHARE = 0.4
ONE_SHARE = 0.05
FLIP_SHARE = 0.1
ROW_SHARE = 0.05
RELEASE_SHARE = 0.2


@dataclass(frozen=True)
class Reduction:
    zeros: np.ndarray  # columns pinned to 0
    ones: np.ndarray  # columns pinned to 1
    flips: int  # at most this many pinned columns may differ
    rows: np.ndarray  # rows (<= form) that must be tight
    releases: int  # at most this many of them may be released

    @property
    def empty(self) -> bool:
        return not (len(self.zeros) or len(self.ones) or len(self.rows))


def plan(marginals: np.ndarray, ctc: np.ndarray | None, rows: Rows) -> Reduction:
    """``marginals`` per column, ``ctc`` per row (None: no constraint part, the PS ablation)."""
    binary = np.flatnonzero(rows.variable_types == 0)
    ranked = binary[np.argsort(marginals[binary], kind="stable")]
    zeros = ranked[: int(ZERO_SHARE * len(binary))]
    zeros = zeros[marginals[zeros] < 0.5]
    ones = ranked[::-1][: int(ONE_SHARE * len(binary))]
    ones = ones[marginals[ones] > 0.5]
    flips = math.ceil(FLIP_SHARE * (len(zeros) + len(ones)))
    chosen = np.zeros(0, dtype=np.int64)
    if ctc is not None:
        candidates = np.flatnonzero(rows.inequality & (ctc >= 0.5))
        limit = int(ROW_SHARE * int(rows.inequality.sum()))
        chosen = candidates[np.argsort(-ctc[candidates], kind="stable")][:limit]
    return Reduction(zeros, ones, flips, chosen, math.ceil(RELEASE_SHARE * len(chosen)))


def add_to_scip(model: Any, variables: list[Any], reduction: Reduction, rows: Rows) -> None:
    """Add the trust region and the indicator-guarded tight rows to a PySCIPOpt model of the instance."""
    from pyscipopt import quicksum

    if len(reduction.zeros) or len(reduction.ones):
        pinned = quicksum(variables[j] for j in reduction.zeros) + quicksum(1 - variables[j] for j in reduction.ones)
        model.addCons(pinned <= reduction.flips, name="trust_region")
    releases = []
    for i in reduction.rows:
        start, end = rows.matrix.indptr[i], rows.matrix.indptr[i + 1]
        activity = quicksum(
            float(a) * variables[j] for j, a in zip(rows.matrix.indices[start:end], rows.matrix.data[start:end], strict=True)
        )
        release = model.addVar(vtype="B", name=f"release_{i}")
        model.addConsIndicator(activity >= float(rows.rhs[i]), binvar=release, activeone=False, name=f"tight_{i}")
        releases.append(release)
    if releases:
        model.addCons(quicksum(releases) <= reduction.releases, name="release_budget")


def big_m_model(instance: MILPInstance, reduction: Reduction, rows: Rows) -> MILPInstance:
    """The instance plus the trust region row and big-M tight rows with their release columns (appended last)."""
    n = instance.num_cols
    low, high = instance.col_lower, instance.col_upper
    keep = []
    big_m = []
    for i in reduction.rows:
        start, end = rows.matrix.indptr[i], rows.matrix.indptr[i + 1]
        coefs, cols = rows.matrix.data[start:end], rows.matrix.indices[start:end]
        least = float(np.sum(np.minimum(coefs * low[cols], coefs * high[cols])))
        if np.isfinite(least):
            keep.append(i)
            big_m.append(float(rows.rhs[i]) - least)
    k = len(keep)
    new_rows = []
    lower, upper = [], []
    if len(reduction.zeros) or len(reduction.ones):
        trust = np.zeros(n + k)
        trust[reduction.zeros], trust[reduction.ones] = 1.0, -1.0
        new_rows.append(sp.csr_matrix(trust))
        lower.append(-np.inf)
        upper.append(reduction.flips - len(reduction.ones))
    if k:
        tight = sp.hstack([rows.matrix[keep], sp.diags(big_m)]).tocsr()
        new_rows.append(tight)
        lower += [float(rows.rhs[i]) for i in keep]
        upper += [np.inf] * k
        budget = np.concatenate([np.zeros(n), np.ones(k)])
        new_rows.append(sp.csr_matrix(budget))
        lower.append(-np.inf)
        upper.append(min(reduction.releases, k))
    if not new_rows:
        return instance
    matrix = sp.vstack([sp.hstack([instance.matrix, sp.csr_matrix((instance.num_rows, k))]), *new_rows]).tocsr()
    return replace(
        instance,
        objective=np.concatenate([instance.objective, np.zeros(k)]),
        matrix=matrix,
        row_lower=np.concatenate([instance.row_lower, lower]),
        row_upper=np.concatenate([instance.row_upper, upper]),
        col_lower=np.concatenate([low, np.zeros(k)]),
        col_upper=np.concatenate([high, np.ones(k)]),
        integrality=np.concatenate([instance.integrality, np.ones(k, dtype=bool)]),
        col_names=instance.col_names + tuple(f"release_{i}" for i in keep),
        row_names=instance.row_names + tuple(f"reduction_{r}" for r in range(matrix.shape[0] - instance.num_rows)),
    )
