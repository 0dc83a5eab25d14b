"""The per-instance table and the summary line that ``frontierco run`` prints (presentation, for the CLI)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from frontierco.cli.common import terminal_text
from frontierco.metrics import FEASIBLE_STATUSES, aggregate, primal_gap, score_run
from frontierco.problems import get_problem
from frontierco.results import RunRecord


@dataclass(frozen=True)
class Summary:
    rows: list[tuple[str, ...]]
    line: str


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders the numbers inside names by value: test-2 before test-10."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", name) if part)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.10g}"


def summarise_records(records: Sequence[RunRecord]) -> Summary:
    """Rows (instance, seed, status, objective, reference, gap %, time to best, note) and one line of
    aggregates over the runs that have a reference; runs without one are counted and named, not dropped."""
    records = sorted(records, key=lambda r: (natural_key(r.instance), r.seed))
    rows: list[tuple[str, ...]] = []
    for r in records:
        feasible = r.status in FEASIBLE_STATUSES
        if r.reference is None:
            gap = "no reference"
        else:
            gap = f"{100 * primal_gap(r.objective if feasible else None, r.reference):.3f}"
        note = terminal_text(r.reason) if not feasible else ""  # a record's reason quotes its solver: never a terminal's command
        rows.append((r.instance, str(r.seed), r.status, _fmt(r.objective), _fmt(r.reference), gap, _fmt(r.time_to_best), note[:60]))
    scored = [r for r in records if r.reference is not None]
    unscored = len(records) - len(scored)
    if not scored:
        return Summary(rows, f"{len(records)} runs; none has a reference value yet, so no gap can be computed")
    problem = scored[0].problem
    agg = aggregate([score_run(r, r.reference, r.sense or get_problem(problem).sense) for r in scored], problem)
    assert agg.mean_gap is not None and agg.primal_integral is not None
    line = (
        f"mean gap {100 * agg.mean_gap:.3f}% | sgm time {agg.sgm_time:.3f} s | primal integral {agg.primal_integral:.4f} | "
        f"feasible {agg.feasible}/{agg.runs} | optimal {agg.optimal} | runs {agg.runs}"
    )
    if unscored:
        line += f" (+{unscored} runs without a reference, not in these means)"
    return Summary(rows, line)
