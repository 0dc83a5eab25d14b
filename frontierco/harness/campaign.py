"""Campaigns: plan the runs of a solver over a collection, skip finished ones, run the rest in parallel
worker processes, and append a record for every finished run as it finishes."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from frontierco.errors import UsageError
from frontierco.fingerprint import content_sha256, file_sha256
from frontierco.formats import read_instance
from frontierco.harness.devices import visible_gpus, worker_gpus
from frontierco.harness.executors import Executor, LocalExecutor
from frontierco.harness.job import RunSpec
from frontierco.harness.provenance import provenance
from frontierco.harness.runner import Outcome
from frontierco.problems import get_problem, problem_of, size_of
from frontierco.registry import FileSource, Registry
from frontierco.results import ON_FILE, ResultStore, RunRecord
from frontierco.solver import Budget, SolverSpec, SolverUnavailable


@dataclass(frozen=True)
class Campaign:
    """What to run: the specs of one solver's runs."""

    specs: list[RunSpec]


def check_budget(time_limit: float, seeds: int, threads: int, limit: int | None = None) -> None:
    """Options that make no sense are refused before anything runs or is recorded."""
    if not (math.isfinite(time_limit) and time_limit > 0):
        raise UsageError(f"--time-limit must be a positive, finite number of seconds, got {time_limit:g}")
    for name, value in (("--seeds", seeds), ("--threads", threads)):
        if value < 1:
            raise UsageError(f"{name} must be at least 1, got {value}")
    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be at least 1 (leave it out for every instance), got {limit}")


def check_support(spec: SolverSpec, problem: str) -> None:
    if problem not in spec.problems:
        raise UsageError(f"solver {spec.name} does not support {problem} (it supports {', '.join(spec.problems)})")


def plan_collection(
    registry: Registry,
    solver: SolverSpec,
    problem: str,
    collection: str | None,
    split: str | None,
    limit: int | None,
    seeds: int,
    time_limit: float,
    threads: int = 1,
    params: dict[str, Any] | None = None,
    max_size: int | None = None,
    names: list[str] | None = None,
    device: str = "cpu",
) -> Campaign:
    """The runs of ``solver`` on a collection's split (the problem's default collection if None),
    optionally only instances of at most ``max_size`` (nodes, vertices or columns), the first ``limit``."""
    check_budget(time_limit, seeds, threads, limit)
    check_support(solver, problem)
    name = collection or get_problem(problem).default_collection
    chosen = registry.collection(name)
    if chosen.problem != problem:
        raise UsageError(f"collection {name} holds {chosen.problem} instances, not {problem}")
    entries = chosen.split(split)
    if names is not None:
        unknown = sorted(set(names) - {e.name for e in entries})
        if unknown:
            raise UsageError(f"collection {name} has no instances {', '.join(unknown)} in split {split!r}")
        entries = [e for e in entries if e.name in names]
    if max_size is not None:
        entries = [e for e in entries if size_of(registry.load(e)) <= max_size]
    entries = entries[:limit] if limit else entries
    if not entries:
        raise UsageError(f"collection {name} has no instances in split {split!r}")
    version = solver.load().version
    specs = []
    for entry in entries:
        source = entry.source
        sha = source.sha256 if isinstance(source, FileSource) else (source.content_sha256 or content_sha256(registry.load(entry)))
        reference = entry.reference
        for seed in range(seeds):
            specs.append(
                RunSpec(
                    solver=solver,
                    solver_version=version,
                    params=params or {},
                    problem=problem,
                    collection=name,
                    instance_key=entry.key,
                    instance_sha256=sha,
                    budget=Budget(time_limit, seed, threads, device),
                    manifests=os.pathsep.join(str(d) for d in registry.directories),
                    reference=reference.value if reference else None,
                    reference_source=reference.source if reference else "",
                    reference_status=reference.status if reference else "",
                )
            )
    return Campaign(specs)


