"""scripts/run_data_size.py, the CI check of issue 30: the committed run data is counted from git's objects at a
commit (not the working tree), and the check fails above its ceiling."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import SCRIPTS, load_script

SCRIPT = SCRIPTS / "run_data_size.py"


def _script():
    return load_script("run_data_size")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_sizes_are_those_committed_and_the_ceiling_fails_the_check(tmp_path: Path) -> None:
    script = _script()
    runs = tmp_path / "leaderboards" / "runs" / "c" / "solutions"
    runs.mkdir(parents=True)
    (runs / "a.json.gz").write_bytes(b"x" * 1000)
    (tmp_path / "other.txt").write_bytes(b"y" * 5000)  # outside the run data
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "one")
    (runs / "b.json.gz").write_bytes(b"z" * 3000)  # not committed: not counted
    sizes = script.committed_sizes("HEAD", root=tmp_path)
    assert sizes == {"leaderboards/runs/c/solutions/a.json.gz": 1000}
    assert script.over_ceiling(sum(sizes.values()), 0.001) is None
    verdict = script.over_ceiling(sum(sizes.values()), 0.0005)
    assert verdict is not None and "over 0.0005 MB" in verdict


def test_the_command_exits_non_zero_above_the_ceiling_and_zero_below() -> None:
    command = [sys.executable, str(SCRIPT), "--top", "0", "--fail-above-mb"]
    root = SCRIPT.parents[1]
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    assert subprocess.run([*command, "1e9"], capture_output=True, text=True).returncode == 0
    failed = subprocess.run([*command, "0"], capture_output=True, text=True)
    assert failed.returncode == 1 and "is over 0 MB" in failed.stderr
