"""Harness overhead and parallel throughput.

    python benchmarks/bench_harness.py [--runs 8]

1. Overhead per run: the greedy MIS solver on small RB graphs (mis-rb-small dev), in-process (load,
   solve, evaluate) against a full harness run (worker spawn, load, setup, stream, evaluate, record);
   the difference is the harness's cost per run (target: under 0.2 s).
2. Throughput: CPU-bound runs (greedy on Erdos-Renyi graphs with 3,000 vertices and ~225k edges) with
   --jobs 2 against --jobs 1 (target: at least 1.8x on two free cores).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from frontierco.harness.execute import run_plan
from frontierco.harness.executors import LocalExecutor
from frontierco.harness.plan import Selection, plan_collection, plan_file
from frontierco.problems import evaluate
from frontierco.problems.files import write_instance
from frontierco.problems.generate import generate
from frontierco.registry import Registry
from frontierco.results import ResultStore
from frontierco.solver import Budget, get_solver


def overhead(runs: int) -> None:
    registry = Registry()
    spec = get_solver("greedy")
    entries = registry.collection("mis-rb-small").split(None)[:runs]
    solver = spec.load()()
    in_process = []
    for entry in entries:
        start = time.perf_counter()
        instance = registry.load(entry)
        for solution in solver.solve(instance, Budget(10.0)):
            evaluate(instance, solution)
        in_process.append(time.perf_counter() - start)
    plan = plan_collection(registry, spec, "mis", Selection("mis-rb-small", None, limit=runs), Budget(10.0))
    with tempfile.TemporaryDirectory() as folder:
        store = ResultStore(Path(folder))
        harness = []
        for one in plan.specs:
            start = time.perf_counter()
            run_plan(type(plan)([one]), store)
            harness.append(time.perf_counter() - start)
    a, b = statistics.mean(in_process), statistics.mean(harness)
    print(f"overhead: in-process {a:.4f} s/run, harness {b:.4f} s/run, overhead {b - a:.4f} s/run over {len(harness)} runs")


def throughput(runs: int) -> None:
    spec = get_solver("greedy")
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for k in range(runs):
            path = Path(folder) / f"er{k}.mis"
            write_instance(path, generate("mis-er", f"er{k}", k, {"n": 3000, "p": 0.05}).instance)
            files.append(path)
        specs = [s for path in files for s in plan_file(spec, path, Budget(60.0)).specs]
        plan = type(plan_file(spec, files[0], Budget(60.0)))(specs)
        timings = {}
        for jobs in (1, 2):
            start = time.perf_counter()
            records = run_plan(plan, ResultStore(Path(folder) / f"runs{jobs}"), LocalExecutor(jobs))
            timings[jobs] = time.perf_counter() - start
            assert all(r.status == "feasible" for r in records)
        print(f"throughput: {runs} runs, --jobs 1 {timings[1]:.2f} s, --jobs 2 {timings[2]:.2f} s, speed-up {timings[1] / timings[2]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    overhead(args.runs)
    throughput(args.runs)


if __name__ == "__main__":
    main()
