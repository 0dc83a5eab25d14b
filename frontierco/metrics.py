"""Scores of runs: primal gap and score (FrontierCO), primal integral (Berthold), shifted geometric mean
of time, and Dolan-More performance profiles. Every aggregate says how many runs it covers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

FEASIBLE_STATUSES = ("optimal", "feasible")
# Two objective values are the same when they differ by at most this share of max(1, |reference|): MILP
# solutions are feasible within 1e-6 tolerances, so their objectives carry that much noise.
SAME_VALUE_TOLERANCE = 1e-6


def same_value_slack(reference: float) -> float:
    return SAME_VALUE_TOLERANCE * max(1.0, abs(reference))


TIME_SHIFT = {"tsp": 1.0, "cvrp": 1.0, "cvrptw": 1.0, "mis": 1.0, "milp": 10.0}


def primal_gap(objective: float | None, reference: float | None) -> float:
    """|f - f*| / max(|f|, |f*|); 0 when both are 0; 1 when there is no solution."""
    if objective is None:
        return 1.0
    if reference is None:
        raise ValueError("a primal gap needs a reference value")
    denominator = max(abs(objective), abs(reference))
    if denominator == 0:
        return 0.0
    return min(1.0, abs(objective - reference) / denominator)


def score(objective: float | None, reference: float | None) -> float:
    return 1.0 - primal_gap(objective, reference)


def primal_integral(trace: Sequence[tuple[float, float]], reference: float, time_limit: float) -> float:
    """Integral over [0, limit] of the primal gap of the best solution so far (1 before the first),
    divided by the limit: 0 is an optimal solution at once, 1 is nothing found."""
    total, previous_time, current_gap = 0.0, 0.0, 1.0
    for t, objective in trace:
        t = min(max(t, 0.0), time_limit)
        total += current_gap * (t - previous_time)
        previous_time, current_gap = t, primal_gap(objective, reference)
    total += current_gap * (time_limit - previous_time)
    return total / time_limit


def shifted_geometric_mean(values: Sequence[float], shift: float) -> float:
    """exp(mean(log(v + shift))) - shift."""
    if not values:
        raise ValueError("no values")
    return math.exp(sum(math.log(v + shift) for v in values) / len(values)) - shift


def solve_time(status: str, time_to_best: float | None, time_limit: float) -> float:
    """The time a run counts with: time to its best solution, or the limit when it has none."""
    if status not in FEASIBLE_STATUSES or time_to_best is None:
        return time_limit
    return min(time_to_best, time_limit)


@dataclass(frozen=True)
class Aggregate:
    runs: int
    mean_gap: float
    mean_score: float
    mean_primal_integral: float
    sgm_time: float
    feasible: int
    optimal: int


def aggregate(
    rows: Sequence[tuple[str, float | None, float | None, list[tuple[float, float]], float | None, float]], problem: str
) -> Aggregate:
    """rows: (status, objective, reference, trace, time_to_best, time_limit) per run."""
    if not rows:
        raise ValueError("no runs to aggregate")
    gaps, integrals, times = [], [], []
    for status, objective, reference, trace, to_best, limit in rows:
        feasible = status in FEASIBLE_STATUSES
        gaps.append(primal_gap(objective if feasible else None, reference))
        integrals.append(primal_integral(trace if feasible else [], reference, limit) if reference is not None else 1.0)
        times.append(solve_time(status, to_best, limit))
    n = len(rows)
    return Aggregate(
        runs=n,
        mean_gap=sum(gaps) / n,
        mean_score=1.0 - sum(gaps) / n,
        mean_primal_integral=sum(integrals) / n,
        sgm_time=shifted_geometric_mean(times, TIME_SHIFT.get(problem, 1.0)),
        feasible=sum(1 for r in rows if r[0] in FEASIBLE_STATUSES),
        optimal=sum(1 for r in rows if r[0] == "optimal"),
    )


def performance_profile(costs: dict[str, Sequence[float]], taus: Sequence[float]) -> dict[str, list[float]]:
    """Dolan-More: for each solver, the fraction of problems with cost <= tau x the best solver's cost.
    ``costs[solver][p]`` is the cost (e.g. time; inf when unsolved) on problem p, same order for all."""
    solvers = list(costs)
    count = len(costs[solvers[0]])
    best = [min(costs[s][p] for s in solvers) for p in range(count)]
    ratios = {
        s: [
            costs[s][p] / best[p] if math.isfinite(costs[s][p]) and best[p] > 0 else (1.0 if costs[s][p] == best[p] else math.inf)
            for p in range(count)
        ]
        for s in solvers
    }
    return {s: [sum(1 for r in ratios[s] if r <= tau) / count for tau in taus] for s in solvers}
