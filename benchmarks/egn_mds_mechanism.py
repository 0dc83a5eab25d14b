"""Does decoding by the egn-mds network's scores beat the same decoder fed other scores? (issue 43)

For each instance of the chosen split and each seed, three score vectors (the shipped network's logits with its
random input column drawn from the seed, uniform random numbers, the degree with random tie-breaks: the solver's
``scores`` parameter) go through the same pipeline with the same seed: the greedy cover with redundant vertices
dropped (``solvers/egn-mds/decode.py``), then the suite's remove-and-repair walk until it has made ``--stall`` x n
moves without a smaller set (the solver's restart rule; work, not time). Prints the set sizes per stage and the
paired differences network - other (negative: the network's set is smaller).

    python benchmarks/egn_mds_mechanism.py --collections mds-ba-800-1200 --split dev --stall 5 --seeds 3
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np

from frontierco.kit.solverkit import Clock
from frontierco.problems import MDSInstance
from frontierco.registry import Registry
from frontierco.solver import get_solver, load_solver_module
from frontierco.workspace import Context

decode = load_solver_module("egn-mds", "decode")
solver_module = load_solver_module("egn-mds", "solver")
KINDS = ("network", "random", "degree")
STAGES = ("decode", "walk to stall")


def pipeline(instance: MDSInstance, scores: np.ndarray, stall: int, seed: int) -> tuple[int, int]:
    search = decode.decode(instance, scores)
    start = search.size
    for _ in solver_module.improvements(search, random.Random(seed), Clock(math.inf), stall * instance.n):
        pass
    return start, search.size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collections", nargs="+", default=["mds-ba-800-1200"])
    parser.add_argument("--split", default="dev")
    parser.add_argument("--stall", type=int, default=5, help="walk moves per vertex without a smaller set before it stops")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    solvers = {kind: get_solver("egn-mds").load()(scores=kind) for kind in KINDS}
    for solver in solvers.values():
        solver.setup()
    registry = Registry.of(Context.discover())
    rows: dict[str, list[tuple[int, int]]] = {kind: [] for kind in KINDS}
    for name in args.collections:
        for entry in registry.collection(name).split(args.split):
            instance = registry.load(entry)
            assert isinstance(instance, MDSInstance)
            for seed in range(args.seeds):
                scores = {kind: solvers[kind].scores(instance, np.random.default_rng(seed)) for kind in KINDS}
                sizes = {kind: pipeline(instance, scores[kind], args.stall, seed) for kind in KINDS}
                for kind in KINDS:
                    rows[kind].append(sizes[kind])
                print(entry.name, seed, sizes, flush=True)
    print(f"\nmean set size ({len(rows['network'])} instance-seeds; walk until {args.stall} x n moves without a smaller set)")
    print("| scores | " + " | ".join(STAGES) + " |")
    print("|---|" + "---|" * len(STAGES))
    for kind in KINDS:
        means = np.mean(np.array(rows[kind]), axis=0)
        print(f"| {kind} | " + " | ".join(f"{m:.2f}" for m in means) + " |")
    network = np.array(rows["network"], dtype=float)
    for other in ("random", "degree"):
        diff = network - np.array(rows[other], dtype=float)
        half = 1.96 * diff.std(axis=0, ddof=1) / np.sqrt(len(diff))
        wins = (diff < 0).sum(axis=0), (diff > 0).sum(axis=0)
        cells = [f"{d:+.2f} +- {h:.2f} ({w}/{lo})" for d, h, w, lo in zip(diff.mean(axis=0), half, *wins, strict=True)]
        print(f"| network - {other} (95% half-width; wins/losses) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
