"""harness/tree.py: a process tree read from /proc, the memory it holds, and its end."""

import os
import subprocess
import sys
import time

import pytest

from frontierco.harness.tree import children, descendants, kill_all, tree_megabytes

# a child that starts a grandchild in a session of its own (as a solver escaping its group would), then waits
SCRIPT = """
import subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
time.sleep(60)
"""


def _wait_for(condition, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def tree():
    parent = subprocess.Popen([sys.executable, "-c", SCRIPT])
    yield parent
    kill_all(descendants(parent.pid) + [parent.pid])
    parent.wait(timeout=30)


def test_the_tree_is_found_by_parent_id_even_across_sessions(tree):
    assert _wait_for(lambda: len(descendants(tree.pid)) == 1)
    (grandchild,) = descendants(tree.pid)
    assert children(tree.pid) == [grandchild]
    assert os.getsid(grandchild) == grandchild != os.getsid(tree.pid)
    assert tree.pid in children(os.getpid())


def test_the_tree_holds_memory_and_dies_together(tree):
    assert _wait_for(lambda: len(descendants(tree.pid)) == 1)
    pids = [tree.pid, *descendants(tree.pid)]
    assert tree_megabytes(pids) > tree_megabytes(pids[:1]) > 0
    kill_all(pids)
    assert tree.wait(timeout=30) == -9
    assert _wait_for(lambda: not os.path.exists(f"/proc/{pids[1]}") or _zombie(pids[1]))


def test_gone_processes_are_skipped():
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait(timeout=30)
    kill_all([done.pid])  # no error for a process that is gone
    assert tree_megabytes([done.pid]) == 0.0 and children(done.pid) == [] and descendants(done.pid) == []


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
