"""How much run data the repository commits: the files under leaderboards/runs at a commit (HEAD by default),
from git's own object sizes, with the largest files and those over the solution size limit.

    python scripts/run_data_size.py [--commit HEAD] [--top 15] [--aim-mb 50] [--fail-above-mb MB]

It reports and exits 0: the aim (issue 30: committed run data under 50 MB) is printed beside the total. With
``--fail-above-mb`` it exits 1 when the total is over that many MB: CI (``.ci/run``) runs it with the current
ceiling, the aim itself: 50 MB (the solution files over the limit that were committed before it existed were
moved out with ``scripts/move_large_solutions.py --delete``).
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from frontierco.results import SOLUTION_LIMIT

ROOT = Path(__file__).resolve().parents[1]
RUNS = "leaderboards/runs"


def committed_sizes(commit: str, folder: str = RUNS, root: Path = ROOT) -> dict[str, int]:
    """Path -> size in bytes of every file under ``folder`` at ``commit`` of the repository at ``root`` (``git
    ls-tree -r -l``)."""
    listing = subprocess.run(["git", "ls-tree", "-r", "-l", commit, "--", folder], capture_output=True, text=True, check=True, cwd=root)
    sizes = {}
    for line in listing.stdout.splitlines():
        meta, path = line.split("\t", 1)
        kind, size = meta.split()[1], meta.split()[3]
        if kind == "blob":
            sizes[path] = int(size)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--aim-mb", type=float, default=50.0)
    parser.add_argument("--fail-above-mb", type=float, default=None)
    args = parser.parse_args()
    sizes = committed_sizes(args.commit)
    total = sum(sizes.values())
    solutions = {path: size for path, size in sizes.items() if "/solutions/" in path}
    over = {path: size for path, size in solutions.items() if size > SOLUTION_LIMIT}
    mb = 1e6
    print(f"{RUNS} at {args.commit}: {len(sizes)} files, {total / mb:.1f} MB (aim: under {args.aim_mb:g} MB)")
    print(f"  solution files: {len(solutions)}, {sum(solutions.values()) / mb:.1f} MB")
    print(f"  records and the rest: {(total - sum(solutions.values())) / mb:.1f} MB")
    print(f"  solution files over {SOLUTION_LIMIT / mb:g} MB: {len(over)}, {sum(over.values()) / mb:.1f} MB")
    print(f"  without them: {(total - sum(over.values())) / mb:.1f} MB")
    if args.top > 0:
        print(f"largest {args.top}:")
    for path, size in sorted(sizes.items(), key=lambda item: -item[1])[: args.top]:
        print(f"  {size / mb:8.2f} MB  {path}")
    if args.fail_above_mb is not None:
        verdict = over_ceiling(total, args.fail_above_mb)
        if verdict is not None:
            raise SystemExit(verdict)


def over_ceiling(total: int, ceiling_mb: float) -> str | None:
    """What CI says when ``total`` bytes of committed run data are over ``ceiling_mb`` MB; None when they are not."""
    if total <= ceiling_mb * 1e6:
        return None
    return f"committed run data {total / 1e6:.1f} MB is over {ceiling_mb:g} MB: move solution files out (scripts/move_large_solutions.py)"


if __name__ == "__main__":
    main()
