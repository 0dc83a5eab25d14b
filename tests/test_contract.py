"""The contract every solver of solvers/ meets, generated over every (solver, problem) pair: on tiny
instances, through the real harness, it yields a feasible solution, stops within its limit plus the
grace, is deterministic for a fixed seed where its library is, handles instances of 1-3 nodes, and
survives an infeasible MILP. A new solver folder is tested the moment it exists."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from frontierco.formats import natural_suffix, write_instance
from frontierco.generators import generate
from frontierco.harness.campaign import plan_file, run_campaign
from frontierco.harness.runner import GRACE
from frontierco.problems import CVRPInstance, CVRPTWInstance, EdgeWeights, MILPInstance, MISInstance, TSPInstance
from frontierco.results import ResultStore
from frontierco.solver import discover

LIMIT = 2.0
START_UP = 3.0  # worker start-up and imports, on top of limit + grace


def _tiny_cvrptw() -> CVRPTWInstance:
    coords = np.random.default_rng(3).random((9, 2))
    weights = EdgeWeights("EXACT_2D", coords=coords)
    windows = np.array([[0.0, 100.0]] + [[0.0, 50.0]] * 8)
    return CVRPTWInstance("tw", weights, np.array([0] + [1] * 8), 4, None, weights, windows, np.full(9, 0.1))


def _atsp(n: int) -> TSPInstance:
    matrix = np.random.default_rng(n).integers(1, 50, (n, n))
    np.fill_diagonal(matrix, 0)
    return TSPInstance(f"atsp{n}", EdgeWeights("EXPLICIT", matrix=matrix))


def _points(n: int) -> EdgeWeights:
    return EdgeWeights("EUC_2D", coords=np.random.default_rng(n).integers(0, 100, (n, 2)).astype(float))


def _infeasible_milp() -> MILPInstance:
    import scipy.sparse as sp

    # x + y >= 3 with binary x, y
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


CASES = {
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


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "solver_name" in metafunc.fixturenames:
        pairs = [(name, problem, case) for name, spec in sorted(discover().items()) for problem in spec.problems for case in CASES[problem]]
        metafunc.parametrize("solver_name, problem, case", pairs, ids=[f"{n}-{p}-{c}" for n, p, c in pairs])


def _run(tmp_path: Path, solver_name: str, instance, seed_runs: int = 1):
    spec = discover()[solver_name]
    if not spec.available:
        pytest.skip(f"{solver_name} is not installed: {spec.fix}")
    path = tmp_path / f"instance{natural_suffix(instance)}"
    write_instance(path, instance)
    campaign = plan_file(spec, path, LIMIT, seeds=1)
    records = []
    for k in range(seed_runs):
        start = time.monotonic()
        records += run_campaign(campaign, ResultStore(tmp_path / f"runs{k}"))
        assert time.monotonic() - start < LIMIT + GRACE + START_UP
    return records


@pytest.mark.slow
def test_contract(tmp_path, solver_name, problem, case):
    instance = CASES[problem][case]()
    deterministic = discover()[solver_name].load().deterministic if discover()[solver_name].available else False
    records = _run(tmp_path, solver_name, instance, seed_runs=2 if case == "tiny" and deterministic else 1)
    record = records[0]
    if case == "infeasible":
        assert record.status in ("no_solution", "timeout"), record
        return
    assert record.status in ("feasible", "optimal"), (record.status, record.reason, record.stderr_tail[-500:])
    if len(records) == 2:
        assert records[1].objective == record.objective and records[1].status == record.status
