"""Re-verify a stored run: load its instance, check it is the same instance, re-evaluate the stored best
solution with the independent checker, and compare with the recorded objective."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from frontierco.errors import FrontiercoError, UnknownName
from frontierco.fingerprint import content_sha256, file_sha256
from frontierco.formats import read_instance
from frontierco.manifests import FileSource
from frontierco.problems import Evaluation, Instance, Solution, get_problem
from frontierco.registry import Registry
from frontierco.results import ResultStore, RunRecord

ROUNDING = 1e-12  # relative: far below any gap the suite reports (SAME_VALUE_TOLERANCE), far above a float's last bits


@dataclass(frozen=True)
class Verification:
    record: RunRecord
    evaluation: Evaluation
    instance: Instance
    solution: Solution

    @property
    def agrees(self) -> bool:
        """Feasible, with the record's objective up to rounding (``ROUNDING`` relative): a dot product of
        floats may differ in its last bits between two evaluations (a facility location run was recorded as
        20631.42743434252 and re-evaluated as 20631.427434342524)."""
        found, recorded = self.evaluation.objective, self.record.objective
        if not self.evaluation.feasible or found is None or recorded is None:
            return False
        return abs(found - recorded) <= ROUNDING * max(1.0, abs(recorded))


def find_records(store: ResultStore, run_id: str) -> list[RunRecord]:
    """Every record of one run (a run redone with --force has several, oldest first)."""
    if not run_id:
        raise UnknownName("the empty run id prefix is ambiguous; give a run id or a unique prefix of one")
    matches = [r for r in store.records() if r.run_id.startswith(run_id)]
    if not matches:
        raise UnknownName(f"no run {run_id!r} in {store.root}")
    if len({r.run_id for r in matches}) > 1:
        raise UnknownName(f"run id prefix {run_id!r} is ambiguous")
    return matches


def find_record(store: ResultStore, run_id: str) -> RunRecord:
    """The run's latest record."""
    return find_records(store, run_id)[-1]


def _instance(record: RunRecord, registry: Registry) -> Instance:
    if record.on_file:
        path = Path(record.instance_key)
        if file_sha256(str(path)) != record.instance_sha256:
            raise FrontiercoError(f"{path} has changed since run {record.run_id}")
        return read_instance(path)
    entry = registry.entry(record.instance_key)
    instance = registry.load(entry)
    source = entry.source
    expected = source.sha256 if isinstance(source, FileSource) else content_sha256(instance)
    if expected != record.instance_sha256:
        raise FrontiercoError(f"{record.instance_key} is not the instance of run {record.run_id}")
    return instance


def verify_run(store: ResultStore, run_id: str, registry: Registry | None = None) -> Verification:
    """Re-check the run's latest record."""
    return verify_record(store, find_record(store, run_id), registry)


def verify_record(store: ResultStore, record: RunRecord, registry: Registry | None = None) -> Verification:
    """Re-check one record against the solution file it names."""
    if record.solution_file is None:
        raise FrontiercoError(f"run {record.run_id} stored no solution ({record.status}: {record.reason})")
    instance = _instance(record, registry or Registry())
    problem = get_problem(record.problem)
    solution = problem.decode(store.load_solution(record.solution_file))
    return Verification(record, problem.evaluate(instance, solution), instance, solution)
