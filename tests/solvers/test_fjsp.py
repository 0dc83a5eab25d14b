import random
import time

import numpy as np
import pytest

from frontierco.problems import FJSPSolution, evaluate
from frontierco.problems.generate import generate
from frontierco.solver import load_solver_module

schedule = load_solver_module("fjsp", "schedule")


def _checked(instance, plan):
    verdict = evaluate(instance, FJSPSolution(np.array(plan.assign), np.array(plan.starts)))
    assert verdict.feasible, verdict.reason
    assert verdict.objective == plan.makespan
    return verdict.objective


@pytest.fixture(scope="module")
def instance():
    return generate("fjsp-random", "g", 4, {"jobs": 8, "machines": 4, "operations": 4}).instance


@pytest.mark.parametrize("rule", ["mwkr", "eft"])
def test_dispatching_rules_give_checked_schedules_above_the_lower_bound(instance, rule):
    shop = schedule.Shop.of(instance)
    for rng in (None, random.Random(3)):
        assert _checked(instance, schedule.dispatch(shop, rule, rng)) >= schedule.lower_bound(shop)


def test_local_search_yields_only_better_checked_schedules(instance):
    shop = schedule.Shop.of(instance)
    start = next(schedule.best_dispatch(shop, time.monotonic() + 5))
    last = start.makespan
    for better in schedule.improve(shop, start, time.monotonic() + 2, seed=1, patience=300):
        assert _checked(instance, better) < last
        last = better.makespan


def test_a_neighbourhood_solved_by_cp_sat_reads_back_as_a_checked_schedule(instance):
    pytest.importorskip("ortools")
    from ortools.sat.python import cp_model

    model = load_solver_module("fjsp", "model")
    shop = schedule.Shop.of(instance)
    start = next(schedule.best_dispatch(shop, time.monotonic() + 5))
    starts, cause = schedule.timing(shop, start.assign, start.sequences)
    free, before = model.window(shop, start, 10, random.Random(0), schedule.critical_path(shop, start.assign, starts, cause))
    built = model.build(shop, start, free, before)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 10
    assert solver.solve(built.model) == cp_model.OPTIMAL
    assert _checked(instance, model.read_back(shop, start, built, solver.value)) <= start.makespan
