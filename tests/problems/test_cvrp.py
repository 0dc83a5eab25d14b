import numpy as np
import pytest

from frontierco.problems import CVRPInstance, CVRPSolution, EdgeWeights, evaluate
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
