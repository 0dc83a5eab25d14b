"""The contract every solver meets, checked through the real harness on tiny instances: a feasible
solution, a stop within the limit plus the grace, the same result for the same seed where the library
is deterministic, instances of 1-3 nodes handled, an infeasible MILP survived. Used by the test suite
(over every solver) and by ``frontierco check-solver NAME``."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from frontierco.formats import natural_suffix, write_instance
from frontierco.harness.campaign import run_campaign
from frontierco.harness.plan import plan_file
from frontierco.harness.runner import GRACE
from frontierco.problems import PROBLEMS, Instance
from frontierco.results import FEASIBLE_STATUSES, ResultStore, Status
from frontierco.solver import SolverSpec

LIMIT = 3.0
START_UP = 3.0  # worker start-up and imports, on top of limit + grace


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


def check_case(spec: SolverSpec, problem: str, case: str, workdir: Path) -> ContractResult:
    """Run one contract case of one solver through the harness and judge it."""
    instance = cases(problem)[case]()
    path = workdir / f"{problem}-{case}{natural_suffix(instance)}"
    write_instance(path, instance)
    campaign = plan_file(spec, path, LIMIT)
    repeats = 2 if case == "tiny" and spec.load().deterministic else 1
    records = []
    for k in range(repeats):
        start = time.monotonic()
        records += run_campaign(campaign, ResultStore(workdir / f"runs-{problem}-{case}-{k}"))
        elapsed = time.monotonic() - start
        if elapsed > LIMIT + GRACE + START_UP:
            return ContractResult(spec.name, problem, case, False, f"took {elapsed:.1f} s for a {LIMIT:g} s limit")
    record = records[0]

    def result(passed: bool, message: str) -> ContractResult:
        return ContractResult(spec.name, problem, case, passed, message)

    if case == "infeasible":
        ok = record.status in (Status.NO_SOLUTION, Status.TIMEOUT)
        return result(ok, f"status {record.status}" + ("" if ok else f" (expected no solution): {record.reason}"))
    if record.status not in FEASIBLE_STATUSES:
        return result(False, f"status {record.status}: {record.reason} {record.stderr_tail[-300:]}".strip())
    if repeats == 2 and (records[1].objective != record.objective or records[1].status != record.status):
        return result(False, f"not deterministic: {record.objective} then {records[1].objective} with seed 0")
    return result(True, f"status {record.status}, objective {record.objective:.6g}")


def check_solver(spec: SolverSpec) -> list[ContractResult]:
    """Every contract case of every problem the solver supports."""
    with tempfile.TemporaryDirectory() as folder:
        return [check_case(spec, problem, case, Path(folder)) for problem, case in cases_of(spec)]
