"""LKH's candidate sets against instance size: the ladder that chose ``solvers/lkh``'s settings (issue 40).

One LKH run per instance and candidate setting, bounded by LKH's TOTAL_TIME_LIMIT (preprocessing included),
MAX_TRIALS lifted so that the time ends the run; prints the tour's gap (f - f*) / f to the collection's
reference, the leaderboard's |f - f*| / max(f, f*) for a tour no shorter than the reference. Settings:
``alpha`` (LKH's defaults: a subgradient ascent, then alpha-nearness), ``popmusic`` (POPMUSIC candidates,
INITIAL_PERIOD = 100), ``quadrant`` (QUADRANT candidates, no ascent, a greedy first tour).

    python benchmarks/lkh_ladder.py --collection frontierco-tsp-easy --seconds 30 --settings alpha popmusic \\
        --instances d1291 fl1577 pcb3038 fl3795 rl5915
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from frontierco.registry import Registry
from frontierco.solver import get_solver
from frontierco.workspace import Context

SETTINGS = {
    "alpha": "",
    "popmusic": "CANDIDATE_SET_TYPE = POPMUSIC\nINITIAL_PERIOD = 100\n",
    "quadrant": "CANDIDATE_SET_TYPE = QUADRANT\nMAX_CANDIDATES = 5\nSUBGRADIENT = NO\nINITIAL_TOUR_ALGORITHM = GREEDY\n",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", default="frontierco-tsp-easy")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--instances", nargs="+", required=True)
    args = parser.parse_args()
    from elkai import _elkai

    lkh = sys.modules[get_solver("lkh").load().__module__]
    registry = Registry.of(Context.discover())
    collection = registry.collection(args.collection)
    for name in args.instances:
        entry = collection.entry(name)
        instance = registry.load(entry)
        text = lkh.problem_text(instance)
        for setting in args.settings:
            started = time.perf_counter()
            params = f"RUNS = 1\nSEED = 1\nTRACE_LEVEL = 0\nMAX_TRIALS = {lkh.TRIALS}\nTIME_LIMIT = 1e9\n{SETTINGS[setting]}"
            params += f"TOTAL_TIME_LIMIT = {args.seconds}\nPROBLEM_FILE = :stdin:\n"
            tour = np.array(_elkai.solve_problem(params, text), dtype=np.int64)[: instance.n] - 1
            seconds = time.perf_counter() - started
            found = instance.weights.path_length(np.append(tour, tour[0])) if len(set(tour.tolist())) == instance.n else None
            gap = "no tour" if found is None or entry.reference is None else f"{100 * (found - entry.reference) / found:.4f}%"
            print(f"{name} n={instance.n} {setting}: {seconds:.1f} s, gap {gap}", flush=True)


if __name__ == "__main__":
    main()
