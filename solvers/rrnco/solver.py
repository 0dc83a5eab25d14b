"""RRNCO, the neural router for real road networks (Son et al., ICLR 2026), trained here.

- ``rrnco``: the pure neural router, as the paper evaluates it: multi-start greedy decoding, then the x8
  coordinate augmentation, then greedy decoding with re-drawn ANE neighbours (``rounds``; sampling from the
  policy is the other choice) until the time limit, yielding each improvement.
- ``rrnco-ls``: the same model's candidates (greedy and x8), then PyVRP's local-search operators on the best
  of them (``frontierco/kit/route_search.py``) and perturb-and-search moves from the best solution until the time limit.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from frontierco.kit.solverkit import Clock, refuse_route_limit
from frontierco.problems import CVRPInstance, CVRPSolution, TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver

log = logging.getLogger("frontierco.rrnco")
AUGMENTATIONS = 8
# the (B, N, N, features, bias dim) float tensors of the bias network stay under this many bytes per chunk
CHUNK_BYTES = 256 * 2**20
# the anytime loop of ``rrnco`` after greedy and x8: rounds of these phases over the 8 views until the time limit;
# "redraw": new ANE neighbours, greedy decoding; "sample": sampling from the policy at the parameter temperature.
# Measured (bench_rrnco.py --phases, realcity-acvrp-100, 10 s): redraws improved 10-14 times by ~0.9%, sampling
# at T=1 never, at T=0.3 3 times; redraw alone ended lowest, so it is the default (rounds, in solver.toml)


@dataclass(frozen=True)
class Candidates:
    """A phase's rollouts: ``cost`` (B, P) in the instance's units (inf where stuck), ``actions`` (B, P, T)."""

    phase: str
    cost: Any
    actions: Any


class RRNCOSolver(Solver):
    name = "rrnco"
    problems = ("tsp", "cvrp", "cvrptw")
    learned = True
    # 3: coordinate-free instances placed by classical MDS (were all at (0, 0)); 4: acvrp imitated 1,500 s more on 12
    # training cities (was 7); 5: and 1,200 s more on 3,200 teacher solutions (was 1,600)
    version = "5"
    requires = {"torch": "torch>=2.2"}
    deterministic = True

    def setup(self) -> None:
        import torch

        from .checkpoint import SHIPPED, load

        self.torch = torch
        self.models = {path.stem: load(path) for path in sorted(SHIPPED.glob("*.pt"))}
        self.pomo = int(self.params["pomo"])
        self.anytime = bool(self.params["anytime"])  # False: stop after the x8 pass
        self.temperature = float(self.params["temperature"])
        self.rounds = tuple(self.params["rounds"])
        if not self.rounds or not set(self.rounds) <= {"redraw", "sample"}:
            raise ValueError(f"rounds must name 'redraw' and/or 'sample', not {self.rounds!r}")

    def _model(self, instance: Any) -> Any:
        from .checkpoint import SHIPPED, MissingCheckpoint, checkpoint_name

        problem = "cvrptw" if hasattr(instance, "time_windows") else "cvrp" if isinstance(instance, CVRPInstance) else "tsp"
        matrix = instance.weights.full_matrix()
        name = checkpoint_name(problem, not np.array_equal(matrix, matrix.T))
        if name not in self.models:
            raise MissingCheckpoint(f"rrnco has no checkpoint {Path(SHIPPED) / (name + '.pt')} for this {problem} instance")
        return self.models[name]

    def candidates(self, instance: TSPInstance | CVRPInstance, budget: Budget, clock: Clock, anytime: bool) -> Iterator[Candidates]:
        """Rollouts phase by phase: greedy, x8 greedy, then (``anytime``) the rounds until the clock runs out."""
        from .data import from_instance, symmetries
        from .model import default_starts, rollout

        torch = self.torch
        torch.set_num_threads(max(1, budget.threads))
        device = torch.device(budget.device)
        model = self._model(instance).to(device)
        exact = from_instance(instance).to(device)
        generator = torch.Generator(device=device).manual_seed(budget.seed)
        self.starts = default_starts(exact.kind, exact.nodes, self.pomo)
        self.kind = exact.kind
        chunk = max(1, min(AUGMENTATIONS, CHUNK_BYTES // (exact.nodes**2 * 3 * model.config.bias_dim * 4)))
        with torch.no_grad():
            single = exact.to(device, torch.float32)
            found = rollout(model, single, self.starts, cost_batch=exact, generator=generator)
            yield Candidates("greedy", found.cost, found.actions)
            views = symmetries(single.coords)[:, 0]
            batches = [
                single.repeat(min(chunk, AUGMENTATIONS - first)).with_coords(views[first : first + chunk])
                for first in range(0, AUGMENTATIONS, chunk)
            ]
            rounds = itertools.cycle(self.rounds) if anytime and self.anytime else ()
            for phase in itertools.chain(("x8",), rounds):
                for batch in batches:
                    if clock.expired():
                        return
                    found = rollout(
                        model, batch, self.starts, sample=phase == "sample", temperature=self.temperature,
                        encoded=model.encode(batch, generator), cost_batch=exact.repeat(batch.size), generator=generator,
                    )  # fmt: skip
                    yield Candidates(phase, found.cost, found.actions)

    def routes(self, actions: Any, start: int) -> list[list[int]]:
        from .env import routes_of

        return routes_of(self.kind, int(self.starts[start]), actions.tolist())

    def as_solution(self, instance: Any, routes: list[list[int]]) -> TSPSolution | CVRPSolution:
        if isinstance(instance, TSPInstance):
            return TSPSolution(np.array(routes[0], dtype=np.int64))
        return CVRPSolution(tuple(np.array(r, dtype=np.int64) for r in routes))

    def settled(self, instance: TSPInstance | CVRPInstance) -> list[TSPSolution | CVRPSolution] | None:
        """What to yield without any search: the answer of a tiny instance; nothing when no feasible solution
        exists (a customer no vehicle can carry); None when the search must run."""
        if isinstance(instance, TSPInstance):
            return [TSPSolution(np.arange(instance.n))] if instance.n <= 3 else None
        if instance.n < 2:
            return [CVRPSolution(())]
        return [] if np.any(instance.demands > instance.capacity) else None

    def solve(self, instance: TSPInstance | CVRPInstance, budget: Budget) -> Iterator[TSPSolution | CVRPSolution]:
        refuse_route_limit(instance, self.name)  # the model builds routes by capacity alone
        settled = self.settled(instance)
        if settled is not None:
            yield from settled
            return
        yield from self.search(instance, budget, Clock(budget.time_limit, margin=0.05))

    def search(self, instance: TSPInstance | CVRPInstance, budget: Budget, clock: Clock) -> Iterator[TSPSolution | CVRPSolution]:
        """Each improvement of the neural phases until the clock runs out."""
        best = float("inf")
        for found in self.candidates(instance, budget, clock, anytime=True):
            flat = found.cost.flatten()
            k = int(flat.argmin())
            if float(flat[k]) < best:
                log.debug("rrnco %s improved %.6g -> %.6g", found.phase, best, float(flat[k]))
                best = float(flat[k])
                b, p = divmod(k, found.cost.shape[1])
                yield self.as_solution(instance, self.routes(found.actions[b, p], p))


class RRNCOLocalSearchSolver(RRNCOSolver):
    name = "rrnco-ls"
    problems = ("tsp", "cvrp", "cvrptw")
    learned = True
    # 3: the greedy pass's best rollout and its local optimum yielded at once; 4: the best local optimum of the
    # greedy pass's candidates warm-starts PyVRP's iterated local search for the rest of the time (was: x8
    # candidates, then perturb-and-search moves of its own); 5: rrnco 5's acvrp checkpoint
    version = "5"
    requires = {"torch": "torch>=2.2", "pyvrp": "pyvrp>=0.14"}
    deterministic = False  # the search stops on the clock

    def setup(self) -> None:
        super().setup()
        self.searched = int(self.params["candidates"])

    def search(self, instance: TSPInstance | CVRPInstance, budget: Budget, clock: Clock) -> Iterator[TSPSolution | CVRPSolution]:
        """The greedy pass's best rollout at once; then the local optima of its best distinct rollouts as they
        improve; then PyVRP's iterated local search from the best of them until the time limit, each improvement."""
        from frontierco.kit.route_search import RouteSearch
        from frontierco.kit.solverkit import stream

        search = RouteSearch(instance, budget.seed)
        greedy = next(self.candidates(instance, budget, clock, anytime=False))
        pool: dict[float, list[list[int]]] = {}  # distinct costs -> a rollout with that cost
        flat = greedy.cost.flatten()
        for k in self.torch.argsort(flat)[: self.searched].tolist():
            cost = float(flat[k])
            if np.isfinite(cost) and cost not in pool:
                b, p = divmod(k, greedy.cost.shape[1])
                pool[cost] = self.routes(greedy.actions[b, p], p)
        if not pool:
            return
        best_cost, best = min(pool.items())
        yield self.as_solution(instance, best)
        for _, routes in sorted(pool.items()):
            if clock.expired():
                return
            improved = search.descend(routes)
            if improved is not None and search.cost(improved) < best_cost:
                best_cost, best = search.cost(improved), improved
                yield self.as_solution(instance, best)
        start = best
        for found in stream(lambda emit: search.iterate(start, clock.left(), budget.seed, emit)):
            if search.cost(found) < best_cost:
                best_cost = search.cost(found)
                yield self.as_solution(instance, found)
