"""Load and evaluate the largest shipped instances (targets: each evaluate well under a second).

    python benchmarks/bench_load_evaluate.py [--repeat 5]

Cases: cvrplib-xxl Flanders2 (30,000 customers) with its best-known solution; the largest BHOSLIB
graph with a greedy independent set; a generated Erdos-Renyi graph with about 1M edges; a uniform
TSP with 1M nodes and a random tour. Prints the median load and evaluate times over the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from frontierco.formats.routing import read_vrplib_solution
from frontierco.generators import generate
from frontierco.problems import EdgeWeights, MISSolution, TSPInstance, TSPSolution, evaluate
from frontierco.registry import Registry
from frontierco.solverkit import static_greedy_independent_set


def _median_seconds(action: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    registry = Registry()
    rows = []

    entry = registry.entry("cvrplib-xxl/Flanders2")
    load, instance = _median_seconds(lambda: registry.load(entry), args.repeat)
    solution = read_vrplib_solution(registry.store.path(entry.source).with_suffix(".sol"))
    check, verdict = _median_seconds(lambda: evaluate(instance, solution), args.repeat)
    rows.append(("Flanders2 BKS (30k customers)", load, check, verdict))

    entry = registry.entry("bhoslib/frb59-26-5")
    load, graph = _median_seconds(lambda: registry.load(entry), args.repeat)
    mis = MISSolution(static_greedy_independent_set(graph))
    check, verdict = _median_seconds(lambda: evaluate(graph, mis), args.repeat)
    rows.append((f"BHOSLIB frb59-26-5 ({graph.n} vertices, {graph.m} edges)", load, check, verdict))

    load, big = _median_seconds(lambda: generate("mis-er", "er", 0, {"n": 4500, "p": 0.1}).instance, 1)
    mis = MISSolution(static_greedy_independent_set(big))
    check, verdict = _median_seconds(lambda: evaluate(big, mis), args.repeat)
    rows.append((f"ER graph ({big.n} vertices, {big.m} edges)", load, check, verdict))

    rng = np.random.default_rng(0)
    tsp = TSPInstance("u1m", EdgeWeights("EXACT_2D", coords=rng.random((1_000_000, 2))))
    tour = TSPSolution(rng.permutation(1_000_000))
    check, verdict = _median_seconds(lambda: evaluate(tsp, tour), args.repeat)
    rows.append(("uniform TSP, 1M nodes, random tour", float("nan"), check, verdict))

    print(f"{'case':<55} {'load s':>8} {'evaluate s':>11}  verdict")
    for name, load, check, verdict in rows:
        print(f"{name:<55} {load:8.3f} {check:11.4f}  feasible={verdict.feasible} objective={verdict.objective:.6g}")


if __name__ == "__main__":
    main()
