"""The commit CI re-checks records from (``.ci/run``: ``frontierco verify --changed-since $(python
scripts/ci_verify_base.py)``): every record added or admitted since the last commit CI passed on, not only by the
last commit (a landing merges many).

    python scripts/ci_verify_base.py [--marker .ci/verified] [--repo .]

The marker file ``.ci/verified`` holds the hash of the last commit CI passed on (its first word; ``#`` lines are
comments); whoever lands a change after CI passes on it puts that commit's hash there (``git rev-parse HEAD``) and
commits it. Printed: that commit when it is an ancestor of HEAD; else, with a warning on stderr
(the marker missing, unreadable, or naming a commit that history no longer holds), the merge base of HEAD's
parents when HEAD is a merge (everything the merge brings in), else ``HEAD~1``; nothing at all (exit 1) when HEAD
has no parent.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

MARKER = Path(".ci") / "verified"


def _git(repo: Path, *args: str) -> str | None:
    """git's output, stripped; None when it fails."""
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def marked(marker: Path) -> str | None:
    """The commit a marker file names (its first word that is not in a comment), None when there is none."""
    try:
        lines = marker.read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    words = [line.split()[0] for line in lines if line.strip() and not line.lstrip().startswith("#")]
    return words[0] if words else None


def verify_base(repo: Path, marker: Path, warn: list[str]) -> str | None:
    """The commit to re-check records from (``warn`` hears why when it is not the marker's)."""
    named = marked(marker)
    if named is not None:
        commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{named}^{{commit}}")
        if commit is not None and _git(repo, "merge-base", "--is-ancestor", commit, "HEAD") is not None:
            return commit
        warn.append(f"{marker} names {named[:40]!r}, which is not an ancestor of HEAD")
    else:
        warn.append(f"{marker} names no commit")
    parents = (_git(repo, "rev-list", "--parents", "-n", "1", "HEAD") or "").split()[1:]
    if len(parents) >= 2:
        return _git(repo, "merge-base", "--octopus", *parents)
    return parents[0] if parents else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=Path("."))
    parser.add_argument("--marker", type=Path, default=None, help="default: .ci/verified in the repository")
    args = parser.parse_args()
    warn: list[str] = []
    base = verify_base(args.repo, args.marker or args.repo / MARKER, warn)
    for line in warn:
        print(f"warning: {line}; re-checking from {base or 'nothing (HEAD has no parent)'}", file=sys.stderr)
    if base is None:
        raise SystemExit(1)
    print(base)


if __name__ == "__main__":
    main()
