"""Reproduce the Attention Model's greedy results (Kool et al., ICLR 2019, Table 1) with the authors' weights.

The test sets are drawn as the authors' generate_data.py draws them (numpy seed 1234 before each set; TSP:
uniform points (size, N, 2); CVRP: depot (size, 2), customers (size, N, 2), demands 1..9, capacity 50 for
N=100); this script has no copy of their files, so the mean greedy length against the paper's is the check.
One thread.

    python benchmarks/reproduce_attention_model.py [--instances 10000] [--problems tsp cvrp]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from frontierco.solver import load_solver_module
from frontierco.workspace import Context

PAPER_GREEDY = {"tsp": 8.12, "cvrp": 16.80}  # mean objective, greedy, N=100 (the paper's Table 1)
CAPACITY = 50


def tsp_lengths(points: torch.Tensor, tours: torch.Tensor) -> torch.Tensor:
    ordered = points.gather(1, tours[..., None].expand(-1, -1, 2))
    return (ordered.roll(-1, 1) - ordered).norm(dim=-1).sum(1)


def cvrp_lengths(points: torch.Tensor, visits: torch.Tensor) -> torch.Tensor:
    full = torch.cat([torch.zeros(len(visits), 1, dtype=torch.long), visits, torch.zeros(len(visits), 1, dtype=torch.long)], 1)
    ordered = points.gather(1, full[..., None].expand(-1, -1, 2))
    return (ordered[:, 1:] - ordered[:, :-1]).norm(dim=-1).sum(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=10_000)
    parser.add_argument("--problems", nargs="+", default=["tsp", "cvrp"])
    parser.add_argument("--batch", type=int, default=250)
    args = parser.parse_args()
    torch.set_num_threads(1)
    solver = load_solver_module("attention-model", "solver")
    files = Context.discover().files  # the published weights from the cache or the mirror (FRONTIERCO_MIRROR)
    for problem in args.problems:
        network = solver.load_network(problem, 100, files)
        np.random.seed(1234)
        if problem == "tsp":
            points = torch.from_numpy(np.random.uniform(size=(args.instances, 100, 2))).float()
        else:
            depot = np.random.uniform(size=(args.instances, 2))
            customers = np.random.uniform(size=(args.instances, 100, 2))
            demands = np.random.randint(1, 10, size=(args.instances, 100))
            points = torch.from_numpy(np.concatenate([depot[:, None], customers], 1)).float()
            demand = torch.from_numpy(np.concatenate([np.zeros((args.instances, 1)), demands / CAPACITY], 1)).float()
        started, lengths = time.perf_counter(), []
        with torch.no_grad():
            for first in range(0, args.instances, args.batch):
                chunk = points[first : first + args.batch]
                if problem == "tsp":
                    lengths.append(tsp_lengths(chunk, network.decode(chunk)))
                else:
                    lengths.append(cvrp_lengths(chunk, network.decode(chunk, demand[first : first + args.batch])))
        mean = float(torch.cat(lengths).mean())
        print(
            f"{problem}100 greedy, {args.instances} instances: mean length {mean:.3f} (paper {PAPER_GREEDY[problem]:.2f}, "
            f"{100 * (mean / PAPER_GREEDY[problem] - 1):+.2f}%), {time.perf_counter() - started:.0f} s"
        )


if __name__ == "__main__":
    main()
