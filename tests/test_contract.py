"""The solver contract (frontierco.contract), generated over every (solver, problem, case): a new
solver folder is tested the moment it exists."""

from __future__ import annotations

import pytest

from frontierco.contract import cases_of, check_case
from frontierco.filestore import FileStore
from frontierco.solver import discover


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
