"""From run records to scored runs and per-solver aggregates, against the references in the manifests
now (a record's own copy of the reference may predate a better one)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from frontierco.errors import FrontiercoError
from frontierco.metrics import (
    FEASIBLE_STATUSES,
    TIME_SHIFT,
    primal_gap,
    primal_integral,
    same_value_slack,
    shifted_geometric_mean,
    solve_time,
)
from frontierco.problems import get_problem
from frontierco.registry import Collection, FileSource, InstanceEntry, Registry
from frontierco.results import RunRecord

SOLVED_GAP = 1e-4


@dataclass(frozen=True)
class ScoredRun:
    record: RunRecord
    reference: float | None
    gap: float | None
    integral: float | None
    time: float
    time_to_solve: float
    beats_reference: bool

    @property
    def group(self) -> tuple[str, float]:
        return (self.record.solver, self.record.time_limit)


@dataclass(frozen=True)
class Aggregate:
    solver: str
    time_limit: float
    runs: int
    scored: int
    feasible_share: float
    optimal: int
    mean_gap: float | None
    score: float | None
    primal_integral: float | None
    sgm_time: float
    beats_reference: int


@dataclass(frozen=True)
class CollectionBoard:
    collection: Collection
    runs: list[ScoredRun]
    aggregates: list[Aggregate]
    instances_without_reference: list[str]


def _sense(registry: Registry, collection: Collection, record: RunRecord) -> str:
    """The record's own sense; for records older than that field, the problem's (loading a MILP)."""
    if record.sense:
        return record.sense
    problem = get_problem(collection.problem)
    if collection.problem != "milp":
        return problem.sense
    return problem.sense_of(registry.load(collection.entry(record.instance)))


def score_run(record: RunRecord, reference: float | None, sense: str) -> ScoredRun:
    feasible = record.status in FEASIBLE_STATUSES
    gap = integral = None
    to_solve = math.inf
    beats = False
    if reference is not None:
        gap = primal_gap(record.objective if feasible else None, reference)
        integral = primal_integral(record.trace if feasible else [], reference, record.time_limit)
        solved = [t for t, objective in record.trace if primal_gap(objective, reference) <= SOLVED_GAP] if feasible else []
        to_solve = solved[0] if solved else math.inf
        if feasible and record.objective is not None:
            slack = same_value_slack(reference)
            beats = record.objective < reference - slack if sense == "min" else record.objective > reference + slack
    return ScoredRun(record, reference, gap, integral, solve_time(record.status, record.time_to_best, record.time_limit), to_solve, beats)


def aggregate(runs: list[ScoredRun], problem: str) -> Aggregate:
    first = runs[0].record
    scored = [r for r in runs if r.gap is not None]
    mean = (lambda values: sum(values) / len(values)) if scored else (lambda values: None)
    return Aggregate(
        solver=first.solver,
        time_limit=first.time_limit,
        runs=len(runs),
        scored=len(scored),
        feasible_share=sum(r.record.status in FEASIBLE_STATUSES for r in runs) / len(runs),
        optimal=sum(r.record.status == "optimal" for r in runs),
        mean_gap=mean([r.gap for r in scored]),
        score=None if not scored else 1.0 - sum(r.gap for r in scored) / len(scored),  # type: ignore[misc]
        primal_integral=mean([r.integral for r in scored]),
        sgm_time=shifted_geometric_mean([r.time for r in runs], TIME_SHIFT.get(problem, 1.0)),
        beats_reference=sum(r.beats_reference for r in runs),
    )


def _sha(entry: InstanceEntry) -> str:
    source = entry.source
    return source.sha256 if isinstance(source, FileSource) else (source.content_sha256 or "")


def leader(board: CollectionBoard) -> Aggregate | None:
    """The leading solver of a board: lowest mean gap, then lowest shifted geometric mean time."""
    scored = [a for a in board.aggregates if a.mean_gap is not None]
    return min(scored, key=lambda a: (a.mean_gap, a.sgm_time, a.solver)) if scored else None


def boards(registry: Registry, records: list[RunRecord]) -> list[CollectionBoard]:
    """One board per collection that has records (runs on loose files are left out)."""
    by_collection: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        if record.collection != "files":
            by_collection[record.collection].append(record)
    result = []
    for name in sorted(by_collection):
        try:
            collection = registry.collection(name)
        except FrontiercoError:
            continue
        references = {e.name: (e.reference.value if e.reference else None) for e in collection.entries}
        current = {e.name: _sha(e) for e in collection.entries}
        runs = []
        for record in sorted(by_collection[name], key=lambda r: (r.solver, r.time_limit, r.instance, r.seed, r.run_id)):
            expected = current.get(record.instance)
            if expected is None or (expected and expected != record.instance_sha256):
                continue  # the instance was removed from the collection, or changed since this run
            reference = references.get(record.instance)
            sense = _sense(registry, collection, record) if reference is not None else "min"
            runs.append(score_run(record, reference, sense))
        groups: dict[tuple[str, float], list[ScoredRun]] = defaultdict(list)
        for run in runs:
            groups[run.group].append(run)
        aggregates = [aggregate(groups[key], collection.problem) for key in sorted(groups)]
        missing = sorted({r.record.instance for r in runs if r.reference is None})
        result.append(CollectionBoard(collection, runs, aggregates, missing))
    return result
