"""Load and evaluate the largest shipped instances, and files at the frontier's sizes.

    python benchmarks/bench_load_evaluate.py [--repeat 5] [--frontier 1m 10m mis10m] [--skip-shipped]

Shipped cases (median of the repeats): cvrplib-xxl Flanders2 (30,000 customers) with its best-known
solution; the largest BHOSLIB graph with a greedy independent set; a generated Erdos-Renyi graph with about
1M edges; a uniform TSP with 1M nodes (in memory) and a random tour.

Frontier cases (issue 18; each in a fresh process, so that its peak memory is its own): a TSPLIB file of 1M
and of 10M uniform integer points (EUC_2D) read and a random tour checked, targets 1M load + check under
2 s; a DIMACS file of 2M vertices and 10M edges read and a greedy independent set checked, target under 5 s;
peak memory of loading and checking (tracemalloc, which counts numpy's buffers) against the size of the
instance's arrays, target within 3x. The files are written once into a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from frontierco.kit.solverkit import static_greedy_independent_set
from frontierco.problems import EdgeWeights, MISSolution, TSPInstance, TSPSolution, evaluate
from frontierco.problems.generate import generate
from frontierco.problems.routing.tsplib import read_vrplib_solution
from frontierco.registry import Registry


def _median_seconds(action: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


FRONTIER = {"1m": ("tsp", 1_000_000), "10m": ("tsp", 10_000_000), "mis10m": ("mis", 10_000_000)}


def write_case(case: str, folder: Path) -> Path:
    """The case's file (written once): uniform integer points in [0, 10^7)^2, or a random graph of m edges
    on m/5 vertices."""
    kind, size = FRONTIER[case]
    path = folder / (f"{case}.tsp" if kind == "tsp" else f"{case}.dimacs")
    if path.exists():
        return path
    rng = np.random.default_rng(0)
    with open(path, "w") as handle:
        if kind == "tsp":
            handle.write(f"NAME : {case}\nTYPE : TSP\nDIMENSION : {size}\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n")
            for start in range(0, size, 1_000_000):
                block = rng.integers(0, 10**7, (min(1_000_000, size - start), 2))
                rows = np.column_stack([np.arange(start + 1, start + len(block) + 1), block])
                np.savetxt(handle, rows, fmt="%d")
            handle.write("EOF\n")
        else:
            n = size // 5
            edges = rng.integers(1, n + 1, (size, 2))
            edges = edges[edges[:, 0] != edges[:, 1]]
            handle.write(f"c random graph\np edge {n} {len(edges)}\n")
            np.savetxt(handle, edges, fmt="e %d %d")
    return path


def measure_case(path: str, kind: str) -> None:
    """In a fresh process: load the file and check a solution, timed; then both again under tracemalloc
    (which sees numpy's buffers too): the peak of loading, and the instance's arrays plus the peak of checking
    (the solution is built outside both). Prints JSON."""
    import tracemalloc

    from frontierco.problems.files import read_instance

    def solution_for(instance: object) -> object:
        if kind == "tsp":
            return TSPSolution(np.random.default_rng(1).permutation(instance.n))  # type: ignore[attr-defined]
        return MISSolution(static_greedy_independent_set(instance))  # type: ignore[arg-type]

    started = time.perf_counter()
    instance = read_instance(path)
    loaded = time.perf_counter() - started
    solution = solution_for(instance)
    started = time.perf_counter()
    verdict = evaluate(instance, solution)  # type: ignore[arg-type]
    checked = time.perf_counter() - started
    arrays = instance.weights.coords.nbytes if kind == "tsp" else instance.edges.nbytes  # type: ignore[union-attr]
    del instance, solution
    tracemalloc.start()
    instance = read_instance(path)
    _, load_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    solution = solution_for(instance)
    tracemalloc.start()
    evaluate(instance, solution)  # type: ignore[arg-type]
    _, check_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    peak = max(load_peak, arrays + check_peak)
    print(json.dumps({"load": loaded, "check": checked, "peak": peak, "arrays": arrays, "feasible": verdict.feasible}))


def frontier(cases: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="frontierco-bench-") as folder:
        print(f"{'frontier case':<40} {'load s':>8} {'check s':>8} {'total s':>8} {'peak MB':>8} {'arrays MB':>9} {'ratio':>6}")
        for case in cases:
            path = write_case(case, Path(folder))
            kind = FRONTIER[case][0]
            code = f"from benchmarks.bench_load_evaluate import measure_case; measure_case({str(path)!r}, {kind!r})"
            output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[1])
            result = json.loads(output.stdout.strip().splitlines()[-1])
            total = result["load"] + result["check"]
            peak, arrays = result["peak"] / 1e6, result["arrays"] / 1e6
            print(
                f"{case + ' (' + path.name + ')':<40} {result['load']:8.2f} {result['check']:8.2f} {total:8.2f} "
                f"{peak:8.0f} {arrays:9.0f} {peak / arrays:6.1f}  feasible={result['feasible']}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--frontier", nargs="*", default=["1m", "mis10m"], choices=sorted(FRONTIER))
    parser.add_argument("--skip-shipped", action="store_true")
    args = parser.parse_args()
    if args.frontier:
        frontier(args.frontier)
    if args.skip_shipped:
        return
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
