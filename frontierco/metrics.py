"""Scores of runs: primal gap and score (FrontierCO), primal integral (Berthold), shifted geometric mean
of time, Dolan-More performance profiles, and a run record scored against a reference and aggregated per
solver (every aggregate says how many runs it covers)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from frontierco.problems import get_problem
from frontierco.results import FEASIBLE_STATUSES, RunRecord, Status

# Two objective values are the same when they differ by at most this share of max(1, |reference|): solutions
# with continuous values are feasible within 1e-6 tolerances, so their objectives carry that much noise.
SAME_VALUE_TOLERANCE = 1e-6


def same_value_slack(reference: float) -> float:
    return SAME_VALUE_TOLERANCE * max(1.0, abs(reference))


def refuted_bound(sense: str, bound: float, objective: float) -> str:
    """Why a claimed bound on the optimum is refuted by a feasible solution of ``objective`` (a lower bound
    above it when minimising, an upper bound below it when maximising); "" when it is not."""
    if sense == "min" and bound > objective + same_value_slack(objective):
        return f"the lower bound {bound:g} is above the objective {objective:g} of the run's own solution"
    if sense == "max" and bound < objective - same_value_slack(objective):
        return f"the upper bound {bound:g} is below the objective {objective:g} of the run's own solution"
    return ""


SOLVED_GAP = 1e-4  # a run has solved an instance once its gap is at most this (performance profiles)


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
class ScoredRun:
    record: RunRecord
    reference: float | None
    gap: float | None
    integral: float | None
    time: float
    time_to_solve: float
    beats_reference: bool
    optimal: bool  # proven by the solver and equal to the reference known now (runs may predate it)

    @property
    def group(self) -> tuple[str, float]:
        return (self.record.row_name, self.record.time_limit)


@dataclass(frozen=True)
class Aggregate:
    solver: str
    time_limit: float
    runs: int
    scored: int
    feasible: int
    optimal: int
    mean_gap: float | None
    score: float | None
    primal_integral: float | None
    sgm_time: float
    beats_reference: int

    @property
    def feasible_share(self) -> float:
        return self.feasible / self.runs


def score_run(record: RunRecord, reference: float | None, sense: str) -> ScoredRun:
    feasible = record.status in FEASIBLE_STATUSES
    gap = integral = None
    to_solve = math.inf
    beats = optimal = False
    if reference is not None:
        gap = primal_gap(record.objective if feasible else None, reference)
        integral = primal_integral(record.trace if feasible else [], reference, record.time_limit)
        solved = [t for t, objective in record.trace if primal_gap(objective, reference) <= SOLVED_GAP] if feasible else []
        to_solve = solved[0] if solved else math.inf
        if feasible and record.objective is not None:
            slack = same_value_slack(reference)
            beats = record.objective < reference - slack if sense == "min" else record.objective > reference + slack
            optimal = record.proven and abs(record.objective - reference) <= slack
    time = solve_time(record.status, record.time_to_best, record.time_limit)
    return ScoredRun(record, reference, gap, integral, time, to_solve, beats, optimal or record.status == Status.OPTIMAL)


def aggregate(runs: list[ScoredRun], problem: str) -> Aggregate:
    first = runs[0].record
    scored = [r for r in runs if r.gap is not None]
    mean = (lambda values: sum(values) / len(values)) if scored else (lambda values: None)
    return Aggregate(
        solver=first.row_name,
        time_limit=first.time_limit,
        runs=len(runs),
        scored=len(scored),
        feasible=sum(r.record.status in FEASIBLE_STATUSES for r in runs),
        optimal=sum(r.optimal for r in runs),
        mean_gap=mean([r.gap for r in scored]),
        score=None if not scored else 1.0 - sum(r.gap for r in scored) / len(scored),  # type: ignore[misc]
        primal_integral=mean([r.integral for r in scored]),
        sgm_time=shifted_geometric_mean([r.time for r in runs], get_problem(problem).time_shift),
        beats_reference=sum(r.beats_reference for r in runs),
    )


def performance_profile(costs: dict[str, Sequence[float]], taus: Sequence[float]) -> dict[str, list[float]]:
    """Dolan-More: for each solver, the fraction of problems with cost <= tau x the best solver's cost.
    ``costs[solver][p]`` is the cost (e.g. time; inf when unsolved) on problem p, same order for all; a
    problem no solver solves counts as unsolved for all."""
    solvers = list(costs)
    count = len(costs[solvers[0]])
    best = [min(costs[s][p] for s in solvers) for p in range(count)]

    def ratio(cost: float, fastest: float) -> float:
        if not math.isfinite(cost):
            return math.inf
        return cost / fastest if fastest > 0 else 1.0

    ratios = {s: [ratio(costs[s][p], best[p]) for p in range(count)] for s in solvers}
    return {s: [sum(1 for r in ratios[s] if r <= tau) / count for tau in taus] for s in solvers}
