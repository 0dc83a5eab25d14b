"""The solver contract (frontierco.app.contract), generated over every (solver, problem, case): a new
solver folder is tested the moment it exists."""

from __future__ import annotations

import signal
from dataclasses import replace

import pytest

from frontierco.app import contract
from frontierco.app.contract import LIMIT, RETRY_LIMIT, cases_of, check_case, timing_fault
from frontierco.filestore import FileStore
from frontierco.harness.runner import GRACE, SETUP_LIMIT
from frontierco.results import RunRecord
from frontierco.solver import discover
from tests.helpers import TEST_SOLVERS, record


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "solver_name" in metafunc.fixturenames:
        triples = [(name, problem, case) for name, spec in sorted(discover().items()) for problem, case in cases_of(spec)]
        metafunc.parametrize("solver_name, problem, case", triples, ids=[f"{n}-{p}-{c}" for n, p, c in triples])


@pytest.mark.slow
def test_contract(tmp_path, solver_name, problem, case):
    spec = discover()[solver_name]
    if not spec.available:
        pytest.skip(f"{solver_name} is not installed: {spec.fix}")
    missing = [w.path for w in getattr(spec.load(), "published_weights", ()) if not FileStore().has(w)]
    if missing:
        pytest.skip(f"{solver_name}: its published weights are in neither the cache nor the mirror ({missing[0]})")
    result = check_case(spec, problem, case, tmp_path)
    assert result.passed, result.message


def _timed(status: str, solve_time: float, setup_time: float = 0.4, exit_signal: int | None = None) -> RunRecord:
    base = record("s", "t1", status, None, [])
    return replace(base, time_limit=LIMIT, solve_time=solve_time, setup_time=setup_time, exit_signal=exit_signal)


def test_the_contract_judges_the_times_the_harness_recorded_not_the_wall_clock():
    assert timing_fault(_timed("feasible", LIMIT + GRACE - 0.1, setup_time=SETUP_LIMIT - 1)) == ""
    assert "after ready" in timing_fault(_timed("timeout", LIMIT + GRACE + 0.2))
    assert "ignored SIGTERM" in timing_fault(_timed("timeout", LIMIT + GRACE + 0.2, exit_signal=signal.SIGKILL))
    assert "setup did not finish" in timing_fault(_timed("timeout", 0.0, setup_time=0.0))
    assert "setup did not finish" in timing_fault(_timed("feasible", 1.0, setup_time=SETUP_LIMIT + 1))


@pytest.mark.parametrize("second, passed", [("feasible", True), ("timeout", False)])
def test_a_case_with_nothing_within_the_limit_is_run_once_more_with_a_longer_one_and_says_so(tmp_path, monkeypatch, second, passed):
    limits = []

    def fake_run(spec, path, limit, store, context):
        limits.append(limit)
        status = "timeout" if len(limits) == 1 else second
        return replace(_timed(status, limit), time_limit=limit, objective=100.0 if status == "feasible" else None)

    monkeypatch.setattr(contract, "_run", fake_run)
    result = contract.check_case(discover(TEST_SOLVERS)["faulty"], "cvrp", "n3", tmp_path)
    assert limits == [LIMIT, RETRY_LIMIT]
    assert result.passed is passed and f"nothing within {LIMIT:g} s, run again with {RETRY_LIMIT:g} s" in result.message
