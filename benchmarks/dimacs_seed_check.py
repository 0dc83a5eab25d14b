"""Are the suite's DIMACS random instances the challenge's? A check of the seed convention against FrontierCO's
best-known tour lengths, which are all there is to compare with (the instance files are not in the mirror).

The convention checked is the challenge README's: ``E<size>.<i>`` is ``portgen n seed`` and ``C<size>.<i>`` is
``portcgen n seed`` with seed n for i = 0 and 10 n + i for i > 0 (``frontierco.problems.routing.dimacs.dimacs_seed``;
an earlier guess, seed n + i, is refuted: its .1 and .2 tours came out 0.1-0.3% below FrontierCO's values).
Each instance is made by the suite's generator and solved by LKH for ``--seconds``; its tour, an upper bound,
is compared with FrontierCO's value. A tour shorter than FrontierCO's best-known by more than rounding, or a
pattern across .0/.1/.2 that does not follow FrontierCO's, refutes the convention; tours within a small
fraction above every value (the differences between instances of one size are 0.1-0.6%) support it.

    python benchmarks/dimacs_seed_check.py [--seconds 120] [--names E10k.0 E10k.1 E10k.2 C10k.0 C10k.1 C10k.2]
"""

from __future__ import annotations

import argparse
import csv
import re
from pathlib import Path

from frontierco.problems import evaluate
from frontierco.problems.routing.dimacs import SIZES, dimacs_instance, dimacs_seed
from frontierco.solver import Budget, Proven, get_solver
from frontierco.workspace import Context

NAME = re.compile(r"^([EC])(\d+[kM])\.(\d+)$")


def bks_values() -> dict[str, float]:
    """FrontierCO's TSP hard-set values, by instance name (from the mirror's frontierco/bks.csv)."""
    path = (Context.discover().files.mirror or Path("../shared/data")) / "frontierco" / "bks.csv"  # FRONTIERCO_MIRROR
    with path.open() as handle:
        return {row["instance"]: float(row["bks"]) for row in csv.DictReader(handle) if row["problem"] == "TSP"}


def instance_of(name: str):  # type: ignore[no-untyped-def]
    """The suite's instance for a DIMACS name under the README's convention, and its seed."""
    match = NAME.match(name)
    if match is None or match.group(2) not in SIZES:
        raise SystemExit(f"not a DIMACS random instance name: {name}")
    kind, size, index = match.groups()
    n = SIZES[size]
    seed = dimacs_seed(n, int(index))
    return dimacs_instance(name, seed, n, clustered=kind == "C").instance, seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--names", nargs="+", default=["E10k.0", "E10k.1", "E10k.2", "C10k.0", "C10k.1", "C10k.2"])
    args = parser.parse_args()
    known = bks_values()
    solver = get_solver("lkh").load()()
    solver.setup()
    print(f"{'instance':<9} {'seed':>6} {'LKH tour':>13} {'FrontierCO':>13} {'(tour - bks) / bks':>19}", flush=True)
    for name in args.names:
        instance, seed = instance_of(name)
        best = None
        for found in solver.solve(instance, Budget(args.seconds)):
            length = evaluate(instance, found.solution if isinstance(found, Proven) else found).objective
            best = length if best is None or length < best else best
        reference = known.get(name)
        change = "" if best is None or reference is None else f"{100 * (best - reference) / reference:+.3f}%"
        print(f"{name:<9} {seed:>6} {best or float('nan'):>13,.0f} {reference or float('nan'):>13,.0f} {change:>19}", flush=True)


if __name__ == "__main__":
    main()
