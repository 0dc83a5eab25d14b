"""Where LKH stops paying against the numba LK-style search, by size: the ladder that set ``solvers/lkh``'s
``NUMBA_FROM`` (issue 40). Uniform DIMACS instances (portgen, seed 7: none of the challenge's), each solved by
the lkh solver twice at one budget, once forced to its LKH path (QUADRANT candidates from 100,000 cities, one run)
and once to its numba path (greedy-edge tour, LK-style moves of ``DEPTH`` flips, iterated local search); prints
the last tour's length and the numba one's change against LKH. Seconds are wall seconds of the solver's own
budget on this machine, so run it with nothing else on the core.

    python benchmarks/tsp_size_ladder.py --sizes 100000 316228 1000000 --seconds 60
"""

from __future__ import annotations

import argparse
import sys
import time

from frontierco.problems import evaluate
from frontierco.problems.routing.dimacs import dimacs_uniform
from frontierco.solver import Budget, get_solver


def last_length(solver: object, instance: object, seconds: float, numba_from: int) -> tuple[float, float]:
    """The length of the last tour the solver yields with NUMBA_FROM set to ``numba_from``, and its wall time."""
    module = sys.modules[type(solver).__module__]
    module.NUMBA_FROM = numba_from  # type: ignore[attr-defined]
    started, last = time.monotonic(), None
    for found in solver.solve(instance, Budget(seconds)):  # type: ignore[attr-defined]
        last = found
    return evaluate(instance, last).objective, time.monotonic() - started  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[100000, 316228, 1000000])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    solver = get_solver("lkh").load()()
    solver.setup()
    print(f"{'n':>9} {'seconds':>7} {'LKH':>15} {'numba LK':>15} {'numba vs LKH':>12}", flush=True)
    for n in args.sizes:
        instance = dimacs_uniform(f"E{n}", 7, n).instance
        lkh, _ = last_length(solver, instance, args.seconds, n + 1)
        numba, _ = last_length(solver, instance, args.seconds, n)
        print(f"{n:>9} {args.seconds:>7.0f} {lkh:>15,.0f} {numba:>15,.0f} {100 * (numba - lkh) / lkh:>+11.2f}%", flush=True)


if __name__ == "__main__":
    main()
