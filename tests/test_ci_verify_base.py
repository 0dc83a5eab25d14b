"""scripts/ci_verify_base.py: CI re-checks the records of every commit since the one CI last passed on (the marker
.ci/verified), not only HEAD's; without a usable marker, what HEAD's merge or commit brings in."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import load_script

IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, env=IDENTITY | {"PATH": "/usr/bin:/bin"}
    )
    return done.stdout.strip()


def _commit(repo: Path, name: str) -> str:
    (repo / name).write_text(name)
    _git(repo, "add", name)
    _git(repo, "commit", "-q", "-m", name)
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    _git(tmp_path, "init", "-q", "-b", "main")
    return tmp_path


def _base(repo: Path, marker_text: str | None) -> tuple[str | None, list[str]]:
    marker = repo / "verified"
    if marker_text is not None:
        marker.write_text(marker_text)
    warn: list[str] = []
    return load_script("ci_verify_base").verify_base(repo, marker, warn), warn


def test_the_marker_s_commit_when_it_is_an_ancestor_of_head(repo):
    landed = _commit(repo, "a")
    _commit(repo, "b")
    _commit(repo, "c")  # two commits since the landing: both re-checked, not only c's
    assert _base(repo, f"# the last commit CI passed on\n{landed}\n") == (landed, [])


def test_without_a_usable_marker_the_last_commit_or_the_whole_merge(repo):
    first = _commit(repo, "a")
    _commit(repo, "b")
    base, warn = _base(repo, None)
    assert base == first and warn == [f"{repo / 'verified'} names no commit"]
    base, warn = _base(repo, "0123456789abcdef0123456789abcdef01234567\n")  # a commit history does not hold
    assert base == first and "not an ancestor of HEAD" in warn[0]
    _git(repo, "checkout", "-q", "-b", "side", first)
    _commit(repo, "s1")
    _commit(repo, "s2")
    _git(repo, "checkout", "-q", "main")
    _git(repo, "merge", "-q", "--no-ff", "-m", "merge", "side")
    assert _base(repo, None)[0] == first  # the merge base of HEAD's parents: all of side's commits, and b
