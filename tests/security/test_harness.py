"""A solver cannot take the harness down: garbage and floods on its message channel, memory spread over
forked children, a grandchild in a session of its own, terminal escapes and floods on stderr, JSON nested too deeply
to parse; and it sees none of the harness's environment but the listed variables."""

import json
import os
import re
import time
import tracemalloc

import pytest

from frontierco.harness.execute import run_plan
from frontierco.harness.runner import message_bound, printable
from frontierco.problems import get_problem
from frontierco.results import ResultStore
from tests.harness.test_leftovers import _alive, _gone_within
from tests.helpers import DATA


def _run(plan, tmp_path):
    (record,) = run_plan(plan, ResultStore(tmp_path / "runs"))
    return record


def test_a_line_that_is_not_json_is_the_solvers_garbage(tmp_path, hostile_plan):
    record = _run(hostile_plan("channel-garbage"), tmp_path)
    assert record.status == "feasible" and record.objective == 100.0  # the run went on past the garbage


def test_a_message_over_the_bound_is_refused_as_it_streams(tmp_path, hostile_plan):
    tracemalloc.start()
    try:
        record = _run(hostile_plan("channel-flood", time_limit=30.0, megabytes=96), tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert record.status == "feasible" and record.objective == 100.0 and record.solutions_received == 2
    assert peak < 48 * 2**20  # the 96 MB message was never held: the bound of a 4-node instance is 16 MB


def test_messages_under_the_bound_are_held_one_at_a_time(tmp_path, hostile_plan):
    tracemalloc.start()
    try:
        record = _run(hostile_plan("channel-many", time_limit=60.0, megabytes=8, count=12), tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert record.status == "feasible" and record.objective == 100.0 and record.solutions_received == 13
    assert peak < 48 * 2**20, peak / 2**20  # 96 MB of messages went through; never more than one of 8 MB (and its parse) held


def test_the_bound_grows_with_the_instance():
    from frontierco.problems.files import read_instance

    tiny = read_instance(DATA / "tiny.vrp")
    assert message_bound(tiny) == 16 * 2**20 + 32 * get_problem("cvrp").size(tiny)


@pytest.mark.slow
def test_memory_is_bounded_over_the_runs_whole_process_tree(tmp_path, hostile_plan):
    plan = hostile_plan("fork-hoard", time_limit=20.0, memory_mb=1500, children=3, megabytes=700)
    record = _run(plan, tmp_path)  # each child under the limit (RLIMIT_AS), together 2.1 GB
    assert record.status == "memory", record
    assert re.search(r"the run's \d+ processes held \d+ MB > 1500 MB", record.reason)


def test_a_grandchild_in_a_session_of_its_own_does_not_outlive_the_run(tmp_path, hostile_plan):
    record = _run(hostile_plan("escape"), tmp_path)
    assert record.status == "feasible"
    pid = int(re.search(r"grandchild (\d+)", record.stderr_tail).group(1))
    assert _gone_within(pid, 5.0), f"grandchild {pid} still runs"
    assert not _alive(pid)


def _marked(mark: str) -> list[int]:
    """The processes running ``harness/confined`` whose environment holds ``mark`` (in their PATH)."""
    from pathlib import Path

    found = []
    for entry in Path("/proc").iterdir():
        try:
            if mark.encode() in (entry / "environ").read_bytes() and b"frontierco.harness.confined" in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return found


def test_in_bubblewrap_a_grandchild_in_a_session_of_its_own_does_not_outlive_the_run(tmp_path, hostile_plan, monkeypatch):
    import uuid

    from frontierco.harness.sandbox import BUBBLEWRAP, choose

    if choose(BUBBLEWRAP) != BUBBLEWRAP:
        pytest.skip("bubblewrap does not work on this machine")
    mark = f"/frontierco-test-mark-{uuid.uuid4().hex}"
    # every process of the run inherits the PATH (its pids are another namespace's)
    monkeypatch.setenv("PATH", os.environ["PATH"] + os.pathsep + mark)
    record = _run(hostile_plan("escape", seconds=30, sandbox=BUBBLEWRAP), tmp_path)
    assert record.status == "feasible" and "grandchild" in record.stderr_tail
    deadline = time.monotonic() + 5.0
    while _marked(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in _marked(mark) if _alive(pid)] == []


def test_a_crash_note_keeps_no_terminal_escape_or_nul(tmp_path, hostile_plan):
    record = _run(hostile_plan("ansi"), tmp_path)
    assert record.status == "crash" and "red and a  nul" in record.stderr_tail
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", record.stderr_tail + record.reason)


def test_printable_keeps_text_tabs_and_line_breaks():
    assert printable("a\tb\nc\x1b]0;title\x07d\x1b[2Ke\r\x00") == "a\tb\ncde"


@pytest.mark.slow
def test_a_grandchild_in_a_session_of_its_own_does_not_outlive_a_kill_9_of_the_campaign(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    pidfile = tmp_path / "grandchild"
    script = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
from dataclasses import replace
from pathlib import Path
from frontierco.harness.execute import run_plan
from frontierco.harness.plan import plan_file
from frontierco.results import ResultStore
from frontierco.solver import Budget, discover
from tests.helpers import DATA
hostile = discover(Path({str(Path(__file__).resolve().parent / "solvers")!r}))["hostile"]
plan = plan_file(hostile, DATA / "tiny.vrp", Budget(60.0), params={{"mode": "escape", "pidfile": {str(pidfile)!r}, "seconds": 60}})
plan = replace(plan, specs=[replace(spec, sandbox="0") for spec in plan.specs])  # it reports through a file
run_plan(plan, ResultStore(Path({str(tmp_path / "runs")!r})))
"""
    process = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 60
    while not pidfile.exists() or not pidfile.read_text().strip():
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.1)
    pid = int(pidfile.read_text())
    assert _alive(pid)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert _gone_within(pid, 5.0), f"grandchild {pid} outlived the campaign"


def test_json_nested_deeper_than_any_stack_is_the_solvers_garbage(tmp_path, hostile_plan):
    record = _run(hostile_plan("channel-nested"), tmp_path)  # was a RecursionError in the harness: no record
    assert record.status == "feasible" and record.objective == 100.0 and record.solutions_received == 4


def test_a_solver_gets_the_listed_environment_and_no_secret_of_the_harness(tmp_path, hostile_plan, monkeypatch):
    from frontierco.harness.runner import PASSED_ON
    from frontierco.harness.worker import THREAD_VARIABLES

    monkeypatch.setenv("SECRET_TOKEN", "hunter2")
    record = _run(hostile_plan("environ"), tmp_path)
    assert record.status == "error", record
    report = json.loads(record.reason.removeprefix("RuntimeError: "))
    listed = {*PASSED_ON, *THREAD_VARIABLES, "PYTHONUNBUFFERED", "TMPDIR", "TEMP", "TMP", "HOME", "NUMBA_CACHE_DIR"}
    assert "PATH" in report["keys"] and set(report["keys"]) <= listed, report["keys"]
    assert report["home"] == report["tmpdir"] and "frontierco-run-" in report["home"]
    for seen in (report["initial"], report["parent"]):  # the environment the process began with, and its parent's
        assert "SECRET_TOKEN" not in seen, seen


def test_a_flood_on_stderr_is_held_as_a_bounded_tail(tmp_path, hostile_plan):
    tracemalloc.start()
    try:
        record = _run(hostile_plan("stderr-flood", time_limit=30.0, megabytes=64), tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert record.status == "error", record
    assert json.loads(record.reason.removeprefix("RuntimeError: "))["held"] < 4 * 2**20  # was a 64 MB file (975 MB in 3 s)
    assert record.stderr_tail.endswith("the last line\n")
    assert peak < 16 * 2**20, peak / 2**20  # the harness held a bounded tail of the 64 MB
