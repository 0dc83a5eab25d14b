"""Reproduce DIMES's TSP-500/1000 results without active search (Qiu, Sun, Yang, NeurIPS 2022, Table 1, rows
"DIMES RL+S") with the authors' weights, on the test sets the paper uses (Fu et al.'s 128 uniform instances,
`tsp-random/test-{500,1000}-coords.npy` of the offline mirror, with the mirror's reference lengths, which are
0.15-0.3% above optimal).

Settings of the authors' scripts: greedy "G" = best of 500 greedy decodings from distinct random starts;
sampling "S" = best of 4,096 tours sampled at temperature 0.01; no 2-opt. One thread.

    python benchmarks/reproduce_dimes.py [--instances 128] [--sizes 500 1000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from frontierco.registry import default_mirror
from frontierco.solver import load_solver_module

PAPER_SAMPLING = {500: (18.84, 13.84), 1000: (26.36, 14.01)}  # RL+S: mean length, gap to Concorde (%)


def tour_length(points: np.ndarray, tour: np.ndarray) -> float:
    return float(np.linalg.norm(points[tour] - points[np.roll(tour, -1)], axis=1).sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=128)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000])
    args = parser.parse_args()
    torch.set_num_threads(1)
    solver = load_solver_module("dimes", "solver")
    decode = load_solver_module("dimes", "decode")
    mirror = default_mirror()
    assert mirror is not None, "needs the offline mirror (FRONTIERCO_MIRROR)"
    for size in args.sizes:
        network = solver.load_network(size)
        coords = np.load(mirror / f"tsp-random/test-{size}-coords.npy")[: args.instances].astype(np.float64)
        references = np.load(mirror / f"tsp-random/test-{size}-costs.npy")[: args.instances]
        greedy, sampled, started = [], [], time.perf_counter()
        for i, points in enumerate(coords):
            neighbours, theta = solver.heatmap(network, points, full_graph=False)
            starts = np.random.default_rng(i).permutation(size)[:500]
            greedy.append(min(tour_length(points, t) for t in decode.construct(starts, neighbours, theta, points, 0.0, i)))
            starts = np.random.default_rng(i).integers(size, size=4096)
            sampled.append(min(tour_length(points, t) for t in decode.construct(starts, neighbours, theta, points, 0.01, i)))
        reference = float(references.mean())
        paper_length, paper_gap = PAPER_SAMPLING[size]
        print(
            f"TSP-{size}, {len(coords)} instances, {time.perf_counter() - started:.0f} s: reference {reference:.3f}; "
            f"G {np.mean(greedy):.3f} ({100 * (np.mean(greedy) / reference - 1):.2f}%), "
            f"S {np.mean(sampled):.3f} ({100 * (np.mean(sampled) / reference - 1):.2f}%); "
            f"paper RL+S {paper_length} ({paper_gap}% above Concorde)"
        )


if __name__ == "__main__":
    main()
