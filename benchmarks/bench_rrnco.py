"""RRNCO inference time per instance on this CPU, by size: multi-start greedy decoding and the x8 augmented
pass (one thread, the shipped acvrp checkpoint, ACVRP instances of Monaco), with the cost of each stage.

    python benchmarks/bench_rrnco.py [--sizes 50 100 200 500] [--instances 3] [--threads 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from frontierco.generators.realcity import realcity_acvrp
from frontierco.solver import Budget, get_solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200, 500])
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    solver = get_solver("rrnco").load()(sampling=False)
    solver.setup()
    print("customers | greedy s (mean) | greedy + x8 s (mean) | x8 cost / greedy cost")
    for n in args.sizes:
        greedy_times, total_times, ratios = [], [], []
        for seed in range(args.instances):
            instance = realcity_acvrp(f"bench-{n}-{seed}", seed, "monaco", n).instance
            started = time.perf_counter()
            stamps, costs = [], []
            for solution in solver.solve(instance, Budget(time_limit=600.0, seed=0, threads=args.threads)):
                stamps.append(time.perf_counter() - started)
                costs.append(sum(instance.weights.path_length(np.concatenate(([0], r, [0]))) for r in solution.routes))
            greedy_times.append(stamps[0])
            total_times.append(time.perf_counter() - started)
            ratios.append(costs[-1] / costs[0])
        print(f"{n:9d} | {np.mean(greedy_times):15.2f} | {np.mean(total_times):20.2f} | {np.mean(ratios):.3f}")


if __name__ == "__main__":
    main()
