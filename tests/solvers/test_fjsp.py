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


@pytest.mark.parametrize("sample", [None, 3])  # every critical operation's moves, or three drawn per step
def test_local_search_yields_only_better_checked_schedules(instance, sample):
    shop = schedule.Shop.of(instance)
    start = next(schedule.best_dispatch(shop, time.monotonic() + 5))
    last = start.makespan
    for better in schedule.improve(shop, start, time.monotonic() + 2, seed=1, patience=300, sample=sample):
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


def test_the_balanced_assignment_bounds_the_makespan_and_starts_a_checked_schedule(instance):
    pytest.importorskip("scipy")
    balance = load_solver_module("fjsp", "balance")
    shop = schedule.Shop.of(instance)
    assign, relaxed = balance.balanced_assignment(shop)
    assert all(m in shop.options[o] for o, m in enumerate(assign))
    start = balance.balanced_start(shop, assign)
    assert start.assign == assign
    assert _checked(instance, start) >= relaxed - 1e-6
    assert next(schedule.best_dispatch(shop, time.monotonic() + 5)).makespan >= relaxed - 1e-6


def test_the_hint_is_a_solution_of_the_whole_model(instance):
    pytest.importorskip("ortools")
    from ortools.sat.python import cp_model

    model = load_solver_module("fjsp", "model")
    shop = schedule.Shop.of(instance)
    hint = next(schedule.best_dispatch(shop, time.monotonic() + 5))
    built = model.build(shop, hint)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.fix_variables_to_their_hinted_value = True  # feasible only if the hint is a full solution
    assert solver.solve(built.model) == cp_model.OPTIMAL
    assert _checked(instance, model.read_back(shop, hint, built, solver.value)) == hint.makespan


def test_neighbourhoods_from_a_dispatching_schedule_yield_only_better_checked_schedules(instance):
    pytest.importorskip("ortools")
    lns = load_solver_module("fjsp", "lns")
    shop = schedule.Shop.of(instance)
    start = next(schedule.best_dispatch(shop, time.monotonic() + 5))
    last, improved = start.makespan, 0
    for better in lns.neighbourhoods(shop, start, time.monotonic() + 30, 0, lns.Limits(size=12, conflicts=100, patience=5)):
        assert _checked(instance, better) < last
        last, improved = better.makespan, improved + 1
    assert improved > 0


@pytest.mark.parametrize("operations", [0, 1000])  # neighbourhoods after the tabu search, or the whole model
def test_fjsp_cpsat_streams_better_checked_schedules_from_the_dispatching_start(instance, monkeypatch, operations):
    pytest.importorskip("ortools")
    from frontierco.solver import Bound, Budget, Proven

    solver = load_solver_module("fjsp", "solver")
    monkeypatch.setattr(solver, "WHOLE_MODEL_OPERATIONS", operations)
    shop = schedule.Shop.of(instance)
    dispatched = next(schedule.best_dispatch(shop, time.monotonic() + 5)).makespan
    found, proven = [], []
    for item in solver.FJSPCPSAT().solve(instance, Budget(time_limit=2.0)):
        if isinstance(item, Bound):
            continue
        verdict = evaluate(instance, item.solution if isinstance(item, Proven) else item)
        assert verdict.feasible, verdict.reason
        (proven if isinstance(item, Proven) else found).append(verdict.objective)
    assert found[0] <= dispatched
    assert found == sorted(found, reverse=True) and len(set(found)) == len(found)
    assert found[-1] < dispatched
    assert proven in ([], [found[-1]])  # a schedule proven optimal is the last one found
