"""fjsp-drl: the heterogeneous-graph PPO scheduler of Song, Chen, Li & Cao (IEEE TII 2023) with its authors'
published policies: the greedy schedule at once, then batches of schedules sampled from the policy, yielding
each improvement, until its sample budget (the paper's 100) or the time limit."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from frontierco.filestore import FileStore
from frontierco.kit.solverkit import Clock
from frontierco.manifests import FileSource
from frontierco.problems import FJSPInstance, FJSPSolution
from frontierco.solver import Budget, Solver

ORIGIN = "https://raw.githubusercontent.com/songwenas12/fjsp-drl/d7637b7/results"
# the authors' released policies (Apache-2.0), named by public origin and sha256; resolved through FileStore
# (cache, offline mirror, download), never copied into this repository
SHA256 = {
    (10, 5): "594f93a9f9838f89bf508297b3019ebaae8a0482a6f3abf91a3be7412198f0ce",
    (15, 10): "5d05c4d1a1bd27e09a780daf2c54e0eaad0cc466e13755bba5e010f56aeace36",
    (20, 5): "90c4b816b0bb609b9d1934194e416bdff95ffff3c46d2320b9a1e22ce7e909b8",
    (20, 10): "2a8cf76a137ba1b195970fb30c8d4347179b5367265927dfda73e0e833aaa071",
}
WEIGHTS = {
    size: FileSource(f"checkpoints/fjsp-drl/save_{size[0]}_{size[1]}.pt", f"{ORIGIN}/save_{size[0]}_{size[1]}.pt", sha)
    for size, sha in SHA256.items()
}
PAPER_SAMPLES = 100  # DRL-S: the best of 100 schedules sampled in parallel
# a sampled batch is cut to at most this much work, copies x operations^2 (each of its O actions runs the
# network over all copies' operations), so that batches end, and improvements come, on large instances too
BATCH_WORK = 1_000_000


def load_policy(size: tuple[int, int], store: FileStore | None = None) -> Any:
    """The published policy trained on ``size`` (jobs, machines) instances, loaded with strict=True."""
    import torch

    from .model import SchedulingPolicy

    path = (store or FileStore()).path(WEIGHTS[size])
    network = SchedulingPolicy()
    network.load_state_dict(torch.load(path, map_location="cpu", weights_only=True), strict=True)
    return network.eval()


def trained_size(jobs: int, machines: int) -> tuple[int, int]:
    """The trained size nearest an instance's (jobs, machines), by the sum of the two log ratios."""
    return min(SHA256, key=lambda s: abs(math.log(jobs / s[0])) + abs(math.log(machines / s[1])))


def rollout(network: Any, layout: Any, batch: int, sample: bool, generator: Any, clock: Clock | None = None) -> Any:
    """``batch`` schedules of one instance built by the policy (greedy: the most probable action; sampling:
    an action drawn from the policy); None when the clock runs out first."""
    import torch

    from .schedule import Schedules, normalised

    schedules = Schedules(layout, batch)
    with torch.inference_mode():
        while not schedules.done:
            if clock is not None and clock.expired():
                return None
            operations, machines, edges = normalised(schedules, pooled=sample)
            current = schedules.current_operations()
            logits = network.scores(operations, machines, edges, schedules.adjacent, layout.successor, layout.predecessor, current)
            logits = logits.masked_fill(~schedules.mask(), float("-inf"))
            if sample:
                action = torch.multinomial(torch.softmax(logits, dim=-1), 1, generator=generator).squeeze(-1)
            else:
                action = logits.argmax(dim=-1)
            schedules.step(action)
    return schedules


def solution(schedules: Any, row: int) -> FJSPSolution:
    """Copy ``row`` of complete schedules as the suite's solution (machine and start of every operation)."""
    return FJSPSolution(schedules.machine[row].numpy().astype(np.int64), schedules.start[row].numpy().astype(np.float64))


class FjspDrlSolver(Solver):
    name = "fjsp-drl"
    problems = ("fjsp",)
    learned = True
    version = "2"
    requires = {"torch": "torch>=2.2"}
    deterministic = True
    published_weights = tuple(WEIGHTS.values())

    def setup(self) -> None:
        import torch

        self.torch = torch
        self.samples = int(self.params["samples"])
        self.batch = int(self.params["batch"])
        policy = str(self.params["policy"])
        jobs, _, machines = policy.partition("x")
        self.size: tuple[int, int] | None = None if policy == "auto" else (int(jobs), int(machines))
        self.networks: dict[tuple[int, int], Any] = {}

    def network(self, instance: FJSPInstance) -> Any:
        size = self.size or trained_size(instance.num_jobs, instance.num_machines)
        if size not in self.networks:
            self.networks[size] = load_policy(size, self.files)
        return self.networks[size]

    def solve(self, instance: FJSPInstance, budget: Budget) -> Iterator[FJSPSolution]:
        from .schedule import Layout

        torch = self.torch
        torch.set_num_threads(1)
        clock = Clock(budget.time_limit, margin=0.05)
        network, layout = self.network(instance), Layout.of(instance)
        generator = torch.Generator().manual_seed(budget.seed)
        greedy = rollout(network, layout, 1, sample=False, generator=generator, clock=clock)
        if greedy is None:
            return  # the greedy schedule took the whole time limit (the network runs once per operation)
        best = float(greedy.makespans()[0])
        yield solution(greedy, 0)
        batch = max(1, min(self.batch, BATCH_WORK // instance.num_operations**2))
        drawn = 0
        while drawn < self.samples and not clock.expired():
            count = min(batch, self.samples - drawn)
            sampled = rollout(network, layout, count, sample=True, generator=generator, clock=clock)
            if sampled is None:
                return
            makespans = sampled.makespans()
            row = int(makespans.argmin())
            if float(makespans[row]) < best:
                best = float(makespans[row])
                yield solution(sampled, row)
            drawn += count
