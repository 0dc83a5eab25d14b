"""From predictions to reduced models: a ladder of neighbourhoods around the prediction, in two forms (SCIP
indicator constraints, or a plain MILP with big-M rows for any backend).

- Variables (after the trust region of Han et al., "A GNN-Guided Predict-and-Search Framework for MILP",
  ICLR 2023, with its flip budget at 0 and widened step by step instead): the first rung fixes the
  ``Trust.zeros`` share of the binaries with the lowest predicted marginals (only those below 0.5) to 0 and the
  ``Trust.ones`` share with the highest (only those above 0.5) to 1, as column bounds, so that presolve removes
  them; each next rung fixes the next smaller share of ``RUNGS`` (ones in proportion). The shares come from
  the family's dev calibration (``calibrate.py``, then ``tune.py``; stored in the checkpoint card) or else
  ``DEFAULT``.
  Measured on an independent set BA(1500, 4) dev instance: 600 columns in the soft trust region (10% may
  flip) gave SCIP a model it improved after 9.5 s; the same columns fixed, a model solved to optimality in
  0.03 s.
- Constraints ("Constraint Matters", ICLR 2026): the inequality rows with predicted CTC probability at
  least 0.5, at most the ``Trust.rows`` share of the inequality rows (most probable first), must hold with
  equality (a.x >= b in their ``a.x <= b`` form) unless a binary release indicator z_i is 1; at most the
  ``Trust.releases`` share of them may be released: sum z <= Gamma. SCIP may get indicator constraints (z_i = 0 -> a.x >= b); the big-M
  form is the row a.x + M_i z_i >= b with M_i = b - (least possible a.x over the bounds); rows with an
  unbounded M are left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from frontierco.problems import MILPInstance

from .constraints import Rows

RUNGS = (0.8, 0.6, 0.4, 0.2, 0.1, 0.05)  # shares of the binaries fixed to 0 on the rungs after the first


@dataclass(frozen=True)
class Trust:
    """How far a family's predictions are trusted: shares of the binaries fixed to 0 and to 1 on the first
    rung, share of the inequality rows forced tight and share of those that may be released."""

    zeros: float
    ones: float
    rows: float
    releases: float

    @classmethod
    def from_card(cls, card: dict[str, Any]) -> Trust:
        """The card's calibrated trust, or ``DEFAULT`` for a checkpoint that was never calibrated."""
        calibration = card.get("calibration")
        return cls(**calibration["trust"]) if calibration else DEFAULT


DEFAULT = Trust(zeros=0.8, ones=0.1, rows=0.05, releases=0.2)  # uncalibrated: version 2's fixed ladder


@dataclass(frozen=True)
class Reduction:
    zeros: np.ndarray  # columns fixed to 0
    ones: np.ndarray  # columns fixed to 1
    rows: np.ndarray  # rows (<= form) that must be tight
    releases: int  # at most this many of them may be released

    @property
    def empty(self) -> bool:
        return not (len(self.zeros) or len(self.ones) or len(self.rows))

    def without_rows(self) -> Reduction:
        return replace(self, rows=np.zeros(0, dtype=np.int64), releases=0)

    def without_fixings(self) -> Reduction:
        return replace(self, zeros=np.zeros(0, dtype=np.int64), ones=np.zeros(0, dtype=np.int64))


def ranked_columns(marginals: np.ndarray, rows: Rows) -> tuple[np.ndarray, np.ndarray, int]:
    """Binaries below 0.5 from the lowest marginal up, those above 0.5 from the highest down, and the number
    of binaries (the shares' base)."""
    binary = np.flatnonzero(rows.variable_types == 0)
    low = binary[np.argsort(marginals[binary], kind="stable")]
    high = binary[np.argsort(-marginals[binary], kind="stable")]
    return low[marginals[low] < 0.5], high[marginals[high] > 0.5], len(binary)


def forced_rows(ctc: np.ndarray, rows: Rows, share: float) -> np.ndarray:
    """The inequality rows with CTC probability at least 0.5, most probable first, at most ``share`` of them."""
    candidates = np.flatnonzero(rows.inequality & (ctc >= 0.5))
    return candidates[np.argsort(-ctc[candidates], kind="stable")][: int(share * int(rows.inequality.sum()))]


