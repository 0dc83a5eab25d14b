"""Large neighbourhood search with CP-SAT on sub-models of the incumbent (Shaw 1998; for scheduling, Godard,
Laborie and Nuijten 2005): a window of operations is freed, the rest keeps its machines and their order,
CP-SAT re-solves the window under a limit on its conflicts, and the window grows after a sub-model solved
to optimality and shrinks otherwise."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from .model import build, read_back, window
from .schedule import Schedule, Shop, critical_path, timing


@dataclass
class Limits:
    """How the search spends its work: operations freed at first and at least, CP-SAT's conflicts per
    sub-model, and how many sub-models in a row without a better makespan end it."""

    size: int = 25
    smallest: int = 10
    conflicts: int = 500
    patience: int = 30


def neighbourhoods(shop: Shop, schedule: Schedule, deadline: float, seed: int, limits: Limits) -> Iterator[Schedule]:
    """Every schedule better than the ones before, from ``schedule`` on, until ``deadline`` (time.monotonic)
    or ``limits.patience`` sub-models without one; schedules of equal makespan are taken to move on."""
    from ortools.sat.python import cp_model

    rng = random.Random(seed)
    size = min(shop.size, limits.size)
    stale = 0
    while time.monotonic() < deadline and stale < limits.patience:
        stale += 1
        timed = timing(shop, schedule.assign, schedule.sequences)
        assert timed is not None
        free, before = window(shop, schedule, size, rng, critical_path(shop, schedule.assign, *timed))
        built = build(shop, schedule, free, before)
        solver = cp_model.CpSolver()
        solver.parameters.max_number_of_conflicts = limits.conflicts
        solver.parameters.max_time_in_seconds = max(0.05, deadline - time.monotonic())
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = rng.randrange(1 << 30)
        solver.parameters.cp_model_presolve = False  # a neighbourhood is solved in the time presolve would take
        status = solver.solve(built.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            found = read_back(shop, schedule, built, solver.value)
            if found.makespan < schedule.makespan:
                stale = 0
                yield found
            if found.makespan <= schedule.makespan:
                schedule = found
        if status == cp_model.OPTIMAL:
            size = min(shop.size, size + size // 10 + 1)
        else:
            size = max(limits.smallest, size - size // 10)
