"""Workers forked from the zygote are as isolated as processes started from scratch, and the zygote goes
when its harness goes."""

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from frontierco.harness import zygote
from frontierco.harness.devices import slot_cpus
from frontierco.harness.execute import run_plan
from frontierco.harness.executors import LocalExecutor
from frontierco.results import ResultStore
from frontierco.solver import Budget
from tests.harness.test_leftovers import _alive, _gone_within


@pytest.fixture
def sandbox() -> str:
    """The faulty solver reports through a file outside its temporary folder: no sandbox here (its own tests
    are in tests/security); ``plan_for``'s runs carry it in their job."""
    return "0"


def _inspect(plan_for, tmp_path: Path, tag: str, threads: int = 1) -> dict:
    report = tmp_path / f"{tag}.json"
    plan = plan_for("inspects", report=str(report))
    plan = replace(plan, specs=[replace(s, budget=Budget(s.budget.time_limit, s.budget.seed, threads)) for s in plan.specs])
    (record,) = run_plan(plan, ResultStore(tmp_path / tag))
    assert record.status == "feasible", record
    return json.loads(report.read_text())


def test_a_forked_worker_has_its_own_session_environment_and_files(tmp_path, plan_for):
    first, second = _inspect(plan_for, tmp_path, "a"), _inspect(plan_for, tmp_path, "b")
    for report in (first, second):
        assert report["pid"] == report["pgid"] == report["sid"]  # its own session and group: killpg stops it all
        assert os.path.basename(report["env"]["TMPDIR"]).startswith("frontierco-run-")
        assert report["tempdir"] == report["env"]["TMPDIR"]  # not a temporary folder cached by the zygote
        assert all(report["env"][name] == "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"))
        fds = report["fds"]
        assert fds["0"] == fds["1"] == os.devnull
        extra = {fd: target for fd, target in fds.items() if int(fd) > 2 and not target.startswith("/proc/")}
        assert len(extra) == 1 and next(iter(extra.values())).startswith("pipe:"), fds  # the message channel alone
        assert report["frozen"] > 0  # setup's objects are out of the timed solve's garbage collections
    assert first["env"]["TMPDIR"] != second["env"]["TMPDIR"]
    assert first["random"] != second["random"]  # numpy's global generator is not the zygote's copy


def test_runs_side_by_side_are_pinned_to_cores_of_their_own(tmp_path, plan_for):
    """With two local slots, each slot's worker runs on its own core (unpinned, two workers were seen sharing
    one core after their start); a single slot is left to the scheduler."""
    available = sorted(os.sched_getaffinity(0))
    if len(available) < 2:
        pytest.skip("needs two cores")
    specs = [plan_for("inspects", report=str(tmp_path / f"{k}.json")).specs[0] for k in range(2)]
    outcomes = list(LocalExecutor(jobs=2).run(specs))
    assert all(outcome is not None and outcome.objective is not None for _, outcome in outcomes)
    pinned = sorted(json.loads((tmp_path / f"{k}.json").read_text())["cpus"] for k in range(2))
    assert pinned == [[available[0]], [available[1]]]
    alone = _inspect(plan_for, tmp_path, "alone")
    assert alone["cpus"] == available


def test_a_slot_gets_its_own_threads_of_cores_when_there_are_enough() -> None:
    assert [slot_cpus(k, 2, 2, [0, 1, 2, 3]) for k in range(2)] == [[0, 1], [2, 3]]
    assert slot_cpus(1, 3, 1, [4, 6, 9]) == [6]
    assert slot_cpus(0, 1, 1, [0, 1]) is None  # one run at a time: the scheduler places it
    assert slot_cpus(0, 2, 2, [0, 1, 2]) is None  # not enough cores for a set each


def test_a_thread_count_gets_a_zygote_of_its_own(tmp_path, plan_for):
    report = _inspect(plan_for, tmp_path, "two", threads=2)
    assert report["env"]["OMP_NUM_THREADS"] == report["env"]["OPENBLAS_NUM_THREADS"] == "2"


def test_an_idle_zygote_is_retired_when_the_environment_changes(tmp_path, plan_for, monkeypatch):
    _inspect(plan_for, tmp_path, "before")
    mine = {key: z for key, z in zygote._zygotes.items() if key[0] == os.getpid()}
    changed = os.environ["PATH"] + os.pathsep + "/frontierco-test-changed"
    monkeypatch.setenv("PATH", changed)  # a variable the worker is given (runner.PASSED_ON)
    report = _inspect(plan_for, tmp_path, "after")
    assert report["env"]["PATH"] == changed
    assert all(z.process.poll() is not None for z in mine.values())  # the idle ones exited
    assert len([key for key in zygote._zygotes if key[0] == os.getpid()]) == 1


def test_the_zygote_exits_when_its_harness_is_killed(tmp_path):
    pids = tmp_path / "zygotes"
    script = f"""
import sys, time
sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
from pathlib import Path
from frontierco.harness import zygote
from frontierco.harness.execute import run_plan
from frontierco.harness.plan import plan_file
from frontierco.results import ResultStore
from frontierco.solver import Budget, discover
from tests.helpers import DATA, TEST_SOLVERS
faulty = discover(TEST_SOLVERS)["faulty"]
run_plan(plan_file(faulty, DATA / "tiny.vrp", Budget(5.0)), ResultStore(Path({str(tmp_path / "runs")!r})))
Path({str(pids)!r}).write_text(" ".join(str(z.process.pid) for z in zygote._zygotes.values()))
time.sleep(60)
"""
    harness = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 60
    while not pids.exists():
        assert time.monotonic() < deadline and harness.poll() is None
        time.sleep(0.1)
    (pid,) = [int(p) for p in pids.read_text().split()]
    assert _alive(pid)
    os.kill(harness.pid, signal.SIGKILL)
    harness.wait()
    assert _gone_within(pid, 30.0)


def test_only_its_harness_may_ask_the_zygote_for_a_worker(tmp_path, plan_for):
    """Another process that connects to the zygote's socket is refused: the name is visible to all."""
    _inspect(plan_for, tmp_path, "warm")
    (address,) = [z.address for key, z in zygote._zygotes.items() if key[0] == os.getpid()]
    script = f"""
import socket, sys
connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
connection.connect({address!r})
connection.settimeout(5)
try:
    connection.sendall(b"x" * 16)
    answer = connection.recv(16)
except (BrokenPipeError, ConnectionResetError):  # closed before the request was sent, or after
    answer = b""
sys.exit(0 if answer == b"" else 1)  # a timeout (the zygote waiting for the rest of a request) exits 1
"""
    assert subprocess.run([sys.executable, "-c", script], timeout=30).returncode == 0  # closed without an answer
