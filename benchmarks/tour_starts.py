"""The numba search's start, by size: the Hilbert curve against the greedy-edge tour (issue 40, lkh v9). For each
start: its length, the 2-opt + Or-opt local optimum reached from it, then the LK-style local optimum (``DEPTH``
flips), with the CPU seconds of each descent (process time: the numbers hold on a busy machine). Lengths are given
above the Beardwood-Halton-Hammersley estimate 0.7124 sqrt(n A) of the optimum of uniform points (a scale, not a
bound: finite instances sit a little above it). Uniform DIMACS instances (portgen, seed 7: none of the challenge's).

    python benchmarks/tour_starts.py --sizes 100000 1000000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from frontierco.kit.greedy_tour import greedy_tour
from frontierco.kit.greedy_tour import warm_up as warm_greedy
from frontierco.kit.solverkit import hilbert_index
from frontierco.kit.tour_search import LocalSearch, TourCosts, candidates
from frontierco.kit.tour_search import warm_up as warm_search
from frontierco.problems.routing.dimacs import dimacs_uniform

NEIGHBOURS, DEPTH = 8, 10  # as solvers/lkh


def descend(search: LocalSearch) -> float:
    """CPU seconds to the search's local optimum."""
    began = time.process_time()
    while not search.at_local_optimum:
        search.descend(100_000)
    return time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[100000, 1000000])
    args = parser.parse_args()
    warm_search()
    warm_greedy()
    print(f"{'n':>9} {'start':>8} {'built s':>7} {'start %':>8} {'2-opt+Or %':>10} {'cpu s':>6} {'LK %':>6} {'cpu s':>6}", flush=True)
    for n in args.sizes:
        instance = dimacs_uniform(f"E{n}", 7, n).instance
        points = np.asarray(instance.weights.coords, dtype=np.float64)[:, :2]
        costs = TourCosts.of(instance)
        assert costs is not None
        scale = 0.7124 * np.sqrt(n * np.prod(np.ptp(points, axis=0)))
        neighbours = candidates(costs, points, NEIGHBOURS)
        for name in ("hilbert", "greedy"):
            began = time.process_time()
            if name == "hilbert":
                start = np.argsort(hilbert_index(points), kind="stable")
            else:
                start = greedy_tour(costs, neighbours, points)
            built = time.process_time() - began
            search = LocalSearch(start, costs, neighbours)
            first = descend(search)
            local = search.length
            search.deepen(DEPTH)
            deep = descend(search)
            above = [100 * (length / scale - 1) for length in (costs.length(start), local, search.length)]
            row = f"{n:>9} {name:>8} {built:>7.1f} {above[0]:>8.2f} {above[1]:>10.2f} {first:>6.1f} {above[2]:>6.2f} {deep:>6.1f}"
            print(row, flush=True)


if __name__ == "__main__":
    main()
