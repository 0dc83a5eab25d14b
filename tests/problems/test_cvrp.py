from dataclasses import replace

import numpy as np
import pytest

from frontierco.problems import PROBLEMS, CVRPInstance, CVRPSolution, CVRPTWInstance, EdgeWeights, evaluate
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.generate import generate


@pytest.fixture
def line():
    # depot at 0, customers at 10, 20, 30 on a line; capacity 10
    coords = np.array([[0, 0], [10, 0], [20, 0], [30, 0]], dtype=float)
    return CVRPInstance("line", EdgeWeights("EUC_2D", coords=coords), np.array([0, 4, 5, 6]), 10)


def routes(*rs):
    return CVRPSolution(tuple(np.array(r) for r in rs))


def test_feasible_cost(line):
    verdict = evaluate(line, routes([1, 2], [3]))
    assert verdict.feasible and verdict.objective == 40 + 60


@pytest.mark.parametrize(
    "solution, reason",
    [
        (routes([1, 2], [3, 1]), "customer 1 visited twice"),
        (routes([1, 2]), "customer 3"),
        (routes([1, 2, 3]), "route 1 carries 15 > capacity 10"),
        (routes([1, 0, 2], [3]), "passes through the depot"),
        (routes([1, 2], [4]), "node 4, not in 0..3"),
    ],
)
def test_infeasible_reasons(line, solution, reason):
    verdict = evaluate(line, solution)
    assert not verdict.feasible
    assert reason in verdict.reason


def test_vehicle_limit():
    coords = np.array([[0, 0], [10, 0], [20, 0]], dtype=float)
    instance = CVRPInstance("v", EdgeWeights("EUC_2D", coords=coords), np.array([0, 1, 1]), 10, num_vehicles=1)
    assert evaluate(instance, routes([1, 2])).feasible
    assert "only 1 vehicles" in evaluate(instance, routes([1], [2])).reason


def test_empty_routes_are_ignored(line):
    assert evaluate(line, routes([1, 2], [], [3])).objective == 100


def _feasible_routes(instance, rng):
    """Random feasible routes: a random order cut greedily by capacity."""
    result, current, load = [], [], 0
    for c in rng.permutation(np.arange(1, instance.n)):
        if load + instance.demands[c] > instance.capacity:
            result.append(current)
            current, load = [], 0
        current.append(int(c))
        load += instance.demands[c]
    return result + [current]


def test_mutations_are_caught():
    rng = np.random.default_rng(1)
    instance = generate("cvrp-uniform", "m", 3, {"n": 50}).instance
    for _ in range(100):
        base = _feasible_routes(instance, rng)
        assert evaluate(instance, CVRPSolution(tuple(map(np.array, base)))).feasible
        kind = rng.integers(3)
        mutated = [list(r) for r in base]
        if kind == 0:  # drop a customer
            r = rng.integers(len(mutated))
            mutated[r].pop(rng.integers(len(mutated[r])))
        elif kind == 1:  # duplicate a customer into another route
            a, b = rng.choice(len(mutated), 2, replace=False)
            mutated[b].append(mutated[a][0])
        else:  # merge two routes beyond capacity
            loads = [instance.demands[r].sum() for r in mutated]
            a = int(np.argmax(loads))
            b = next(i for i in range(len(mutated)) if i != a and loads[a] + loads[i] > instance.capacity)
            mutated[a] += mutated.pop(b)
        assert not evaluate(instance, CVRPSolution(tuple(map(np.array, mutated)))).feasible


# a maximum route length (CVRPLIB's DISTANCE) and the service time counted in it


def _limited(max_distance, service_time=None):
    coords = np.array([[0, 0], [10, 0], [20, 0], [30, 0]], dtype=float)
    weights = EdgeWeights("EUC_2D", coords=coords)
    return CVRPInstance("limit", weights, np.array([0, 1, 1, 1]), 10, max_distance=max_distance, service_time=service_time)


