"""Store the committed plain tours of 200,000 cities or more packed (problems/routing/tourpack.py), as the harness
stores new ones: each such solution file is re-encoded, written under its new content name, the records that name it
are rewritten to name the new file (they stay admitted), and the old file is removed. Each packed tour is checked to
read back to the same tour first, and the record then re-checks as any other (`verify --changed-since`).

    python scripts/pack_long_tours.py [--runs leaderboards/runs] [--dry-run]

A one-time migration of the tours written before the harness packed them; it rewrites record files in place (each
through a temporary file and a rename), which the append-only store otherwise never does.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from frontierco.app.verify import _instance
from frontierco.problems.routing import tourpack, tsp
from frontierco.registry import Registry
from frontierco.results import BY_HASH
from frontierco.workspace import Context


def pack(runs: Path, dry_run: bool = False) -> dict[str, str]:
    """Old solution path (relative to ``runs``) -> new one, for every plain TSP tour of PACK_FROM cities or more."""
    context = Context.discover()
    store, registry = context.records(runs), Registry.of(context)
    renamed: dict[str, str] = {}
    for record in store.records(only_admitted=True):
        name = record.solution_file
        if record.problem != "tsp" or name is None or name.startswith(BY_HASH) or name in renamed:
            continue
        data = store.load_solution(name)
        if "tour" not in data or len(data["tour"]) < tourpack.PACK_FROM:
            continue
        packed = tsp.packed_data(_instance(record, registry), data)
        if packed is None:
            continue
        renamed[name] = name if dry_run else store.save_solution(record.collection, record.run_id, packed)
    if dry_run or not renamed:
        return renamed
    store.rename_solutions(renamed)
    for old in renamed:
        (runs / old).unlink()
    return renamed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=Path, default=Path("leaderboards/runs"))
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    renamed = pack(args.runs, args.dry_run)
    print(f"{len(renamed)} tours {'to pack' if args.dry_run else 'packed'}")
    for old, new in renamed.items():
        print(f"  {old} -> {new}")


if __name__ == "__main__":
    main()
