"""Does decoding by the EGN network's scores beat the same decoder fed other scores? (issue 43)

For each instance of the chosen split and each seed, three score vectors (the shipped network's logits with its
random input column drawn from the seed, uniform random numbers, minus the degree with random tie-breaks: the
solver's ``scores`` parameter) go through the same pipeline with the same seed: the greedy decode
(``solvers/egn/decode.py``; for the network, ``--decoder expectation``: EGN's conditional expectation), ARW's
local search to a local optimum, then ARW's iterated local search for
``--moves`` x n moves (work, not time). Prints the set sizes per stage and the paired differences network - other.

    python benchmarks/egn_mechanism.py --collections mis-rb-800-1200 mis-er-700 --split dev --moves 200 --seeds 3
"""

from __future__ import annotations

import argparse

import numpy as np

from frontierco.kit import independent_set_search as ils
from frontierco.problems import MISInstance
from frontierco.registry import Registry
from frontierco.solver import get_solver
from frontierco.workspace import Context

KINDS = ("network", "random", "degree")
STAGES = ("decode", "local optimum", "ILS")


def pipeline(instance: MISInstance, start: np.ndarray, moves: int, seed: int) -> tuple[int, int, int]:
    adjacency = instance.adjacency
    search = ils.LocalSearch(adjacency.indptr, adjacency.indices, start, seed)
    local = search.size
    while search.steps < moves * instance.n:
        search.run(64)
    return len(start), local, search.size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collections", nargs="+", default=["mis-rb-800-1200", "mis-er-700"])
    parser.add_argument("--split", default="dev")
    parser.add_argument("--moves", type=int, default=200, help="ILS moves per vertex after the local optimum")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument(
        "--decoder", default="greedy", choices=["greedy", "expectation"], help="the network row's decoder (the controls: greedy)"
    )
    args = parser.parse_args()
    solvers = {kind: get_solver("egn-mis").load()(scores=kind, decoder=args.decoder if kind == "network" else "greedy") for kind in KINDS}
    for solver in solvers.values():
        solver.setup()
    ils.warm_up()
    registry = Registry.of(Context.discover())
    rows: dict[str, list[tuple[int, int, int]]] = {kind: [] for kind in KINDS}
    for name in args.collections:
        for entry in registry.collection(name).split(args.split):
            instance = registry.load(entry)
            assert isinstance(instance, MISInstance)
            for seed in range(args.seeds):
                starts = {kind: solvers[kind].start(instance, np.random.default_rng(seed)) for kind in KINDS}
                sizes = {kind: pipeline(instance, starts[kind], args.moves, seed) for kind in KINDS}
                for kind in KINDS:
                    rows[kind].append(sizes[kind])
                print(entry.name, seed, {k: v for k, v in sizes.items()}, flush=True)
    print(f"\nmean set size ({len(rows['network'])} instance-seeds; ILS: {args.moves} x n moves)")
    print("| scores | " + " | ".join(STAGES) + " |")
    print("|---|" + "---|" * len(STAGES))
    for kind in KINDS:
        means = np.mean(np.array(rows[kind]), axis=0)
        print(f"| {kind} | " + " | ".join(f"{m:.2f}" for m in means) + " |")
    network = np.array(rows["network"], dtype=float)
    for other in ("random", "degree"):
        diff = network - np.array(rows[other], dtype=float)
        half = 1.96 * diff.std(axis=0, ddof=1) / np.sqrt(len(diff))
        wins = (diff > 0).sum(axis=0), (diff < 0).sum(axis=0)
        cells = [f"{d:+.2f} +- {h:.2f} ({w}/{lo})" for d, h, w, lo in zip(diff.mean(axis=0), half, *wins, strict=True)]
        print(f"| network - {other} (95% half-width; wins/losses) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
