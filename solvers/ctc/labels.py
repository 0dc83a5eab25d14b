"""Training labels: SCIP solves an instance under a time limit and keeps its best solutions; from them come
variable marginals and critical tight constraints (CTC).

- Tight: an inequality row (``a.x <= b`` form) whose slack ``b - a.x`` is at most 1e-6 max(1, |b|).
- Kept solutions: SCIP's best ``KEEP`` whose objective is within ``QUALITY`` (relative) of the best one,
  pooled over one solve per seed (``seeds``; duplicates counted once): one 30 s solve of independent set
  1500 kept only 2-4.
- Candidates: rows tight in at least ``TIGHT_SHARE`` of the kept solutions.
- CTC: at most ``BUDGET`` x (number of inequality rows) candidates, the budget split across constraint types
  in proportion to each type's candidates (at least one per type that has any), the highest information gain
  first within a type, then the row tight in more solutions; rows tied with the last one chosen on both are
  all kept (a budget that splits a tie would pick by row index, which the network cannot see: on independent
  set, index order alone reproduced the old labels with recall 0.77).
- Marginals: the kept solutions' values, weighted 1/(rank+1) (best first).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from frontierco.problems import MILPInstance

from .constraints import Rows

KEEP = 10
TIGHT_TOLERANCE = 1e-6
TIGHT_SHARE = 0.9
BUDGET = 0.3
QUALITY = 0.05


@dataclass(frozen=True)
class Labels:
    marginals: np.ndarray  # (columns,) in [0, 1] for binaries (other columns: their value share, unused)
    ctc: np.ndarray  # (rows,) bool, only ever true on inequality rows
    objectives: np.ndarray  # of the kept solutions, best first


def solve_pool(instance: MILPInstance, time_limit: float, seeds: int = 1, keep: int = KEEP) -> tuple[np.ndarray, np.ndarray]:
    """SCIP's best ``keep`` distinct solutions within ``QUALITY`` of the best, pooled over solves with random
    seed shifts 0 .. ``seeds`` - 1 of ``time_limit`` seconds each (values per column, objectives), best first."""
    found = np.concatenate([_scip_solutions(instance, time_limit, seed) for seed in range(seeds)])
    _, first = np.unique(np.round(found, 6), axis=0, return_index=True)
    values = found[np.sort(first)]  # distinct solutions
    objectives = values @ instance.objective + instance.offset
    order_best = np.argsort(objectives if instance.sense == "min" else -objectives, kind="stable")[:keep]
    values, objectives = values[order_best], objectives[order_best]
    good = np.abs(objectives - objectives[:1]) <= QUALITY * np.maximum(1.0, np.abs(objectives[:1]))
    return values[good], objectives[good]


def _scip_solutions(instance: MILPInstance, time_limit: float, seed: int) -> np.ndarray:
    """(solutions, columns): every solution SCIP stored in one solve."""
    from frontierco.problems.milp.mps import to_scip

    model, variables = to_scip(instance)
    model.setParam("limits/time", time_limit)
    model.setParam("randomization/randomseedshift", seed)
    model.setParam("parallel/maxnthreads", 1)
    model.optimize()
    solutions = model.getSols()
    values = [[model.getSolVal(s, v) for v in variables] for s in solutions]
    return np.array(values, dtype=np.float64).reshape(len(solutions), len(variables))


def tight_rows(rows: Rows, values: np.ndarray) -> np.ndarray:
    """(solutions, rows) bool: inequality rows with slack within tolerance."""
    activity = (rows.matrix @ values.T).T
    slack = rows.rhs[None, :] - activity
    return (np.abs(slack) <= TIGHT_TOLERANCE * np.maximum(1.0, np.abs(rows.rhs)))[:, :] & rows.inequality[None, :]


def select_ctc(rows: Rows, tight_share: np.ndarray, budget: float = BUDGET) -> np.ndarray:
    candidates = np.flatnonzero(rows.inequality & (tight_share >= TIGHT_SHARE))
    chosen = np.zeros(len(rows.rhs), dtype=bool)
    if candidates.size == 0:
        return chosen
    limit = min(candidates.size, max(1, math.ceil(budget * int(rows.inequality.sum()))))
    types = rows.types[candidates]
    for kind in np.unique(types):
        members = candidates[types == kind]
        quota = max(1, round(limit * members.size / candidates.size))
        ranked = sorted(members, key=lambda i: (-rows.gain[i], -tight_share[i]))
        last = ranked[quota - 1]
        tied = [i for i in ranked[quota:] if rows.gain[i] == rows.gain[last] and tight_share[i] == tight_share[last]]
        chosen[ranked[:quota] + tied] = True
    return chosen


def make_labels(instance: MILPInstance, rows: Rows, time_limit: float, seeds: int = 1) -> Labels | None:
    """Labels of one instance, or None when SCIP finds no solution in the time."""
    values, objectives = solve_pool(instance, time_limit, seeds)
    if len(values) == 0:
        return None
    weights = 1.0 / (np.arange(len(values)) + 1.0)
    marginals = (weights[:, None] * values).sum(0) / weights.sum()
    share = tight_rows(rows, values).mean(0)
    return Labels(np.clip(marginals, 0.0, 1.0), select_ctc(rows, share), objectives)
