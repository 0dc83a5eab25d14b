"""Paired statistics against a named baseline per problem (``Problem.baseline``): on the instances (and seeds) both ran at the same
time limit, the ratio of each solver's primal integral to the baseline's, wins/ties/losses, and the geometric
mean ratio with a bootstrap confidence interval over instances.

Ratios are of integrals shifted by ``SHIFT`` (an integral of 0 is an optimal solution at once, common on easy
instances), so (a + s) / (b + s); a pair is a tie when that ratio lies within ``TIE`` of 1. Seeds of one
instance are averaged first, so that instances weigh the same."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from frontierco.leaderboard import markdown
from frontierco.leaderboard.data import CollectionBoard
from frontierco.metrics import ScoredRun
from frontierco.problems import get_problem

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
        shared = sorted(set(values) & set(base))
        if not shared:
            continue
        ratios = np.array([(values[name] + SHIFT) / (base[name] + SHIFT) for name in shared])
        logs = np.log(ratios)
        low, high = bootstrap_interval(logs)
        result.append(
            Paired(
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
        )
    return result


def paired_markdown(rows: list[Paired]) -> list[str]:
    """The collection page's section (no lines when there is nothing to pair)."""
    if not rows:
        return []
    lines = [
        f"## Paired against {markdown.name(rows[0].baseline)}",
        "",
        "| solver | limit s | instances | wins / ties / losses | integral ratio (geometric mean) | 95% interval |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {markdown.name(p.solver)} | {p.time_limit:g} | {p.instances} | {p.wins} / {p.ties} / {p.losses} | {p.geometric_mean:.3f} | "
        f"{p.low:.3f} - {p.high:.3f} |"
        for p in rows
    ]
    lines += [
        "",
        f"Per instance, (primal integral + {SHIFT:g}) / (the baseline's + {SHIFT:g}) on the instances both ran (seeds",
        f"averaged); a win is a ratio below {1 - TIE:g}, a tie within {TIE:g} of 1. Geometric mean over instances with a",
        f"bootstrap {100 * LEVEL:g}% percentile interval ({RESAMPLES} resamples of the instances). Below 1: better than the baseline.",
        "",
    ]
    return lines


def paired_csv_rows(board: CollectionBoard) -> list[list[str]]:
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
        ]
        for p in paired(board)
    ]
