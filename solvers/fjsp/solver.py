"""Two flexible job shop solvers: dispatching rules with a critical-path local search, and OR-Tools CP-SAT
on an interval model hinted with the best dispatching schedule."""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock, cpsat_incumbents
from frontierco.problems import FJSPInstance, FJSPSolution
from frontierco.solver import Bound, Budget, Proven, Solver

from .balance import balanced_assignment, balanced_start
from .lns import Limits, neighbourhoods
from .model import build, read_back
from .schedule import Schedule, Shop, best_dispatch, improve, lower_bound

DISPATCH_SHARE = 0.05  # the dispatching rules' randomised tries stop after this share of the time
RACE_STEPS = 50  # tabu steps from the dispatching start and from the balanced one, before the better goes on
TABU_PATIENCE = 5000  # tabu steps without a better schedule that end a tabu search
TABU_SAMPLE = 30  # critical operations whose moves a tabu step looks at (drawn where there are more)
WHOLE_MODEL_OPERATIONS = 100  # at most this many operations: the whole model after the tabu search, else neighbourhoods
SMALL_TABU_STEPS = 1000  # the tabu search's steps at most before the whole model


def _solution(schedule: Schedule) -> FJSPSolution:
    return FJSPSolution(np.array(schedule.assign, dtype=np.int64), np.array(schedule.starts, dtype=np.float64))


class FJSPDispatch(Solver):
    name = "fjsp-dispatch"
    problems = ("fjsp",)
    version = "1"
    deterministic = True

    def solve(self, instance: FJSPInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        deadline = time.monotonic() + clock.left()
        shop = Shop.of(instance)
        bound = lower_bound(shop)
        best: Schedule | None = None
        for best in best_dispatch(shop, deadline, budget.seed):
            if best.makespan <= bound:
                yield Proven(_solution(best))
                return
            yield _solution(best)
        assert best is not None
        for better in improve(shop, best, deadline, budget.seed):
            if better.makespan <= bound:
                yield Proven(_solution(better))
                return
            yield _solution(better)


class FJSPCPSAT(Solver):
    name = "fjsp-cpsat"
    problems = ("fjsp",)
    version = "2"
    deterministic = True
    requires = {"ortools": "ortools>=9.10"}

    def setup(self) -> None:
        """Imports CP-SAT and SciPy's linear programming before the clock starts (seconds on a busy machine)."""
        for module in ("ortools.sat.python.cp_model", "scipy.optimize", "scipy.sparse"):
            importlib.import_module(module)

    def solve(self, instance: FJSPInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        deadline = time.monotonic() + clock.left()
        shop = Shop.of(instance)
        incumbent = _Incumbent()
        dispatched: Schedule | None = None
        for dispatched in best_dispatch(shop, time.monotonic() + DISPATCH_SHARE * clock.left(), budget.seed):
            yield from incumbent.offer(dispatched)
        assert dispatched is not None
        assign, relaxed = balanced_assignment(shop)
        balanced = balanced_start(shop, assign, budget.seed)
        yield from incumbent.offer(balanced)
        bound = max(lower_bound(shop), math.ceil(relaxed - 1e-3))  # HiGHS solves to tolerances of about 1e-7 a row
        yield Bound(float(bound))
        if incumbent.best.makespan <= bound:
            yield Proven(_solution(incumbent.best))
            return
        raced = []  # a short tabu search from each start; the search goes on from the better one
        for start in (dispatched, balanced):
            ahead = start
            for ahead in improve(shop, start, deadline, budget.seed, TABU_PATIENCE, RACE_STEPS, TABU_SAMPLE):
                yield from incumbent.offer(ahead)
            raced.append(ahead)
        small = shop.size <= WHOLE_MODEL_OPERATIONS
        winner = min(raced, key=lambda s: s.makespan)
        steps = SMALL_TABU_STEPS if small else None
        for better in improve(shop, winner, deadline, budget.seed, TABU_PATIENCE, steps, TABU_SAMPLE):
            yield from incumbent.offer(better)
            if better.makespan <= bound:
                yield Proven(_solution(better))
                return
        if small:
            yield from self._whole(shop, incumbent, clock, budget, bound)
            return
        rounds = 0
        while time.monotonic() < deadline:  # CP-SAT's neighbourhoods, then the tabu search again, each to its stall
            rounds += 1
            for better in neighbourhoods(shop, incumbent.best, deadline, budget.seed + rounds, Limits()):
                yield from incumbent.offer(better)
            for better in improve(shop, incumbent.best, deadline, budget.seed + rounds, TABU_PATIENCE, None, TABU_SAMPLE):
                yield from incumbent.offer(better)

    @staticmethod
    def _whole(shop: Shop, incumbent: _Incumbent, clock: Clock, budget: Budget, bound: float) -> Iterator[object]:
        """The whole model hinted with the incumbent, every better solution and bound streamed as CP-SAT finds
        it."""
        from ortools.sat.python import cp_model

        hint = incumbent.best
        built = build(shop, hint)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = clock.left()
        solver.parameters.num_workers = budget.threads
        solver.parameters.random_seed = budget.seed
        for kind, item in cpsat_incumbents(solver, built.model, lambda value: read_back(shop, hint, built, value), bound):
            if kind == "bound":
                yield Bound(float(item))
            elif kind == "optimal":
                yield Proven(_solution(item))
            else:
                yield from incumbent.offer(item)


class _Incumbent:
    """The best schedule so far; ``offer`` yields a schedule's solution when it is better."""

    best: Schedule

    def offer(self, schedule: Schedule) -> Iterator[FJSPSolution]:
        if not hasattr(self, "best") or schedule.makespan < self.best.makespan:
            self.best = schedule
            yield _solution(schedule)
