"""LKH's candidate sets against instance size: the ladder that chose ``solvers/lkh``'s settings (issue 40).

One LKH run per instance and candidate setting, bounded by LKH's TOTAL_TIME_LIMIT (preprocessing included),
MAX_TRIALS lifted so that the time ends the run; prints the tour's gap (f - f*) / f to the collection's
reference, the leaderboard's |f - f*| / max(f, f*) for a tour no shorter than the reference. Settings:
``alpha`` (LKH's defaults: a subgradient ascent, then alpha-nearness), ``popmusic`` (POPMUSIC candidates,
INITIAL_PERIOD = 100), ``quadrant`` (QUADRANT candidates, no ascent, a greedy first tour), and without the ascent:
``popmusic-flat`` (POPMUSIC), ``delaunay`` (Delaunay graph), ``quadrant8`` (QUADRANT, 8 candidates).
``--start-share s`` starts every run from the solver's numba local optimum, searched for s of ``--seconds``
first (as ``solvers/lkh`` does from 5,000 cities), LKH getting the rest.

    python benchmarks/lkh_ladder.py --collection frontierco-tsp-easy --seconds 30 --settings alpha popmusic \\
        --instances d1291 fl1577 pcb3038 fl3795 rl5915
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from frontierco.manifests import InstanceEntry
from frontierco.registry import Registry
from frontierco.solver import get_solver
from frontierco.workspace import Context

SETTINGS = {
    "alpha": "",
    "popmusic": "CANDIDATE_SET_TYPE = POPMUSIC\nINITIAL_PERIOD = 100\n",
    "quadrant": "CANDIDATE_SET_TYPE = QUADRANT\nMAX_CANDIDATES = 5\nSUBGRADIENT = NO\nINITIAL_TOUR_ALGORITHM = GREEDY\n",
    "popmusic-flat": "CANDIDATE_SET_TYPE = POPMUSIC\nMAX_CANDIDATES = 5\nSUBGRADIENT = NO\nINITIAL_TOUR_ALGORITHM = GREEDY\n",
    "delaunay": "CANDIDATE_SET_TYPE = DELAUNAY\nMAX_CANDIDATES = 5\nSUBGRADIENT = NO\nINITIAL_TOUR_ALGORITHM = GREEDY\n",
    "quadrant8": "CANDIDATE_SET_TYPE = QUADRANT\nMAX_CANDIDATES = 8\nSUBGRADIENT = NO\nINITIAL_TOUR_ALGORITHM = GREEDY\n",
}


def numba_start(lkh: object, instance: object, seconds: float) -> np.ndarray:
    """The solver's own start: its first tour improved by the numba search for ``seconds``."""
    from frontierco.kit.solverkit import Clock
    from frontierco.kit.tour_search import LocalSearch, TourCosts, anytime, candidates

    costs = TourCosts.of(instance)
    points = np.asarray(instance.weights.coords, dtype=np.float64)[:, :2]
    best = lkh.first_tour(instance)
    search = LocalSearch(best, costs, candidates(costs, points, lkh.NEIGHBOURS))
    for better in anytime(search, Clock(seconds, margin=0.0), 0, depth=lkh.DEPTH, kicks=False):
        best = better
    return best


def gap(found: float | None, entry: InstanceEntry) -> str:
    """(f - f*) / f in percent against the entry's reference, or why there is none."""
    if found is None:
        return "no tour"
    if entry.reference is None or entry.reference.value is None:
        return "no reference"
    return f"{100 * (found - entry.reference.value) / found:.4f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", default="frontierco-tsp-easy")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--instances", nargs="+", required=True)
    parser.add_argument("--start-share", type=float, default=0.0, help="share of --seconds for the numba start")
    args = parser.parse_args()
    from elkai import _elkai

    lkh = sys.modules[get_solver("lkh").load().__module__]
    registry = Registry.of(Context.discover())
    collection = registry.collection(args.collection)
    for name in args.instances:
        entry = collection.entry(name)
        instance = registry.load(entry)
        text = lkh.problem_text(instance)
        start = ""
        if args.start_share > 0:
            began = time.perf_counter()
            tour = numba_start(lkh, instance, args.seconds * args.start_share)
            found = instance.weights.path_length(np.append(tour, tour[0]))
            print(f"{name} n={instance.n} numba start: {time.perf_counter() - began:.1f} s, gap {gap(found, entry)}", flush=True)
            start = f"INITIAL_TOUR_FILE = {lkh.tour_file(Path(tempfile.mkdtemp()) / 'start.tour', tour)}\n"
        seconds = args.seconds * (1 - args.start_share)
        for setting in args.settings:
            started = time.perf_counter()
            params = f"RUNS = 1\nSEED = 1\nTRACE_LEVEL = 0\nMAX_TRIALS = {lkh.TRIALS}\nTIME_LIMIT = 1e9\n{SETTINGS[setting]}"
            params += f"{start}TOTAL_TIME_LIMIT = {seconds}\nPROBLEM_FILE = :stdin:\n"
            tour = np.array(_elkai.solve_problem(params, text), dtype=np.int64)[: instance.n] - 1
            found = instance.weights.path_length(np.append(tour, tour[0])) if len(set(tour.tolist())) == instance.n else None
            print(f"{name} n={instance.n} {setting}: {time.perf_counter() - started:.1f} s, gap {gap(found, entry)}", flush=True)


if __name__ == "__main__":
    main()
