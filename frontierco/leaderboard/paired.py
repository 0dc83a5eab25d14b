"""Paired statistics against a named baseline per problem (``Problem.baseline``): on the instances (and seeds) both ran at the same
time limit, the ratio of each solver's primal integral to the baseline's, wins/ties/losses, and the geometric
mean ratio with a bootstrap confidence interval over instances. The same against the board's best classical
row (``best_classical``: the lowest mean primal integral among the rows of solvers that are not learned and
that ran on every instance of the board, at that limit), so that "beats the baseline" is never read as
"beats the field".

Ratios are of integrals shifted by ``SHIFT`` (an integral of 0 is an optimal solution at once, common on easy
instances), so (a + s) / (b + s); a pair is a tie when that ratio lies within ``TIE`` of 1. Seeds of one
instance are averaged first, so that instances weigh the same."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

import numpy as np

from frontierco.leaderboard import markdown
from frontierco.leaderboard.data import CollectionBoard
from frontierco.metrics import ScoredRun
from frontierco.problems import get_problem
from frontierco.solver import discover

SHIFT = 1e-3  # a 0.1% gap held over the whole limit
TIE = 0.01
RESAMPLES = 2000
LEVEL = 0.95


@dataclass(frozen=True)
class Paired:
    solver: str  # the leaderboard row (solver or solver@device)
    baseline: str
    time_limit: float
    instances: int
    wins: int  # lower integral than the baseline
    ties: int
    losses: int
    geometric_mean: float  # of (integral + SHIFT) / (baseline's + SHIFT); below 1 is better than the baseline
    low: float  # bootstrap interval of the geometric mean over instances
    high: float


def _integrals(runs: list[ScoredRun]) -> dict[tuple[str, float], dict[str, float]]:
    """Per (row, limit): instance -> mean integral over its seeds (runs without an integral are left out)."""
    by_seed: dict[tuple[str, float], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for run in runs:
        if run.integral is not None:
            by_seed[run.group][run.record.instance].append(run.integral)
    return {group: {name: float(np.mean(values)) for name, values in instances.items()} for group, instances in by_seed.items()}


def bootstrap_interval(log_ratios: np.ndarray, seed: int = 0) -> tuple[float, float]:
    """Percentile interval (``LEVEL``) of the geometric mean, resampling instances with a fixed seed."""
    rng = np.random.default_rng(seed)
    means = log_ratios[rng.integers(len(log_ratios), size=(RESAMPLES, len(log_ratios)))].mean(axis=1)
    tail = (1.0 - LEVEL) / 2.0
    return math.exp(float(np.quantile(means, tail))), math.exp(float(np.quantile(means, 1.0 - tail)))


def _pair(solver: str, values: dict[str, float], chosen: str, base: dict[str, float], limit: float) -> Paired | None:
    shared = sorted(set(values) & set(base))
    if not shared:
        return None
    ratios = np.array([(values[name] + SHIFT) / (base[name] + SHIFT) for name in shared])
    logs = np.log(ratios)
    low, high = bootstrap_interval(logs)
    return Paired(
        solver,
        chosen,
        limit,
        len(shared),
        int(np.sum(ratios < 1.0 - TIE)),
        int(np.sum(np.abs(ratios - 1.0) <= TIE)),
        int(np.sum(ratios > 1.0 + TIE)),
        math.exp(float(logs.mean())),
        low,
        high,
    )


def paired(board: CollectionBoard, baseline: str | None = None) -> list[Paired]:
    """Every other row of the board against the baseline (the problem's named one by default), at each time
    limit the baseline ran; empty when the baseline has no runs on this board."""
    chosen = baseline or get_problem(board.collection.problem).baseline
    integrals = _integrals(board.runs)
    result = []
    for (solver, limit), values in sorted(integrals.items()):
        base = integrals.get((chosen, limit))
        if base is None or solver == chosen:
            continue
        if (pair := _pair(solver, values, chosen, base, limit)) is not None:
            result.append(pair)
    return result


@cache
def learned_solvers() -> frozenset[str]:
    """The solvers whose ``learned`` attribute is set (rows of other names, unknown ones included, are classical)."""
    return frozenset(name for name, spec in discover().items() if spec.learned)


def best_classical(board: CollectionBoard, limit: float, learned: frozenset[str] | set[str] | None = None) -> str | None:
    """The board's strongest classical row at ``limit``: the lowest mean primal integral (then the name) among the
    rows of solvers that are not learned and that ran on every instance of the board; None when there is none."""
    learned = learned_solvers() if learned is None else learned
    rows = [
        a
        for a in board.aggregates
        if a.time_limit == limit and a.primal_integral is not None and board.comparable(a) and board.solver_of(a.solver) not in learned
    ]
    return min(rows, key=lambda a: (a.primal_integral, a.solver)).solver if rows else None


def paired_with_best_classical(board: CollectionBoard, learned: frozenset[str] | set[str] | None = None) -> list[Paired]:
    """Every other row of the board against the best classical row at its time limit (``best_classical``);
    empty when that row is the problem's baseline at every limit (the baseline's section says it all)."""
    integrals = _integrals(board.runs)
    baseline = get_problem(board.collection.problem).baseline
    strongest = {limit: best_classical(board, limit, learned) for limit in sorted({limit for _, limit in integrals})}
    if all(row in (None, baseline) for row in strongest.values()):
        return []
    result = []
    for (solver, limit), values in sorted(integrals.items()):
        chosen = strongest[limit]
        if chosen is None or solver == chosen:
            continue
        if (pair := _pair(solver, values, chosen, integrals[(chosen, limit)], limit)) is not None:
            result.append(pair)
    return result


def paired_markdown(rows: list[Paired], strongest: list[Paired] | None = None) -> list[str]:
    """The collection page's sections: against the baseline, then against the best classical row (no lines
    when there is nothing to pair)."""
    lines: list[str] = []
    if rows:
        lines += [f"## Paired against {markdown.name(rows[0].baseline)}", ""] + _table(rows, with_baseline=False)
        lines += [
            "",
            f"Per instance, (primal integral + {SHIFT:g}) / (the baseline's + {SHIFT:g}) on the instances both ran (seeds",
            f"averaged); a win is a ratio below {1 - TIE:g}, a tie within {TIE:g} of 1. Geometric mean over instances with a",
            f"bootstrap {100 * LEVEL:g}% percentile interval ({RESAMPLES} resamples of the instances). Below 1: better than the baseline.",
            "",
        ]
    if strongest:
        lines += ["## Paired against the best classical row", ""] + _table(strongest, with_baseline=True)
        lines += [
            "",
            "The same ratios against the board's strongest classical row at each limit (the lowest mean primal integral",
            "among the rows of solvers that are not learned and ran on every instance), so that beating the baseline is",
            "not read as beating the field. Below 1: better than that row.",
            "",
        ]
    return lines


def _table(rows: list[Paired], with_baseline: bool) -> list[str]:
    against = "against | " if with_baseline else ""
    lines = [
        f"| solver | {against}limit s | instances | wins / ties / losses | integral ratio (geometric mean) | 95% interval |",
        "|---|" + ("---|" if with_baseline else "") + "---|---|---|---|---|",
    ]
    for p in rows:
        named = f"{markdown.name(p.baseline)} | " if with_baseline else ""
        lines.append(
            f"| {markdown.name(p.solver)} | {named}{p.time_limit:g} | {p.instances} | {p.wins} / {p.ties} / {p.losses} | "
            f"{p.geometric_mean:.3f} | {p.low:.3f} - {p.high:.3f} |"
        )
    return lines


def paired_csv_rows(board: CollectionBoard, learned: frozenset[str] | set[str] | None = None) -> list[list[str]]:
    """Both comparisons; the last column says which (``baseline`` or ``best classical``)."""
    kinds = [("baseline", p) for p in paired(board)] + [("best classical", p) for p in paired_with_best_classical(board, learned)]
    return [
        [
            board.collection.name,
            p.solver,
            p.baseline,
            f"{p.time_limit:g}",
            str(p.instances),
            str(p.wins),
            str(p.ties),
            str(p.losses),
            f"{p.geometric_mean:.6f}",
            f"{p.low:.6f}",
            f"{p.high:.6f}",
            kind,
        ]
        for kind, p in kinds
    ]
