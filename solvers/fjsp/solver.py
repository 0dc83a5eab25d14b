"""Two flexible job shop solvers: dispatching rules with a critical-path local search, and OR-Tools CP-SAT
on an interval model hinted with the best dispatching schedule."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock, cpsat_incumbents
from frontierco.problems import FJSPInstance, FJSPSolution
from frontierco.solver import Bound, Budget, Proven, Solver

from .model import build, read_back, window
from .schedule import Schedule, Shop, best_dispatch, critical_path, improve, lower_bound, timing

WHOLE_MODEL_OPERATIONS = 200  # at most this many operations: the whole model from the start
LNS_SHARE = 0.7  # else this share of the time goes to the neighbourhood search, the rest to the whole model
WINDOW = 25  # operations freed per neighbourhood at first (then grown or shrunk by how its solves end)
WINDOW_SECONDS = 0.5  # CP-SAT's limit per neighbourhood


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
    version = "1"
    deterministic = True
    requires = {"ortools": "ortools>=9.10"}

    def solve(self, instance: FJSPInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        shop = Shop.of(instance)
        current: Schedule | None = None
        for current in best_dispatch(shop, time.monotonic() + 0.1 * clock.left(), budget.seed):
            yield _solution(current)
        assert current is not None
        bound = float(lower_bound(shop))
        yield Bound(bound)
        if current.makespan <= bound:
            yield Proven(_solution(current))
            return
        if shop.size > WHOLE_MODEL_OPERATIONS:
            improved = None
            for improved in self._neighbourhoods(shop, current, time.monotonic() + LNS_SHARE * clock.left(), budget):
                yield _solution(improved)
            current = improved or current
        yield from self._whole(shop, current, clock, budget, bound)

    @staticmethod
    def _neighbourhoods(shop: Shop, schedule: Schedule, deadline: float, budget: Budget) -> Iterator[Schedule]:
        """Large neighbourhood search: a window of operations re-solved by CP-SAT, the rest kept; every better
        schedule is yielded, equal ones are taken to move on."""
        from ortools.sat.python import cp_model

        rng = random.Random(budget.seed)
        size = min(shop.size, WINDOW)
        while time.monotonic() < deadline - 0.2:
            timed = timing(shop, schedule.assign, schedule.sequences)
            assert timed is not None
            free, before = window(shop, schedule, size, rng, critical_path(shop, schedule.assign, *timed))
            built = build(shop, schedule, free, before)
            solver = cp_model.CpSolver()
            solver.parameters.max_time_in_seconds = max(0.1, min(WINDOW_SECONDS, deadline - time.monotonic()))
            solver.parameters.num_workers = budget.threads
            solver.parameters.random_seed = budget.seed
            solver.parameters.cp_model_presolve = False  # a neighbourhood is solved in the time presolve would take
            status = solver.solve(built.model)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                found = read_back(shop, schedule, built, solver.value)
                if found.makespan < schedule.makespan:
                    yield found
                if found.makespan <= schedule.makespan:
                    schedule = found
            size = min(shop.size, size + size // 10 + 1) if status == cp_model.OPTIMAL else max(10, size - size // 10)

    @staticmethod
    def _whole(shop: Shop, hint: Schedule, clock: Clock, budget: Budget, bound: float) -> Iterator[object]:
        """The whole model hinted with ``hint``, every solution and better bound streamed as CP-SAT finds it."""
        from ortools.sat.python import cp_model

        built = build(shop, hint)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = clock.left()
        solver.parameters.num_workers = budget.threads
        solver.parameters.random_seed = budget.seed
        best = hint.makespan
        for kind, item in cpsat_incumbents(solver, built.model, lambda value: read_back(shop, hint, built, value), bound):
            if kind == "bound":
                yield Bound(float(item))
            elif kind == "optimal":
                yield Proven(_solution(item))
            elif item.makespan < best:
                best = item.makespan
                yield _solution(item)
