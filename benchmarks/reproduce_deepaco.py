"""Run DeepACO with neural local search (Ye et al., NeurIPS 2023) with the authors' TSP weights on the authors'
own TSP test sets (`checkpoints/deepaco/data/tsp/testDataset-{100,500,1000}.pt` of the offline mirror, 128
uniform instances each) in the authors' test setting: 48 ants, T = 10 iterations, NLS on every ant. The
mirror has no reference lengths for these sets, so the script computes them with LKH (the suite's `lkh`
solver, `--lkh-seconds` per instance) and prints both means. One thread.

    python benchmarks/reproduce_deepaco.py [--instances 128] [--sizes 100 500 1000] [--lkh-seconds 10]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from frontierco.problems import TSPInstance
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.solver import Budget, get_solver
from frontierco.workspace import Context


def best_length(solver: object, instance: TSPInstance, budget: Budget) -> float:
    best = np.inf
    for solution in solver.solve(instance, budget):  # type: ignore[attr-defined]
        best = min(best, instance.weights.path_length(np.append(solution.tour, solution.tour[0])))
    return float(best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=128)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--lkh-seconds", type=float, default=10.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    files = Context.discover().files  # the mirror: FRONTIERCO_MIRROR
    mirror = files.mirror
    assert mirror is not None, "needs the offline mirror (FRONTIERCO_MIRROR)"
    deepaco = get_solver("deepaco").load()(iterations=10)
    deepaco.files = files  # its published weights, as the worker gives them from the job
    lkh = get_solver("lkh").load()()
    for solver in (deepaco, lkh):
        solver.setup()
    for size in args.sizes:
        data = torch.load(mirror / f"checkpoints/deepaco/data/tsp/testDataset-{size}.pt", weights_only=True).numpy()
        ours, references, started = [], [], time.perf_counter()
        for i, points in enumerate(data[: args.instances].astype(np.float64)):
            instance = TSPInstance(f"deepaco-{size}-{i}", EdgeWeights("EXACT_2D", coords=points))
            ours.append(best_length(deepaco, instance, Budget(time_limit=3600.0, seed=i)))
            references.append(best_length(lkh, instance, Budget(time_limit=args.lkh_seconds, seed=i)))
        mean, reference = float(np.mean(ours)), float(np.mean(references))
        print(
            f"TSP-{size}, {len(ours)} instances, {time.perf_counter() - started:.0f} s: DeepACO+NLS T=10 {mean:.3f}, "
            f"LKH ({args.lkh_seconds:g} s) {reference:.3f}: {100 * (mean / reference - 1):.2f}% above"
        )


if __name__ == "__main__":
    main()
