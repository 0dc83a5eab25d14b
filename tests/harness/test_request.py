"""The one run path: a RunRequest planned, run and stored by ``harness.request.run``, which the command line's
run, the campaigns, the reference computation and the contract check all call; its errors say what was wrong,
not which flag (the command line adds that)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import frontierco
from frontierco.errors import BadSetting
from frontierco.harness.plan import Selection
from frontierco.harness.request import Execution, RunRequest, run
from frontierco.results import ResultStore
from frontierco.solver import Budget
from frontierco.workspace import Context

PACKAGE = Path(frontierco.__file__).parent
CALLERS = ["cli/run.py", "app/campaigns.py", "app/references.py", "app/contract.py"]
BELOW = {"run_plan", "plan_collection", "plan_file", "make_executor", "LocalExecutor"}  # what the run path does for them


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {f"{node.module}.{alias.name}" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}


@pytest.mark.parametrize("caller", CALLERS)
def test_every_caller_runs_through_the_one_run_path(caller: str) -> None:
    imported = _imported(PACKAGE / caller)
    assert "frontierco.harness.request.run" in imported and "frontierco.harness.request.RunRequest" in imported
    assert not {name for name in imported if name.rsplit(".", 1)[-1] in BELOW}, "plans or runs by itself"


@pytest.mark.parametrize(
    "request_, setting, wording",
    [
        (RunRequest("greedy", Selection("mis-rb-small"), Budget(1e308), "mis"), "time_limit", "time limit must be a positive number"),
        (RunRequest("greedy", Selection("mis-rb-small"), Budget(5.0, threads=0), "mis"), "threads", "threads must be in 1..4096, got 0"),
        (RunRequest("greedy", Selection("mis-rb-small"), Budget(5.0), "mis", seeds=0), "seeds", "seeds must be in 1..10000, got 0"),
        (RunRequest("greedy", Selection("mis-rb-small", limit=0), Budget(5.0), "mis"), "limit", "instance limit must be at least 1"),
        (RunRequest("greedy", Selection("mis-rb-small"), Budget(5.0), "mis", execution=Execution(jobs=0)), "jobs", "runs at once"),
        (RunRequest("greedy", Selection("mis-rb-small"), Budget(5.0), "mis", execution=Execution("slurm")), "executor", "unknown executor"),
    ],
)
def test_a_bad_setting_is_worded_by_what_was_wrong(tmp_path: Path, request_: RunRequest, setting: str, wording: str) -> None:
    with pytest.raises(BadSetting) as caught:
        run(Context(), request_, ResultStore(tmp_path / "runs"))
    assert caught.value.setting == setting and wording in str(caught.value) and "--" not in str(caught.value)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").rglob("*.jsonl"))


def test_the_device_travels_in_the_budget_to_the_record(tmp_path: Path) -> None:
    request = RunRequest("greedy", Selection("mis-rb-small", "dev", limit=1), Budget(5.0), "mis")
    ran = run(Context(), request, ResultStore(tmp_path / "runs"))
    (record,) = ran.records
    assert record.device == "cpu" and record.run_id == ran.specs[0].run_id
    assert run(Context(), request, ResultStore(tmp_path / "runs")).records == []  # done: skipped
