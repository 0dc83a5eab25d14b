"""Teacher solutions for imitation: seeded training instances solved by the suite's own classical solvers (PyVRP for
the vehicle kinds, LKH for ATSP), re-checked by the suite's checker and cached on disk in chunks, so a long
generation resumes where it stopped and a training run reads the same data on every machine.

Only the solutions are stored: chunk i's instances are drawn again from ``Sampler(seed=TEACHER_SEED + i)``.
Teacher forcing shows each solution in several orders (``sequences``): routes of a vehicle solution permuted
(their direction is kept: the matrices are asymmetric), a tour rotated to start at another node.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from frontierco.problems.routing.cities.city import City

from .data import RoutingBatch, Sampler, suite_instances

TEACHER_SEED = 10_000
CHUNK = 16
TEACHERS = {"tsp": "lkh", "cvrp": "pyvrp", "cvrptw": "pyvrp"}


@dataclass(frozen=True)
class TeacherSpec:
    """What a teacher set is: the instances (checkpoint preset, size, how they are drawn) and the solver's time."""

    name: str
    kind: str
    size: int
    city_share: float
    clustered_share: float
    seconds: float

    @property
    def solver(self) -> str:
        """Who solved the teacher instances, e.g. 'pyvrp 0.5 s'."""
        return f"{TEACHERS[self.kind]} {self.seconds:g} s"

    def folder(self, root: Path) -> Path:
        return root / f"{self.name}-{self.size}"

    def sampler(self, cities: list[City], chunk: int) -> Sampler:
        return Sampler(self.kind, self.size, cities, self.city_share, TEACHER_SEED + chunk, clustered_share=self.clustered_share)


def generate(spec: TeacherSpec, count: int, root: Path, cities: list[City], progress: bool = True, shard: tuple[int, int] = (0, 1)) -> int:
    """Solve the first ``count`` teacher instances (whole chunks) not solved yet; returns how many exist now.
    ``shard`` (i, k): only chunks i, i + k, i + 2k, ..., so that k processes share the work without overlap."""
    from rich.progress import Progress

    from frontierco.problems import get_problem
    from frontierco.solver import get_solver

    folder = spec.folder(root)
    folder.mkdir(parents=True, exist_ok=True)
    index, shards = shard
    chunks = range(index, -(-count // CHUNK), shards)
    solver_name = TEACHERS[spec.kind]
    solver = get_solver(solver_name).load()()
    solver.setup()
    problem = get_problem(spec.kind)
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task(f"teacher {spec.name}-{spec.size}", total=len(chunks))
        for chunk in chunks:
            target = folder / f"chunk-{chunk:05d}.json"
            if target.is_file():
                bar.advance(task)
                continue
            batch = spec.sampler(cities, chunk).sample(CHUNK)
            routes, costs = [], []
            for instance in suite_instances(batch, f"teacher-{spec.name}-{chunk}"):
                best, cost = solve_checked(solver, problem, instance, spec.seconds)
                routes.append([best.tour.tolist()] if spec.kind == "tsp" else [r.tolist() for r in best.routes])
                costs.append(cost)
            record = {"chunk": chunk, "seed": TEACHER_SEED + chunk, "solver": spec.solver, "routes": routes, "costs": costs}
            partial = target.with_suffix(".tmp")
            partial.write_text(json.dumps(record) + "\n")
            partial.replace(target)
            bar.advance(task)
    return len(list(folder.glob("chunk-*.json"))) * CHUNK


def solve_checked(solver: Any, problem: Any, instance: Any, seconds: float) -> tuple[Any, float]:
    """The last solution ``solver`` yields in ``seconds`` (seed 0, one thread) and its objective by the suite's
    checker; no solution, or an infeasible one, is an error naming the solver."""
    from frontierco.solver import Budget, Proven

    best = None
    for found in solver.solve(instance, Budget(time_limit=seconds, seed=0, threads=1)):
        best = found.solution if isinstance(found, Proven) else found
    if best is None:
        raise RuntimeError(f"{solver.name} found no solution of {instance.name} in {seconds:g} s")
    evaluation = problem.evaluate(instance, best)
    if not evaluation.feasible or evaluation.objective is None:
        raise RuntimeError(f"{solver.name} returned an infeasible solution of {instance.name}: {evaluation.reason}")
    return best, float(evaluation.objective)


@dataclass(frozen=True)
class TeacherSet:
    batch: RoutingBatch  # every instance, in chunk order
    routes: list[list[list[int]]]  # per instance: its routes (vehicle kinds) or [tour]
    costs: list[float]


def load(spec: TeacherSpec, root: Path, cities: list[City]) -> TeacherSet:
    """Every cached chunk of ``spec``, its instances drawn again from their seeds."""
    files = sorted(spec.folder(root).glob("chunk-*.json"))
    if not files:
        raise FileNotFoundError(f"no teacher solutions in {spec.folder(root)}: generate them first (--imitate does)")
    batches, routes, costs = [], [], []
    for path in files:
        record = json.loads(path.read_text())
        batches.append(spec.sampler(cities, int(record["chunk"])).sample(CHUNK))
        routes += record["routes"]
        costs += record["costs"]
    return TeacherSet(RoutingBatch.concatenate(batches), routes, costs)


def sequences(kind: str, solutions: list[list[list[int]]], orders: int, rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """(first (B, P), actions (B, P, T)): each solution in ``orders`` random orders, padded with moves that stay."""
    firsts, moves = [], []
    for routes in solutions:
        for _ in range(orders):
            if kind == "tsp":
                tour = routes[0]
                k = int(rng.integers(len(tour)))
                seq = tour[k:] + tour[:k]
            else:
                seq = [node for r in rng.permutation(len(routes)) for node in [*routes[r], 0]]
            firsts.append(seq[0])
            moves.append(seq[1:])
    length = max(len(m) for m in moves)
    padded = [m + [m[-1]] * (length - len(m)) for m in moves]
    b = len(solutions)
    return torch.tensor(firsts).reshape(b, orders), torch.tensor(padded).reshape(b, orders, length)
