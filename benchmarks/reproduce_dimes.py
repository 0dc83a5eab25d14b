"""Reproduce DIMES's TSP-500/1000/10000 results without active search (Qiu, Sun, Yang, NeurIPS 2022, Table 1, rows
"DIMES RL+S") with the authors' weights, on the test sets the paper uses (Fu et al.'s uniform instances,
`tsp-random/test-{500,1000,10000}-coords.npy` of the offline mirror: 128, 128 and 16 of them; the mirror's
reference lengths for 500 and 1000 are 0.15-0.3% above optimal, and it has none for 10000, where the script
compares mean lengths with the paper's only).

Settings of the authors' scripts: greedy "G" = best of 500 greedy decodings from distinct random starts;
sampling "S" = best of 4,096 tours sampled at temperature 0.01; no 2-opt. One thread.

    python benchmarks/reproduce_dimes.py [--instances 128] [--sizes 500 1000 10000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from frontierco.solver import load_solver_module
from frontierco.workspace import Context

PAPER_SAMPLING = {500: 18.84, 1000: 26.36, 10000: 85.75}  # RL+S: mean length
CHUNK_NODES = 20_000_000  # tour entries decoded at once (4,096 tours of 10,000 nodes would hold 330 MB)


def tour_length(points: np.ndarray, tour: np.ndarray) -> float:
    return float(np.linalg.norm(points[tour] - points[np.roll(tour, -1)], axis=1).sum())


def best_tour_length(
    decode: object, starts: np.ndarray, neighbours: np.ndarray, theta: np.ndarray, points: np.ndarray, tau: float, seed: int
) -> float:
    """The shortest of the tours decoded from ``starts`` (in chunks of at most CHUNK_NODES entries; one chunk
    for 500 and 1000 nodes, so that those results do not depend on the chunking)."""
    return min(
        tour_length(points, tour)
        for c, chunk in enumerate(np.array_split(starts, -(-len(starts) * len(points) // CHUNK_NODES)))
        for tour in decode.construct(chunk, neighbours, theta, points, tau, seed + c)  # type: ignore[attr-defined]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=128)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 10000])
    args = parser.parse_args()
    torch.set_num_threads(1)
    solver = load_solver_module("dimes", "solver")
    decode = load_solver_module("dimes", "decode")
    files = Context.discover().files  # the mirror: FRONTIERCO_MIRROR
    mirror = files.mirror
    assert mirror is not None, "needs the offline mirror (FRONTIERCO_MIRROR)"
    for size in args.sizes:
        network = solver.load_network(size, files)
        coords = np.load(mirror / f"tsp-random/test-{size}-coords.npy")[: args.instances].astype(np.float64)
        costs = mirror / f"tsp-random/test-{size}-costs.npy"
        greedy, sampled, started = [], [], time.perf_counter()
        for i, points in enumerate(coords):
            neighbours, theta = solver.heatmap(network, points, full_graph=False)
            starts = np.random.default_rng(i).permutation(size)[:500]
            greedy.append(best_tour_length(decode, starts, neighbours, theta, points, 0.0, i))
            starts = np.random.default_rng(i).integers(size, size=4096)
            sampled.append(best_tour_length(decode, starts, neighbours, theta, points, 0.01, i))
            print(f"  TSP-{size} #{i}: G {greedy[-1]:.3f}, S {sampled[-1]:.3f}", flush=True)
        mean_g, mean_s = float(np.mean(greedy)), float(np.mean(sampled))
        line = f"TSP-{size}, {len(coords)} instances, {time.perf_counter() - started:.0f} s: G {mean_g:.3f}, S {mean_s:.3f}"
        if costs.exists():
            reference = float(np.load(costs)[: args.instances].mean())
            line += f"; reference {reference:.3f}: G {100 * (mean_g / reference - 1):.2f}%, S {100 * (mean_s / reference - 1):.2f}% above"
        print(f"{line}; paper RL+S {PAPER_SAMPLING[size]}", flush=True)


if __name__ == "__main__":
    main()
