"""Which of DIMES's published networks serves which instance size best, measured the way the suite runs it.

For uniform random instances of each size (seeded, points in the unit square), the `dimes` solver runs with each
candidate network forced (`network=<trained size>`) for the same time limit on one thread, and the script prints
the mean final tour length per network and its excess over the best network at that size. The solver's
"auto" choice (`trained_size` in `solvers/dimes/solver.py`) follows these numbers.

    python benchmarks/dimes_networks.py [--instances 6] [--seconds 10] [--sizes 200 300 500 1000 2000]
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

from frontierco.problems import TSPInstance
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.solver import Budget, get_solver

# the networks worth trying at a size: the full-graph TSP-100 one only where its n x n graph is small
CANDIDATES = {
    200: (100, 500, 1000),
    300: (100, 10000),
    500: (500, 1000, 10000),
    1000: (500, 1000, 10000),
    2000: (1000, 10000),
    5000: (1000, 10000),
}


def final_length(network: int, instance: TSPInstance, budget: Budget) -> float:
    solver = get_solver("dimes").load()(network=network)
    solver.setup()
    best = np.inf
    for solution in solver.solve(instance, budget):
        best = min(best, instance.weights.path_length(np.append(solution.tour, solution.tour[0])))
    return float(best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 300, 500, 1000, 2000])
    args = parser.parse_args()
    torch.set_num_threads(1)
    for size in args.sizes:
        instances = [
            TSPInstance(f"uniform-{size}-{i}", EdgeWeights("EXACT_2D", coords=np.random.default_rng([size, i]).random((size, 2))))
            for i in range(args.instances)
        ]
        means = {
            network: float(np.mean([final_length(network, inst, Budget(args.seconds, seed=i)) for i, inst in enumerate(instances)]))
            for network in CANDIDATES[size]
        }
        best = min(means.values())
        row = ", ".join(f"net {network}: {mean:.4f} (+{100 * (mean / best - 1):.2f}%)" for network, mean in means.items())
        print(f"n={size}, {args.instances} instances, {args.seconds:g} s each: {row}", flush=True)


if __name__ == "__main__":
    main()
