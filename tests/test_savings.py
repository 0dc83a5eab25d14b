"""Clarke-Wright savings (frontierco.kit.savings): every customer once, capacity kept, and a maximum route length
kept by rejecting the merges that would break it."""

from dataclasses import replace

import numpy as np

from frontierco.kit.savings import savings_routes
from frontierco.problems import CVRPSolution, evaluate
from frontierco.problems.routing.generators import cvrp_uniform


def _solution(routes: list[list[int]]) -> CVRPSolution:
    return CVRPSolution(tuple(np.array(r, dtype=np.int64) for r in routes))


def _lengths(instance, routes: list[list[int]]) -> list[float]:
    service = instance.service_time or 0.0
    return [instance.weights.path_length(np.array([0, *r, 0])) + service * len(r) for r in routes]


def test_savings_honours_a_maximum_route_length_that_binds():
    free = cvrp_uniform("c", 7, n=60, capacity=40).instance  # unrounded distances in the unit square
    unlimited = savings_routes(free)
    longest = max(_lengths(free, unlimited))
    round_trips = 2 * free.weights.between(np.zeros(free.n - 1, dtype=np.int64), np.arange(1, free.n))
    limit = max(float(round_trips.max()) * 1.05, 0.7 * longest)  # binds (below the longest route), yet feasible
    assert limit < longest
    for service, shape in ((None, 1.0), (0.01, 1.0), (0.01, 1.7)):  # with the route-shape parameter too
        limited = replace(free, max_distance=limit, service_time=service)
        routes = savings_routes(limited, shape)
        verdict = evaluate(limited, _solution(routes))
        assert verdict.feasible, verdict.reason
        assert max(_lengths(limited, routes)) <= limit + 1e-9 and len(routes) > len(unlimited)
    assert not evaluate(replace(free, max_distance=limit), _solution(unlimited)).feasible  # the limit changes the answer


def test_without_a_limit_savings_is_unchanged():
    instance = cvrp_uniform("c", 3, n=40, capacity=30).instance
    assert savings_routes(instance) == savings_routes(replace(instance, max_distance=None, service_time=None))
    assert evaluate(instance, _solution(savings_routes(instance))).feasible
