"""pyvrp-decomp: savings first, then only feasible improvements; subproblems partition the routes and keep
the instance's distances; a vehicle limit holds."""

import sys

import numpy as np
import pytest

from frontierco.kit.savings import savings_routes
from frontierco.problems import evaluate
from frontierco.problems.routing.generators import cvrp_xlike
from frontierco.solver import Budget, get_solver

pytest.importorskip("pyvrp")


@pytest.fixture(scope="module")
def module():
    return sys.modules[get_solver("pyvrp-decomp").load().__module__]


def _instance(n=240, seed=3, route_size=12.0):
    return cvrp_xlike("x", seed, n, "E", "RC", "1-100", route_size).instance


def test_first_yield_is_savings_and_every_later_one_is_feasible_and_shorter(module):
    instance = _instance()
    solver = get_solver("pyvrp-decomp").load()(routes=4, iterations=20, max_iterations=40)
    solutions = list(solver.solve(instance, Budget(4.0, seed=2)))
    savings = evaluate(instance, module.solution([[np.asarray(r) for r in savings_routes(instance)]]))
    values = [evaluate(instance, s) for s in solutions]
    assert all(v.feasible for v in values), [v.reason for v in values if not v.feasible]
    assert values[0].objective == savings.objective
    objectives = [v.objective for v in values]
    assert len(objectives) >= 2 and all(b < a for a, b in zip(objectives, objectives[1:], strict=False))


def test_groups_partition_the_routes_near_their_seed(module):
    instance = _instance()
    routes = [np.asarray(r) for r in savings_routes(instance)]
    parts = module.groups(instance, routes, np.random.default_rng(0), 4)
    grouped = sorted(int(c) for part in parts for r in part for c in r)
    assert grouped == list(range(1, instance.n))
    assert sorted(len(part) for part in parts)[1:] == [4] * (len(parts) - 1)


def test_a_subinstance_keeps_the_distances_and_demands(module):
    instance = _instance()
    customers = np.array([5, 17, 3, 99])
    sub = module.subinstance(instance, customers, 2)
    nodes = np.array([0, 5, 17, 3, 99])
    i, j = np.meshgrid(np.arange(5), np.arange(5), indexing="ij")
    assert np.array_equal(sub.weights.between(i.ravel(), j.ravel()), instance.weights.between(nodes[i.ravel()], nodes[j.ravel()]))
    assert np.array_equal(sub.demands, instance.demands[nodes]) and sub.num_vehicles == 2


def test_the_vehicle_limit_holds(module):
    free = _instance(n=120)
    fleet = len(savings_routes(free))
    limited = type(free)(free.name, free.weights, free.demands, free.capacity, fleet)
    solver = get_solver("pyvrp-decomp").load()(routes=3, iterations=20, max_iterations=40)
    for solution in solver.solve(limited, Budget(2.0)):
        assert evaluate(limited, solution).feasible
        assert len([r for r in solution.routes if len(r)]) <= fleet


@pytest.mark.parametrize("shape", [0.8, 1.4, 2.0])
def test_savings_with_a_shape_routes_every_customer_once_within_capacity(shape):
    instance = _instance()
    routes = savings_routes(instance, shape)
    assert sorted(c for r in routes for c in r) == list(range(1, instance.n))
    assert all(instance.demands[r].sum() <= instance.capacity for r in routes)


def test_no_solution_is_longer_than_the_shortest_savings_shape_it_tried(module):
    instance = _instance(route_size=40.0)
    lengths = [evaluate(instance, module.solution([[np.asarray(r) for r in savings_routes(instance, s)]])).objective for s in module.SHAPES]
    assert min(lengths) < lengths[0]  # the instance is one where a shape other than Clarke and Wright's wins
    solver = get_solver("pyvrp-decomp").load()(shapes=len(module.SHAPES), routes=4, iterations=1, max_iterations=1)
    assert evaluate(instance, list(solver.solve(instance, Budget(3.0)))[-1]).objective <= min(lengths)


def test_shapes_out_of_range_are_refused():
    solver = get_solver("pyvrp-decomp").load()(shapes=0)
    with pytest.raises(ValueError, match="shapes must be"):
        list(solver.solve(_instance(n=30), Budget(1.0)))
