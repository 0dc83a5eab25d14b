"""Move the solution files over the size limit out of a record store (issue 30: the committed run data under
50 MB), the way the store keeps new ones: each file is copied, named by its sha256, into ``--to`` (default the
local solution cache), the records that name it are rewritten to name ``sha256:<hex>``, and with ``--delete``
the file is removed from the store. Nothing is lost: ``verify`` reads a moved solution from the cache or from
any of the context's solution folders (``FRONTIERCO_SOLUTIONS``; publish ``--to`` as such a mirror). The limit and
the cache are the context's (``Context.discover()``: ``FRONTIERCO_SOLUTION_LIMIT``, ``FRONTIERCO_CACHE``).

    python scripts/move_large_solutions.py [--runs leaderboards/runs] [--to DIR] [--delete] [--dry-run] [--budget-mb N]

``--budget-mb`` moves the smallest files first, at most N MB of them: a submission's diffs are limited, and a
removed binary file counts there at about 1.34 times its size (base85), so a large store moves over several.
A rewritten record stays admitted when its old line was: only the solution's name changed, to its hash.

A one-time migration of records written before the limit existed; it rewrites record files in place (each
through a temporary file and a rename), which the append-only store otherwise never does.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
from pathlib import Path

from frontierco.results import BY_HASH
from frontierco.workspace import Context


def move(
    runs: Path, to: Path, delete: bool, dry_run: bool = False, budget: int | None = None, context: Context | None = None
) -> dict[str, str]:
    """Old solution path (relative to ``runs``) -> ``sha256:<hex>`` for every solution file over the limit that
    a record names (with ``budget``: the smallest first, at most that many bytes in all); the files are copied into
    ``to`` and the records rewritten (unless ``dry_run``). The limit is ``context``'s (default: ``Context.discover()``)."""
    store = (context or Context.discover()).records(runs)
    moved: dict[str, str] = {}
    for record in store.records():
        name = record.solution_file
        if name is None or name.startswith(BY_HASH) or name in moved or not (runs / name).is_file():
            continue
        if (runs / name).stat().st_size > store.solution_limit:
            moved[name] = BY_HASH + hashlib.sha256((runs / name).read_bytes()).hexdigest()
    if budget is not None:
        chosen, total = {}, 0
        for name in sorted(moved, key=lambda name: ((runs / name).stat().st_size, name)):
            total += (runs / name).stat().st_size
            if total > budget:
                break
            chosen[name] = moved[name]
        moved = chosen
    if dry_run or not moved:
        return moved
    to.mkdir(parents=True, exist_ok=True)
    for name, address in moved.items():
        target = to / f"{address[len(BY_HASH) :]}.json.gz"
        if not target.is_file():
            shutil.copyfile(runs / name, target.with_suffix(".part"))
            os.replace(target.with_suffix(".part"), target)
    store.rename_solutions(moved)
    if delete:
        for name in moved:
            (runs / name).unlink()
    return moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=Path, default=Path("leaderboards/runs"))
    parser.add_argument("--to", type=Path, default=None, help="where the files go (default: the local solution cache)")
    parser.add_argument("--delete", action="store_true", help="remove the moved files from the store")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--budget-mb", type=float, default=None, help="move the smallest files first, at most this many MB")
    args = parser.parse_args()
    context = Context.discover()
    to = args.to or context.solution_cache
    budget = None if args.budget_mb is None else int(args.budget_mb * 1e6)
    found = move(args.runs, to, delete=False, dry_run=True, budget=budget, context=context)
    total = sum((args.runs / name).stat().st_size for name in found)
    moved = move(args.runs, to, args.delete, args.dry_run, budget, context)
    action = "found (dry run)" if args.dry_run else f"copied to {to}" + (" and removed from the store" if args.delete else "")
    limit = context.records(args.runs).solution_limit
    print(f"{len(moved)} solution files over {limit:,} bytes, {total / 1e6:.1f} MB, {action}")
    for name, address in sorted(moved.items()):
        print(f"  {name} -> {address}")


if __name__ == "__main__":
    main()
