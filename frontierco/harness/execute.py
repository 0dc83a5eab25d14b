"""The run loop: skip finished runs, claim and run the rest on an executor (worker processes), and append a
record for every finished run as it finishes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from frontierco.harness.executors import Executor, LocalExecutor
from frontierco.harness.job import RunSpec
from frontierco.harness.plan import Plan
from frontierco.harness.provenance import provenance
from frontierco.harness.runner import Outcome
from frontierco.results import ResultStore, RunRecord


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
        unrounded=outcome.unrounded,
        reference=spec.reference,
        reference_source=spec.reference_source,
        reference_status=spec.reference_status,
        trace=outcome.trace,
        time_to_best=outcome.trace[-1][0] if outcome.trace else None,
        proven=outcome.proven,
        bound=outcome.bound,
        solve_time=round(outcome.solve_time, 6),
        setup_time=round(outcome.setup_time, 6),
        solutions_received=outcome.solutions_received,
        exit_code=outcome.exit_code,
        exit_signal=outcome.exit_signal,
        stderr_tail=outcome.stderr_tail,
        solution_file=solution_file,
        provenance=provenance(spec.solver.requires, jobs) | {"sandbox": outcome.sandbox or "unsandboxed"},
        sense=outcome.sense,
        device=spec.budget.device,
        defaults={key: value for key, value in spec.solver.defaults.items() if key in spec.params},
    )


def run_plan(
    plan: Plan,
    store: ResultStore,
    executor: Executor | None = None,
    force: bool = False,
    progress: Callable[[Iterable[Any], int], Iterator[Any]] | None = None,
) -> list[RunRecord]:
    """Run every spec not finished yet (all with ``force``) on the executor (local, one at a time, by
    default); records are appended one by one as runs finish, so an interrupted plan resumes where
    it stopped. Each run is claimed in the store just before it starts (``ResultStore.claim``), so that
    plans running at once on one machine share the runs instead of repeating them."""
    executor = executor or LocalExecutor(1)
    done: dict[tuple[str, str], set[str]] = {}
    pending = []
    for spec in plan.specs:
        key = (spec.collection, spec.solver.name)
        if key not in done:
            done[key] = set() if force else store.finished(*key)
        if spec.run_id not in done[key]:
            pending.append(spec)
            done[key].add(spec.run_id)
    records: list[RunRecord] = []

    recorded = {key: store.size(*key) for key in done}  # the store is append-only: what comes after is new

    def admit(spec: RunSpec) -> bool:  # with force, a run another plan's run loop redid since this one began is done
        key = (spec.collection, spec.solver.name)
        return store.claim(*key, spec.run_id, redo=force, redo_from=recorded[key])

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
