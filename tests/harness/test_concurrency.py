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