def test_a_route_longer_than_the_limit_is_refused_in_one_line():
    instance = _limited(50.0)  # routes 0-10-20-0 (40) and 0-30-0 (60)
    verdict = evaluate(instance, routes([1, 2], [3]))
    assert not verdict.feasible
    assert verdict.reason == "route 2 has length 60 > maximum route length 50"
    assert evaluate(replace(instance, max_distance=None), routes([1, 2], [3])).feasible


def test_a_route_exactly_at_the_limit_is_feasible_and_the_objective_is_travel_alone():
    verdict = evaluate(_limited(60.0), routes([1, 2], [3]))
    assert verdict.feasible and verdict.objective == 100


def test_service_times_count_against_the_limit_not_in_the_objective():
    instance = _limited(64.0, service_time=3.0)
    assert evaluate(instance, routes([1, 2], [3])).objective == 100  # 40 + 2 * 3 and 60 + 3: within 64
    verdict = evaluate(instance, routes([1], [2, 3]))
    assert verdict.reason == "route 2 has length 66 (60 travel + 6 service) > maximum route length 64"


def test_a_limit_must_be_a_positive_finite_number():
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="max_distance must be a finite positive number"):
            _limited(bad)
    with pytest.raises(ValueError, match="service_time must be a finite non-negative number"):
        _limited(10.0, service_time=-1.0)


def test_instances_without_a_limit_hash_as_before_the_limit_existed():
    """Pinned hashes, computed before max_distance and service_time were fields: they are left out while None."""
    weights = EdgeWeights("EUC_2D", coords=np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]))
    cvrp = CVRPInstance("pinned", weights, np.array([0, 2, 3]), 5)
    windows, service = np.array([[0.0, 100.0]] * 3), np.zeros(3)
    cvrptw = CVRPTWInstance("pinned", weights, np.array([0, 2, 3]), 5, None, weights, windows, service)
    assert content_sha256(cvrp) == "bd6136c663ddb419dc87b091d146ed23e1de75e931affda3b6559f8bbebc8681"
    assert content_sha256(cvrptw) == "35a376303c8d7e3675a27848a660cac62c894c0e99734e787f5b5543b06a5fb7"
    assert content_sha256(replace(cvrp, max_distance=20.0)) != content_sha256(cvrp)  # a limit is part of the instance


def test_the_transforms_unround_and_drop_the_limit():
    instance = _limited(50.0, service_time=1.0)
    unrounded = PROBLEMS["cvrp"].transforms["unrounded"](instance)
    assert unrounded.weights.rule == "EXACT_2D" and unrounded.max_distance == 50.0 and unrounded.service_time == 1.0
    free = PROBLEMS["cvrp"].transforms["unrounded-no-route-limit"](instance)
    assert free.weights.rule == "EXACT_2D" and free.max_distance is None and free.service_time is None
    assert evaluate(free, routes([1, 2, 3])).objective == 60  # one route: capacity alone
    with pytest.raises(ValueError, match="not EUC_2D"):
        PROBLEMS["cvrp"].transforms["unrounded"](unrounded)


def test_the_unrounded_length_is_the_euclidean_routes_by_hand():
    """Depot (0,0); customers (1,1), (2,0), (0,3). Routes 0-1-2-0 (sqrt 2, sqrt 2, 2) and 0-3-0 (3, 3): 8 + 2 sqrt 2
    unrounded; CVRPLIB's nint prices the same legs 1, 1, 2, 3, 3 = 10."""
    coords = np.array([[0, 0], [1, 1], [2, 0], [0, 3]], dtype=float)
    instance = CVRPInstance("four", EdgeWeights("EUC_2D", coords=coords), np.array([0, 1, 1, 1]), 2)
    solution = routes([1, 2], [], [3])
    assert evaluate(instance, solution).objective == 10
    assert PROBLEMS["cvrp"].unrounded(instance, solution) == pytest.approx(8 + 2 * 2**0.5, rel=1e-15)
    matrix = CVRPInstance("m", EdgeWeights("EXPLICIT", matrix=np.ones((4, 4), dtype=np.int64)), np.array([0, 1, 1, 1]), 2)
    assert PROBLEMS["cvrp"].unrounded(matrix, solution) is None
