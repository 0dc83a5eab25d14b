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

import numpy as np

from frontierco.formats import natural_suffix, write_instance
from frontierco.generators import generate
from frontierco.harness.campaign import run_campaign
from frontierco.harness.plan import plan_file
from frontierco.harness.runner import GRACE
from frontierco.problems import CVRPInstance, CVRPTWInstance, EdgeWeights, Instance, MILPInstance, MISInstance, TSPInstance
from frontierco.results import FEASIBLE_STATUSES, ResultStore, Status
from frontierco.solver import SolverSpec

LIMIT = 3.0
START_UP = 3.0  # worker start-up and imports, on top of limit + grace


def _points(n: int) -> EdgeWeights:
    return EdgeWeights("EUC_2D", coords=np.random.default_rng(n).integers(0, 100, (n, 2)).astype(float))


def _atsp(n: int) -> TSPInstance:
    matrix = np.random.default_rng(n).integers(1, 50, (n, n))
    np.fill_diagonal(matrix, 0)
    return TSPInstance(f"atsp{n}", EdgeWeights("EXPLICIT", matrix=matrix))


def _tiny_cvrptw() -> CVRPTWInstance:
    weights = EdgeWeights("EXACT_2D", coords=np.random.default_rng(3).random((9, 2)))
    windows = np.array([[0.0, 100.0]] + [[0.0, 50.0]] * 8)
    return CVRPTWInstance("tw", weights, np.array([0] + [1] * 8), 4, None, weights, windows, np.full(9, 0.1))


def _infeasible_milp() -> MILPInstance:
    import scipy.sparse as sp

    # x + y >= 3 over binary x, y
    return MILPInstance(
        "infeasible",
        "min",
        np.ones(2),
        sp.csr_matrix(np.ones((1, 2))),
        np.array([3.0]),
        np.array([np.inf]),
        np.zeros(2),
        np.ones(2),
        np.ones(2, dtype=bool),
        ("x", "y"),
        ("r",),
    )


CASES: dict[str, dict[str, Callable[[], Instance]]] = {
    "tsp": {
        "tiny": lambda: generate("tsp-uniform", "t8", 1, {"n": 8}).instance,
        "atsp": lambda: _atsp(7),
        "n1": lambda: TSPInstance("n1", _points(1)),
        "n2": lambda: TSPInstance("n2", _points(2)),
        "n3": lambda: TSPInstance("n3", _points(3)),
    },
    "cvrp": {
        "tiny": lambda: generate("cvrp-uniform", "c10", 1, {"n": 10, "capacity": 20}).instance,
        "n2": lambda: CVRPInstance("c2", _points(2), np.array([0, 3]), 10),
        "n3": lambda: CVRPInstance("c3", _points(3), np.array([0, 3, 9]), 10),
    },
    "cvrptw": {"tiny": _tiny_cvrptw},
    "mis": {
        "tiny": lambda: generate("mis-er", "e20", 1, {"n": 20, "p": 0.2}).instance,
        "n1": lambda: MISInstance("m1", 1, np.zeros((0, 2), dtype=np.int64)),
        "n3": lambda: MISInstance("m3", 3, np.array([[0, 1], [0, 2], [1, 2]])),
    },
    "milp": {
        "tiny": lambda: generate("milp-setcover", "s", 1, {"rows": 20, "cols": 40, "density": 0.1}).instance,
        "infeasible": _infeasible_milp,
    },
}


@dataclass(frozen=True)
class ContractResult:
    solver: str
    problem: str
    case: str
    passed: bool
    message: str


def cases_of(spec: SolverSpec) -> list[tuple[str, str]]:
    return [(problem, case) for problem in spec.problems if problem in CASES for case in CASES[problem]]


def check_case(spec: SolverSpec, problem: str, case: str, workdir: Path) -> ContractResult:
    """Run one contract case of one solver through the harness and judge it."""
    instance = CASES[problem][case]()
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
