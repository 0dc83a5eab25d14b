"""Give the records written before the ``unrounded`` field their unrounded objective (issue 44: FrontierCO's
evaluator beside the format's rounding on the FrontierCO section), computed by the suite from each record's stored
solution and its instance (``Problem.unrounded``), never taken from anywhere else:

    python scripts/record_unrounded.py [--runs leaderboards/runs] [--collection C ...] [--dry-run]

Only feasible records of a problem that declares ``unrounded`` (TSP, CVRP), whose stored solution re-checks to the
record's objective, get the field; the others are named and left as they are. A one-time migration: it rewrites
record files in place (``ResultStore.rewrite``: a rewritten line stays admitted when its old line was), which the
append-only store otherwise never does. The instances come from the context's registry (``FRONTIERCO_MIRROR``).
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path
from typing import Any

from frontierco.app.verify import verify_record
from frontierco.errors import FrontiercoError
from frontierco.problems import get_problem
from frontierco.registry import Registry
from frontierco.results import FEASIBLE_STATUSES, ResultStore, read_lines
from frontierco.workspace import Context


def unrounded_values(store: ResultStore, path: Path, registry: Registry, skipped: list[str]) -> dict[tuple[str, str], float]:
    """(run id, solution file) -> the unrounded objective, for each record of ``path`` that lacks it and can have
    it; ``skipped`` hears why the others that could not."""
    found: dict[tuple[str, str], float] = {}
    for _, record in read_lines(path):
        if record is None or record.unrounded is not None or get_problem(record.problem).unrounded is None:
            continue
        if record.status not in FEASIBLE_STATUSES or record.solution_file is None:
            continue
        try:
            check = verify_record(store, record, registry)
        except (FrontiercoError, OSError, ValueError, KeyError, EOFError) as exc:
            skipped.append(f"{record.run_id} ({record.collection}/{record.instance}): not re-checked: {exc}")
            continue
        if not check.agrees:
            skipped.append(f"{record.run_id} ({record.collection}/{record.instance}): re-checks to {check.evaluation.objective}")
        elif (value := check.unrounded) is not None:  # (None: distances that are not Euclidean, nothing to unround)
            found[(record.run_id, record.solution_file)] = value
    return found


def _filled(data: dict[str, Any], values: dict[tuple[str, str], float]) -> dict[str, Any] | None:
    value = values.get((str(data.get("run_id")), str(data.get("solution_file"))))
    return data | {"unrounded": value} if value is not None and data.get("unrounded") is None else None


def record_unrounded(
    store: ResultStore, registry: Registry, collections: list[str] | None = None, dry_run: bool = False
) -> tuple[int, list[str]]:
    """How many records of ``store`` got (or, with ``dry_run``, would get) the unrounded objective, their instances
    from ``registry``, and why others did not."""
    count, skipped = 0, list[str]()
    for path in sorted(store.root.glob("*/*.jsonl")):
        if collections and path.parent.name not in collections:
            continue
        values = unrounded_values(store, path, registry, skipped)
        if dry_run or not values:
            count += len(values)
            continue

        count += store.rewrite(path, partial(_filled, values=values))
    return count, skipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=Path, default=Path("leaderboards/runs"))
    parser.add_argument("--collection", action="append", help="only these collections (repeatable)")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    context = Context.discover()
    count, skipped = record_unrounded(context.records(args.runs), Registry.of(context), args.collection, args.dry_run)
    print(f"{count} records {'would get' if args.dry_run else 'got'} their unrounded objective")
    for line in skipped:
        print(f"  left as it is: {line}")


if __name__ == "__main__":
    main()
