"""harness/worker.run_job in this process: the messages a worker sends for what its solver yields."""

import gc
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from frontierco.harness.plan import plan_file
from frontierco.harness.worker import run_job
from frontierco.problems import CVRPSolution, get_problem
from frontierco.results import UNSANDBOXED
from frontierco.solver import Budget
from tests.helpers import DATA


@pytest.fixture
def messages(faulty):
    """The messages of one job of the faulty solver in a mode, run here (no sandbox, no memory limit)."""

    def run(mode: str) -> list[dict]:
        (spec,) = plan_file(faulty, DATA / "tiny.vrp", Budget(5.0), params={"mode": mode}).specs
        channel = io.StringIO()
        try:
            run_job({**spec.job(), "memory_mb": None, "sandbox": "0"}, channel)
        finally:
            gc.unfreeze()  # run_job freezes what setup made; this process goes on
        return [json.loads(line) for line in channel.getvalue().splitlines()]

    return run


def test_a_good_run_reports_the_sandbox_then_ready_then_each_solution_then_done(messages):
    sent = messages("good")
    assert [m["type"] for m in sent] == ["sandbox", "ready", "solution", "solution", "done"]
    assert sent[0]["applied"] == UNSANDBOXED
    cvrp = get_problem("cvrp")
    worse, good = (cvrp.decode(m["data"]) for m in sent[2:4])
    assert isinstance(good, CVRPSolution) and [r.tolist() for r in good.routes] == [[1, 2], [3]]
    assert [r.tolist() for r in worse.routes] == [[1], [2], [3]]
    assert [m["proven"] for m in sent[2:4]] == [False, False]


def test_a_proven_solution_travels_with_its_claim(messages):
    solutions = [m for m in messages("proven") if m["type"] == "solution"]
    assert [m["proven"] for m in solutions] == [True]


@pytest.mark.parametrize(("mode", "reason"), [("garbage", "yielded a str, not a CVRPSolution"), ("wrong-type", "not a CVRPSolution")])
def test_a_yield_that_is_no_solution_of_the_problem_is_reported_as_garbage_and_the_run_goes_on(messages, mode, reason):
    sent = messages(mode)
    assert [m["type"] for m in sent] == ["sandbox", "ready", "garbage", "done"]
    assert reason in sent[2]["reason"]


def test_a_solver_that_raises_leaves_the_exception_to_serve_which_reports_it(messages):
    with pytest.raises(RuntimeError, match="boom"):  # serve() turns it into a 'failed' message and exit status 4
        messages("raises")


def test_a_workspace_solver_named_like_a_suite_solver_gets_its_own_numba_cache(tmp_path, monkeypatch):
    """Issue 44, group 4: numba's cache is keyed by the solver's folder, not its name alone."""
    from frontierco.harness.worker import _sandbox_paths
    from frontierco.workspace import SUITE

    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    job = {"files": {"cache": str(tmp_path / "cache"), "mirror": None, "offline": True}, "closed": [], "params": {}}
    impostor = tmp_path / "workspace" / "solvers" / "sfc-2opt"
    impostor.mkdir(parents=True)
    (impostor / "solver.py").write_text("")
    caches = []
    for folder in (SUITE / "solvers" / "sfc-2opt", impostor):
        _, writable = _sandbox_paths(job, f"{folder / 'solver.py'}:Solver", ())
        caches.append(Path(os.environ["NUMBA_CACHE_DIR"]))
        assert caches[-1] in writable and caches[-1].is_dir()
    suite, workspace = caches
    assert suite != workspace
    assert not workspace.is_relative_to(suite) and not suite.is_relative_to(workspace)


def test_a_workspace_solver_named_like_a_suite_solver_gets_its_own_weights_cache(tmp_path, monkeypatch):
    """Issue 44: `<cache>/checkpoints/<name>` was writable by any solver folder of that name (a workspace `dimes` could
    overwrite the suite dimes' downloaded weights); each folder now writes only its own cache, keyed by its path."""
    from frontierco.harness import worker
    from frontierco.workspace import SUITE

    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    cache = tmp_path / "cache"
    shared = cache / "checkpoints" / "dimes"
    shared.mkdir(parents=True)  # the weights an unsandboxed process downloaded
    job = {"files": {"cache": str(cache), "mirror": None, "offline": True}, "closed": [], "params": {}}
    impostor = tmp_path / "workspace" / "solvers" / "dimes"
    impostor.mkdir(parents=True)
    (impostor / "solver.py").write_text("")
    own = []
    for folder in (SUITE / "solvers" / "dimes", impostor):
        target = f"{folder / 'solver.py'}:Solver"
        _, writable = worker._sandbox_paths(job, target, ())
        assert not any(shared.resolve().is_relative_to(path) or path.is_relative_to(shared.resolve()) for path in writable)
        own.append(worker.solver_files(job, target).cache)
        assert own[-1] in writable and own[-1].is_dir() and own[-1].is_relative_to(cache.resolve())
    suite, workspace = own
    assert suite != workspace and not workspace.is_relative_to(suite) and not suite.is_relative_to(workspace)


def test_a_harness_under_a_lower_hard_memory_limit_runs_within_it():
    """Started under ``ulimit -v`` below the run's memory_mb, the worker keeps the lower limit instead of failing
    (raising a hard limit is refused: every run was an error in setup())."""
    code = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "from frontierco.harness.worker import _limit_memory\n"
        "_limit_memory(8192)\n"
        "print(resource.getrlimit(resource.RLIMIT_AS))\n"
        "_limit_memory(1024)\n"
        "print(resource.getrlimit(resource.RLIMIT_AS))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == [str((3 << 30, 3 << 30)), str((1 << 30, 1 << 30))]


def test_the_sandbox_grants_a_path_parameter_a_user_gave_never_its_declared_default():
    from frontierco.harness.worker import granted_path_params
    from frontierco.parameters import Param
    from frontierco.solver import SolverSpec

    where = Param(name="where", type="path", default="/", help="")
    spec = SolverSpec("s", ("mis",), "x.py:S", {}, False, ("where",), (where,))
    assert granted_path_params(spec, {"where": "/"}) == ()  # the default "/" was granted: every file outside the workspace
    assert granted_path_params(spec, {"where": "/data/models"}) == ("where",)
