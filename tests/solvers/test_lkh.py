"""lkh: candidate sets by size (LKH's preprocessing must fit the budget at the frontier's sizes) and a real run."""

import sys

import pytest

pytest.importorskip("elkai")

from frontierco.problems import evaluate  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.solver import Budget, get_solver  # noqa: E402

lkh = sys.modules[get_solver("lkh").load().__module__]


@pytest.mark.parametrize(
    ("n", "expected"),
    [(999, ""), (1_000, "CANDIDATE_SET_TYPE = POPMUSIC"), (99_999, "CANDIDATE_SET_TYPE = POPMUSIC"), (100_000, "SUBGRADIENT = NO")],
)
def test_candidate_sets_by_size(n: int, expected: str) -> None:
    settings = lkh.candidate_settings(n)
    assert expected in settings and (expected or settings == "")
    assert ("CANDIDATE_SET_TYPE = QUADRANT" in settings) == (n >= 100_000)


def test_a_run_gives_feasible_tours_no_longer_than_the_first() -> None:
    instance = generate("tsp-dimacs-uniform", "u", 3, {"n": 200}).instance
    solver = get_solver("lkh").load()()
    solver.setup()
    verdicts = [evaluate(instance, s) for s in solver.solve(instance, Budget(time_limit=4.0))]
    assert verdicts and all(v.feasible for v in verdicts)
    assert verdicts[-1].objective <= verdicts[0].objective


@pytest.mark.parametrize("switch", ["ONE_RUN", "NUMBA_FROM", "GREEDY_FROM"])
def test_the_one_run_and_the_numba_paths_give_feasible_improving_tours(switch: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """From ONE_RUN cities LKH runs once with the whole budget, from NUMBA_FROM the numba LK-style search
    replaces it, from GREEDY_FROM the numba search starts from the greedy-edge tour: each lowered here to a
    300-city instance."""
    solver_class = get_solver("lkh").load()
    module = sys.modules[solver_class.__module__]  # the module of the class that runs
    monkeypatch.setattr(module, "ONE_RUN", 100)  # the numba search runs from ONE_RUN cities, all the way from NUMBA_FROM
    monkeypatch.setattr(module, switch, 100)
    instance = generate("tsp-dimacs-uniform", "u", 4, {"n": 300}).instance
    solver = solver_class()
    solver.setup()
    values = [evaluate(instance, s) for s in solver.solve(instance, Budget(time_limit=6.0))]
    assert len(values) >= 2 and all(v.feasible for v in values)
    assert all(b.objective < a.objective for a, b in zip(values, values[1:], strict=False))