def plan_file(
    solver: SolverSpec,
    path: Path,
    time_limit: float,
    seeds: int = 1,
    threads: int = 1,
    params: dict[str, Any] | None = None,
    device: str = "cpu",
) -> Campaign:
    """Runs on a researcher's own instance file (the problem follows from the file)."""
    check_budget(time_limit, seeds, threads)
    instance = read_instance(path)
    problem = problem_of(instance).name
    check_support(solver, problem)
    version = solver.load().version
    sha = file_sha256(str(path))
    specs = [
        RunSpec(solver, version, params or {}, problem, ON_FILE, str(path.resolve()), sha, Budget(time_limit, seed, threads, device))
        for seed in range(seeds)
    ]
    return Campaign(specs)


def to_record(spec: RunSpec, outcome: Outcome, solution_file: str | None, jobs: int) -> RunRecord:
    return RunRecord(
        run_id=spec.run_id,
        solver=spec.solver.name,
        solver_version=spec.solver_version,
        params=spec.params,
        problem=spec.problem,
        collection=spec.collection,
        instance=spec.instance_name,
        instance_key=spec.instance_key,
        instance_sha256=spec.instance_sha256,
        time_limit=spec.budget.time_limit,
        seed=spec.budget.seed,
        threads=spec.budget.threads,
        status=outcome.status,
        reason=outcome.reason,
        objective=outcome.objective,
        reference=spec.reference,
        reference_source=spec.reference_source,
        reference_status=spec.reference_status,
        trace=outcome.trace,
        time_to_best=outcome.trace[-1][0] if outcome.trace else None,
        proven=outcome.proven,
        solve_time=round(outcome.solve_time, 6),
        setup_time=round(outcome.setup_time, 6),
        solutions_received=outcome.solutions_received,
        exit_code=outcome.exit_code,
        exit_signal=outcome.exit_signal,
        stderr_tail=outcome.stderr_tail,
        solution_file=solution_file,
        provenance=provenance(spec.solver.requires, jobs),
        sense=outcome.sense,
        device=spec.budget.device,
    )


def run_campaign(
    campaign: Campaign,
    store: ResultStore,
    executor: Executor | None = None,
    force: bool = False,
    progress: Callable[[Iterable[Any], int], Iterator[Any]] | None = None,
) -> list[RunRecord]:
    """Run every spec not finished yet (all with ``force``) on the executor (local, one at a time, by
    default); records are appended one by one as runs finish, so an interrupted campaign resumes where
    it stopped. Each run is claimed in the store just before it starts (``ResultStore.claim``), so that
    campaigns running at once on one machine share the runs instead of repeating them."""
    executor = executor or LocalExecutor(1)
    done: dict[tuple[str, str], set[str]] = {}
    pending = []
    for spec in campaign.specs:
        key = (spec.collection, spec.solver.name)
        if key not in done:
            done[key] = set() if force else store.finished(*key)
        if spec.run_id not in done[key]:
            pending.append(spec)
            done[key].add(spec.run_id)
    records: list[RunRecord] = []

    def admit(spec: RunSpec) -> bool:
        return store.claim(spec.collection, spec.solver.name, spec.run_id, redo=force)

    finished = executor.run(pending, admit)
    try:
        for spec, outcome in progress(finished, len(pending)) if progress else finished:
            if outcome is None:
                continue  # another process finished or took this run meanwhile
            solution_file = store.save_solution(spec.collection, spec.run_id, outcome.best) if outcome.best is not None else None
            record = to_record(spec, outcome, solution_file, executor.jobs)
            store.append(record)
            store.release(spec.collection, spec.run_id)
            records.append(record)
    finally:
        finished.close()  # on Ctrl-C, cancel the runs not started yet now, not at interpreter exit
    return records


def make_executor(kind: str, jobs: int = 1, address: str | None = None, device: str = "cpu") -> Executor:
    """The executor a user asked for by name; a bad name or missing Ray is a one-line error. Local workers on
    ``cuda`` share the visible GPUs round robin."""
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if kind == "local":
        return LocalExecutor(jobs, worker_gpus(device, jobs, visible_gpus() if device == "cuda" else []))
    if kind != "ray":
        raise UsageError(f"unknown executor {kind!r}; use local or ray")
    try:
        from frontierco.harness.executors import RayExecutor

        return RayExecutor(address)
    except ImportError:
        raise SolverUnavailable("the ray executor needs Ray: pip install 'frontierco[ray]'") from None


__all__ = ["Campaign", "SolverUnavailable", "UsageError", "make_executor", "plan_collection", "plan_file", "run_campaign"]
