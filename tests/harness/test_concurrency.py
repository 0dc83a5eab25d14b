"""Two campaigns on one store at once share the runs: each run is claimed just before it starts."""

import os
import subprocess
import sys
from collections import Counter

from frontierco.results import ResultStore


def test_a_claim_is_taken_once_and_a_dead_claimant_s_run_is_taken_over(tmp_path):
    store = ResultStore(tmp_path)
    assert store.claim("c", "s", "run-1")
    assert not store.claim("c", "s", "run-1")  # this process holds it
    (tmp_path / "c" / "claims" / "run-2").write_text(f"{os.uname().nodename} 999999999\n")  # a process that is gone
    assert store.claim("c", "s", "run-2")
    store.release("c", "run-1")
    assert store.claim("c", "s", "run-1")


def test_two_processes_on_one_collection_run_each_run_once(tmp_path):
    command = [sys.executable, "-m", "frontierco", "run", "--solver", "greedy", "--collection", "mis-rb-small"]
    command += ["--split", "dev", "--seeds", "4", "--time-limit", "5", "--results", str(tmp_path)]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in processes]
    assert all(p.returncode == 0 for p in processes), outputs
    counts = Counter(r.run_id for r in ResultStore(tmp_path).records())
    assert len(counts) == 16 and set(counts.values()) == {1}  # 4 instances x 4 seeds, none run twice
    assert not any((tmp_path / "mis-rb-small" / "claims").iterdir())  # every claim released


def test_a_torn_record_does_not_count_as_a_finished_run(tmp_path):
    store = ResultStore(tmp_path)
    path = store.path("c", "s")
    path.parent.mkdir(parents=True)
    path.write_text('{"run_id": "run-1", "solver": "s", "sta')  # kill -9 in the middle of the write
    assert store.claim("c", "s", "run-1")  # so the run is done again


def test_an_empty_garbled_or_reused_pid_claim_is_no_claim_and_one_of_another_machine_expires(tmp_path):
    import time

    from frontierco.results import CLAIM_EXPIRY

    store = ResultStore(tmp_path)
    claims = tmp_path / "c" / "claims"
    claims.mkdir(parents=True)
    (claims / "empty").write_text("")  # what a full disk left behind
    (claims / "garbled").write_text("\x00\x00")
    (claims / "reused").write_text(f"{os.uname().nodename} {os.getpid()}\n")  # this pid, but written before this process began
    old = time.time() - 3 * 24 * 3600
    os.utime(claims / "reused", (old, old))
    for run in ("empty", "garbled", "reused"):
        assert store.claim("c", "s", run), run
    (claims / "elsewhere").write_text("another-machine 1234\n")
    assert not store.claim("c", "s", "elsewhere")  # a process on another machine may still run it
    expired = time.time() - CLAIM_EXPIRY - 60
    os.utime(claims / "elsewhere", (expired, expired))
    assert store.claim("c", "s", "elsewhere")


def test_a_claim_that_cannot_be_written_is_an_error_and_leaves_no_file(tmp_path, monkeypatch):
    import errno
    from pathlib import Path

    import pytest

    from frontierco.errors import StoreError

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    store = ResultStore(tmp_path)
    (tmp_path / "c" / "claims").mkdir(parents=True)
    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(StoreError, match="No space left on device"):
        store.claim("c", "s", "run-1")
    assert list((tmp_path / "c" / "claims").iterdir()) == []


def test_two_campaigns_redoing_the_same_runs_at_once_redo_each_run_once(tmp_path):
    command = [sys.executable, "-m", "frontierco", "run", "--solver", "greedy", "--collection", "mis-rb-small"]
    command += ["--split", "dev", "--seeds", "2", "--time-limit", "5", "--results", str(tmp_path)]
    assert subprocess.run(command, capture_output=True, timeout=300).returncode == 0
    processes = [subprocess.Popen([*command, "--force"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in processes]
    assert all(p.returncode == 0 for p in processes), outputs
    counts = Counter(r.run_id for r in ResultStore(tmp_path).records())
    assert len(counts) == 8 and set(counts.values()) == {2}  # the first run, then one redo each


def test_a_forced_campaign_skips_the_runs_another_forced_campaign_redid_after_it_began(tmp_path, plan_for):
    """Issue 30, defect 7, without a race: campaign B begins (and notes what the store holds), campaign A redoes
    every run with --force to its end, and only then does B come to admit its runs. Each was redone after B began,
    so B runs none of them (before, B redid them all: two concurrent --force runs duplicated 15 of 16 runs); a
    forced campaign begun afterwards redoes them all again."""
    from frontierco.harness.execute import run_plan

    store = ResultStore(tmp_path)
    plan = plan_for("good", time_limit=2.0, seeds=2)
    assert len(run_plan(plan, store)) == 2
    admitted: list[str] = []

    class ALateExecutor:
        jobs = 1

        def run(self, specs, admit=None):
            assert len(run_plan(plan, store, force=True)) == 2  # campaign A, start to end
            admitted.extend(spec.run_id for spec in specs if admit(spec))
            yield from ()

    assert run_plan(plan, store, executor=ALateExecutor(), force=True) == []
    assert admitted == []
    assert set(Counter(r.run_id for r in store.records()).values()) == {2}
    assert len(run_plan(plan, store, force=True)) == 2
