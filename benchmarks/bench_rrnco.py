"""RRNCO speed on this machine.

1. Inference time per instance by size: multi-start greedy decoding and the x8 augmented pass (one thread,
   the shipped acvrp checkpoint, ACVRP instances of Monaco), with the cost of each stage.
2. ``--phases COLLECTION``: what each phase of the ``rrnco`` anytime loop contributes on a collection's test
   split (``--time-limit`` seconds per instance): per phase, how many instances it improved and by how much
   (the best cost before the phase against after it).
3. ``--train``: one POMO training step (sampled rollouts + backward, uniform CVRP points, N=100, 100 starts):
   instances per second, and per step the number of operator calls (each one a kernel launch on a GPU, counted
   by ``torch.profiler``) and of device -> host synchronisations (``aten::_local_scalar_dense``: ``.item()``,
   ``bool(tensor)``). On a GPU (``--device cuda``) the same step, timed.

    python benchmarks/bench_rrnco.py [--sizes 50 100 200 500] [--instances 3] [--threads 1]
    python benchmarks/bench_rrnco.py --phases realcity-acvrp-100 [--time-limit 10]
    python benchmarks/bench_rrnco.py --train [--batch 8] [--device cpu]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from frontierco.problems.routing.realcity import realcity_acvrp
from frontierco.solver import Budget, get_solver


def training_step(batch_size: int, device: str, steps: int) -> None:
    from torch.profiler import ProfilerActivity, profile

    from frontierco.solver import load_solver_module

    data, model_module = load_solver_module("rrnco", "data"), load_solver_module("rrnco", "model")
    torch.manual_seed(0)
    model = model_module.RRNCO(model_module.ModelConfig("cvrp")).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    sampler = data.Sampler("cvrp", 100, [], 0.0, 0)

    def forward_backward() -> None:
        batch = sampler.sample(batch_size).to(device)
        starts = model_module.default_starts("cvrp", batch.nodes, 100).to(device)
        result = model_module.rollout(model, batch, starts, sample=True)
        advantage = result.cost.mean(1, keepdim=True) - result.cost
        (-(advantage * result.log_prob).mean()).backward()

    def step() -> None:
        optimizer.zero_grad()
        forward_backward()
        optimizer.step()

    step()  # warm-up
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    started = time.perf_counter()
    for _ in range(steps):
        step()
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    seconds = (time.perf_counter() - started) / steps
    # counted over sampling, rollout and backward (Adam's host-side step counters are not device syncs)
    with profile(activities=[ProfilerActivity.CPU]) as trace:
        forward_backward()
    top_level = sum(1 for e in trace.events() if e.name.startswith("aten::") and e.cpu_parent is None)
    syncs = sum(e.count for e in trace.key_averages() if e.key == "aten::_local_scalar_dense")
    print(
        f"training step, batch {batch_size} x 100 starts, N=100, {device}: {seconds:.2f} s/step, "
        f"{batch_size / seconds:.1f} instances/s; rollout + backward: {top_level} top-level operator calls, {syncs} host syncs"
    )


def phases(collection: str, time_limit: float, threads: int, params: dict[str, object]) -> None:
    from frontierco.kit.solverkit import Clock
    from frontierco.registry import Registry

    solver = get_solver("rrnco").load()(**params)
    solver.setup()
    registry = Registry()
    improved: dict[str, list[float]] = {}
    rounds: dict[str, int] = {}
    finals: list[float] = []
    entries = registry.collection(collection).split("test")
    for entry in entries:
        instance = registry.load(entry)
        best = float("inf")
        budget = Budget(time_limit=time_limit, seed=0, threads=threads)
        for found in solver.candidates(instance, budget, Clock(time_limit, margin=0.05), anytime=True):
            rounds[found.phase] = rounds.get(found.phase, 0) + 1
            cost = float(found.cost.min())
            gains = improved.setdefault(found.phase, [])
            if cost < best:
                gains.append(0.0 if best == float("inf") else 100.0 * (best - cost) / best)
                best = cost
        finals.append(best)
    print(f"{collection}, {len(entries)} test instances, {time_limit:g} s each, {params or 'defaults'}")
    print("phase | batches decoded | improvements | mean gain % | final mean cost")
    for phase, gains in improved.items():
        print(f"{phase:8s} | {rounds[phase]:5d} | {len(gains):4d} | {np.mean(gains) if gains else 0.0:.2f} | {np.mean(finals):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200, 500])
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--train", action="store_true", help="measure a training step instead of inference")
    parser.add_argument("--phases", metavar="COLLECTION", help="what each phase of the anytime loop improves on COLLECTION")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--temperature", type=float, default=None, help="with --phases: the sampling temperature")
    parser.add_argument("--rounds", nargs="+", default=None, help="with --phases: the anytime loop's phases (redraw, sample)")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.train:
        training_step(args.batch, args.device, args.steps)
        return
    if args.phases:
        params = {k: v for k, v in (("temperature", args.temperature), ("rounds", args.rounds)) if v is not None}
        phases(args.phases, args.time_limit, args.threads, params)
        return
    solver = get_solver("rrnco").load()(anytime=False)
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