def ladder(marginals: np.ndarray, ctc: np.ndarray | None, rows: Rows, trust: Trust = DEFAULT) -> list[Reduction]:
    """The rungs, narrowest first (a rung equal to the one before is left out); ``marginals`` per column,
    ``ctc`` per row (None: no constraint part, the predict-and-search ablation)."""
    low, high, binaries = ranked_columns(marginals, rows)
    forced = np.zeros(0, dtype=np.int64) if ctc is None else forced_rows(ctc, rows, trust.rows)
    rungs: list[Reduction] = []
    for share in (trust.zeros, *(s for s in RUNGS if s < trust.zeros)):
        scale = share / trust.zeros if trust.zeros > 0 else 1.0
        zeros, ones = low[: int(share * binaries)], high[: int(scale * trust.ones * binaries)]
        rung = Reduction(zeros, ones, forced, math.ceil(trust.releases * len(forced)))
        if not rung.empty and not (rungs and len(rungs[-1].zeros) == len(zeros) and len(rungs[-1].ones) == len(ones)):
            rungs.append(rung)
    return rungs


def add_to_scip(model: Any, variables: list[Any], reduction: Reduction, rows: Rows) -> None:
    """Fix the rung's columns and add the indicator-guarded tight rows to a PySCIPOpt model of the instance."""
    from pyscipopt import quicksum

    for j in reduction.zeros:
        model.chgVarUb(variables[j], 0.0)
    for j in reduction.ones:
        model.chgVarLb(variables[j], 1.0)
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


def _guarded_rows(instance: MILPInstance, reduction: Reduction, rows: Rows) -> tuple[list[int], list[float]]:
    """The forced rows that get a big-M release column (those with a finite M), and their M."""
    keep, big_m = [], []
    for i in reduction.rows:
        start, end = rows.matrix.indptr[i], rows.matrix.indptr[i + 1]
        coefs, cols = rows.matrix.data[start:end], rows.matrix.indices[start:end]
        least = float(np.sum(np.minimum(coefs * instance.col_lower[cols], coefs * instance.col_upper[cols])))
        if np.isfinite(least):
            keep.append(int(i))
            big_m.append(float(rows.rhs[i]) - least)
    return keep, big_m


def big_m_start(instance: MILPInstance, reduction: Reduction, rows: Rows, values: np.ndarray) -> np.ndarray:
    """A solution of the instance as a start for the big-M model: its release columns are 1 exactly where
    the forced row is not tight (a feasible start when it also respects the fixings and the budget)."""
    keep, _ = _guarded_rows(instance, reduction, rows)
    activity = rows.matrix[keep] @ values if keep else np.zeros(0)
    tight = activity >= rows.rhs[keep] - 1e-6 * np.maximum(1.0, np.abs(rows.rhs[keep]))
    return np.concatenate([values, (~tight).astype(np.float64)])


def big_m_model(instance: MILPInstance, reduction: Reduction, rows: Rows) -> MILPInstance:
    """The instance with the rung's columns fixed, plus big-M tight rows and their release columns (appended
    last) and the release budget row."""
    low, high = instance.col_lower.copy(), instance.col_upper.copy()
    high[reduction.zeros] = 0.0
    low[reduction.ones] = 1.0
    fixed = replace(instance, col_lower=low, col_upper=high)
    keep, big_m = _guarded_rows(instance, reduction, rows)
    if not keep:
        return fixed
    n, k = instance.num_cols, len(keep)
    tight = sp.hstack([rows.matrix[keep], sp.diags(big_m)]).tocsr()
    budget = sp.csr_matrix(np.concatenate([np.zeros(n), np.ones(k)]))
    matrix = sp.vstack([sp.hstack([instance.matrix, sp.csr_matrix((instance.num_rows, k))]), tight, budget]).tocsr()
    return replace(
        fixed,
        objective=np.concatenate([instance.objective, np.zeros(k)]),
        matrix=matrix,
        row_lower=np.concatenate([instance.row_lower, [float(rows.rhs[i]) for i in keep], [-np.inf]]),
        row_upper=np.concatenate([instance.row_upper, np.full(k, np.inf), [min(reduction.releases, k)]]),
        col_lower=np.concatenate([low, np.zeros(k)]),
        col_upper=np.concatenate([high, np.ones(k)]),
        integrality=np.concatenate([instance.integrality, np.ones(k, dtype=bool)]),
        col_names=instance.col_names + tuple(f"release_{i}" for i in keep),
        row_names=instance.row_names + tuple(f"tight_{i}" for i in keep) + ("release_budget",),
    )
