import numpy as np
import pytest

from frontierco.problems import PROBLEMS, EdgeWeights, TSPInstance, TSPSolution, evaluate
from frontierco.problems.routing.tsp import unrounded_length


@pytest.fixture
def square():
    coords = np.array([[0, 0], [0, 10], [10, 10], [10, 0]], dtype=float)
    return TSPInstance("square", EdgeWeights("EUC_2D", coords=coords))


def test_feasible_tour_length(square):
    verdict = evaluate(square, TSPSolution(np.array([0, 1, 2, 3])))
    assert verdict.feasible and verdict.objective == 40


def test_crossing_tour_is_longer(square):
    assert evaluate(square, TSPSolution(np.array([0, 2, 1, 3]))).objective == 10 + 14 + 10 + 14


@pytest.mark.parametrize(
    "tour, reason",
    [
        ([0, 1, 2], "node 4 is missing"),
        ([0, 1, 2, 2], "node 3 visited twice"),
        ([0, 1, 2, 4], "node 5 is not in 1..4"),
        ([0, 1, 2.5, 3], "not integers"),
    ],
)
def test_infeasible_reasons(square, tour, reason):
    verdict = evaluate(square, TSPSolution(np.array(tour)))
    assert not verdict.feasible and verdict.objective is None
    assert reason in verdict.reason


def test_asymmetric_direction_matters():
    matrix = np.array([[0, 1, 9], [9, 0, 1], [1, 9, 0]])
    instance = TSPInstance("a3", EdgeWeights("EXPLICIT", matrix=matrix))
    assert instance.is_asymmetric
    assert evaluate(instance, TSPSolution(np.array([0, 1, 2]))).objective == 3
    assert evaluate(instance, TSPSolution(np.array([0, 2, 1]))).objective == 27


def test_mutations_are_caught():
    rng = np.random.default_rng(0)
    n = 50
    instance = TSPInstance("u", EdgeWeights("EXACT_2D", coords=rng.random((n, 2))))
    for _ in range(200):
        tour = rng.permutation(n)
        kind = rng.integers(3)
        if kind == 0:
            mutated = np.delete(tour, rng.integers(n))
        elif kind == 1:
            mutated = tour.copy()
            i, j = rng.choice(n, 2, replace=False)
            mutated[i] = mutated[j]
        else:
            mutated = np.append(tour, tour[rng.integers(n)])
        assert not evaluate(instance, TSPSolution(mutated)).feasible


def test_the_unrounded_length_is_the_euclidean_tour_by_hand():
    """(0,0) -> (3,0) -> (3,1.5) -> back: legs 3, 1.5 and sqrt(11.25); TSPLIB's nint makes them 3, 2 and 3."""
    points = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 1.5]])
    tour = TSPSolution(np.array([0, 1, 2]))
    for rule, rounded in (("EUC_2D", 8), ("CEIL_2D", 3 + 2 + 4), ("EXACT_2D", 4.5 + 11.25**0.5)):
        instance = TSPInstance("three", EdgeWeights(rule, coords=points))
        assert evaluate(instance, tour).objective == pytest.approx(rounded)
        assert PROBLEMS["tsp"].unrounded(instance, tour) == pytest.approx(4.5 + 11.25**0.5, rel=1e-15)


def test_distances_that_are_not_euclidean_have_no_unrounded_length():
    tour = TSPSolution(np.array([0, 1]))
    assert unrounded_length(TSPInstance("m", EdgeWeights("EXPLICIT", matrix=np.array([[0, 3], [4, 0]]))), tour) is None
    assert unrounded_length(TSPInstance("g", EdgeWeights("GEO", coords=np.array([[1.0, 2.0], [3.0, 4.0]]))), tour) is None
