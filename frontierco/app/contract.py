"""The contract every solver meets, checked through the real harness on tiny instances: a feasible
solution, a stop within the limit plus the grace (the solve time the harness measured from ``ready``), the
same result for the same seed where the library is deterministic, instances of 1-3 nodes handled, an
infeasible instance survived. Used by the test suite (over every solver) and by ``frontierco check-solver NAME``."""

from __future__ import annotations

import signal
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from frontierco.harness.request import RunRequest, run
from frontierco.harness.runner import GRACE, SETUP_LIMIT
from frontierco.problems import PROBLEMS, Instance
from frontierco.problems.files import natural_suffix, write_instance
from frontierco.results import FEASIBLE_STATUSES, RunRecord, Status
from frontierco.solver import Budget, SolverSpec
from frontierco.workspace import Context

LIMIT = 3.0
RETRY_LIMIT = 15.0  # a case with no solution within LIMIT is run once more with this limit (a loaded machine), and says so


def cases(problem: str) -> dict[str, Callable[[], Instance]]:
    """The problem's contract cases (``Problem.contract_cases``), by name."""
    return PROBLEMS[problem].contract_cases()


@dataclass(frozen=True)
class ContractResult:
    solver: str
    problem: str
    case: str
    passed: bool
    message: str


def cases_of(spec: SolverSpec) -> list[tuple[str, str]]:
    return [(problem, case) for problem in spec.problems if problem in PROBLEMS for case in cases(problem)]


def timing_fault(record: RunRecord) -> str:
    """What the record says about time that breaks the contract ("" when nothing): the setup against its own limit
    (``SETUP_LIMIT``), the solve time the harness measured from ``ready`` to the worker's end against the limit plus
    the grace. Wall time measured from outside (worker start-up, imports, a loaded machine) is no part of it."""
    if record.setup_time > SETUP_LIMIT or (record.status == Status.TIMEOUT and not record.setup_time):
        return f"setup did not finish within {SETUP_LIMIT:g} s"
    if record.solve_time > record.time_limit + GRACE:
        how = " (killed: it ignored SIGTERM)" if record.exit_signal == signal.SIGKILL else ""
        return f"stopped {record.solve_time:.1f} s after ready for a {record.time_limit:g} s limit and {GRACE:g} s grace{how}"
    return ""


def _run(spec: SolverSpec, path: Path, limit: float, store: Path, context: Context) -> RunRecord:
    return run(context, RunRequest(spec, path, Budget(limit)), context.records(store)).records[0]


def check_case(spec: SolverSpec, problem: str, case: str, workdir: Path, context: Context | None = None) -> ContractResult:
    """Run one contract case of one solver through the harness (the workspace of ``context`` closed to it; default:
    none) and judge it by what the harness recorded."""
    context = context if context is not None else Context()
    instance = cases(problem)[case]()
    path = workdir / f"{problem}-{case}{natural_suffix(instance)}"
    write_instance(path, instance)

    def result(passed: bool, message: str) -> ContractResult:
        return ContractResult(spec.name, problem, case, passed, message)

    record, note = _run(spec, path, LIMIT, workdir / f"runs-{problem}-{case}-0", context), ""
    if record.status == Status.TIMEOUT and record.setup_time and case != "infeasible":
        record = _run(spec, path, RETRY_LIMIT, workdir / f"runs-{problem}-{case}-retry", context)
        note = f"nothing within {LIMIT:g} s, run again with {RETRY_LIMIT:g} s: "
    if fault := timing_fault(record):
        return result(False, note + fault)
    if case == "infeasible":
        ok = record.status in (Status.NO_SOLUTION, Status.TIMEOUT)
        return result(ok, f"status {record.status}" + ("" if ok else f" (expected no solution): {record.reason}"))
    if record.status not in FEASIBLE_STATUSES:
        return result(False, note + f"status {record.status}: {record.reason} {record.stderr_tail[-300:]}".strip())
    if case == "tiny" and spec.load().deterministic:
        again = _run(spec, path, record.time_limit, workdir / f"runs-{problem}-{case}-1", context)
        if fault := timing_fault(again):
            return result(False, f"second run: {fault}")
        if again.objective != record.objective or again.status != record.status:
            return result(False, f"not deterministic: {record.objective} then {again.objective} with seed 0")
    return result(True, note + f"status {record.status}, objective {record.objective:.6g}")


def check_solver(spec: SolverSpec, context: Context | None = None) -> list[ContractResult]:
    """Every contract case of every problem the solver supports."""
    with tempfile.TemporaryDirectory() as folder:
        return [check_case(spec, problem, case, Path(folder), context) for problem, case in cases_of(spec)]
