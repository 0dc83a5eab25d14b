"""vroom (issue 30, defect 10): anytime within the budget. A short first call yields a solution early, the
later calls at rising exploration levels use the time left; version 1 made one call with 90% of the budget
and nothing came within 3 s on 100-customer CVRPs. The calls are watched, not timed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np
import pytest

vroom = pytest.importorskip("vroom")

from frontierco.problems import evaluate  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.solver import Budget, get_solver  # noqa: E402


def _watched_run(monkeypatch: pytest.MonkeyPatch, time_limit: float) -> tuple[list[tuple[str, Any]], list[float]]:
    """Run vroom on a 100-customer CVRP, noting each VROOM call (its level and timeout) and each yield, in order."""
    events: list[tuple[str, Any]] = []
    solve = vroom.Input.solve

    def noted(self: Any, exploration_level: int, nb_threads: int = 4, timeout: timedelta | None = None, **kwargs: Any) -> Any:
        events.append(("call", (exploration_level, None if timeout is None else timeout.total_seconds())))
        return solve(self, exploration_level, nb_threads=nb_threads, timeout=timeout, **kwargs)

    instance = generate("cvrp-uniform", "u", 3, {"n": 100}).instance
    solver = get_solver("vroom").load()()
    solver.setup()
    monkeypatch.setattr(vroom.Input, "solve", noted)
    objectives = []
    for solution in solver.solve(instance, Budget(time_limit=time_limit)):
        events.append(("yield", None))
        value = evaluate(instance, solution)
        assert value.feasible, value.reason
        objectives.append(value.objective)
    return events, objectives


def test_a_first_solution_comes_from_a_short_first_call(monkeypatch: pytest.MonkeyPatch) -> None:
    events, _ = _watched_run(monkeypatch, time_limit=3.0)
    assert events[0][0] == "call" and events[1][0] == "yield"  # the first call's routes are handed over at once
    level, timeout = events[0][1]
    assert timeout is not None and timeout <= 0.25 * 3.0  # a short first call, not the whole budget


def test_later_calls_search_harder_within_the_budget_and_only_improvements_are_yielded(monkeypatch: pytest.MonkeyPatch) -> None:
    events, objectives = _watched_run(monkeypatch, time_limit=3.0)
    calls = [detail for kind, detail in events if kind == "call"]
    levels = [level for level, _ in calls]
    assert len(calls) >= 2 and levels == sorted(levels) and levels[-1] > levels[0]
    assert all(timeout is not None and 0 < timeout < 3.0 for _, timeout in calls)
    assert objectives and all(b < a for a, b in zip(objectives, objectives[1:], strict=False))


def test_a_one_node_instance_has_the_empty_solution() -> None:
    from frontierco.problems import CVRPInstance, EdgeWeights

    single = CVRPInstance("one", EdgeWeights("EUC_2D", coords=np.zeros((1, 2))), demands=np.zeros(1, dtype=np.int64), capacity=5)
    (only,) = list(get_solver("vroom").load()().solve(single, Budget(time_limit=1.0)))
    assert only.routes == ()
