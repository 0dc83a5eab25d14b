import numpy as np
import pytest

from frontierco.problems import PROBLEMS, CPMPInstance, CPMPSolution, evaluate
from frontierco.problems.files import read_solution, write_solution


@pytest.fixture
def line4():
    """Points at x = 0, 1.9, 10, 12.5 (y = 0), capacity 2, demand 1, p = 2."""
    coords = np.array([[0.0, 0.0], [1.9, 0.0], [10.0, 0.0], [12.5, 0.0]])
    return CPMPInstance("l", 2, coords, np.full(4, 2.0), np.ones(4))


def test_distances_are_rounded_down(line4):
    verdict = evaluate(line4, CPMPSolution(np.array([0, 2]), np.array([0, 0, 2, 2])))
    assert verdict.feasible and verdict.objective == 1 + 2  # floor(1.9) + floor(2.5)


def test_a_median_need_not_serve_itself(line4):
    """FrontierCO's checker only asks that each point goes to a median: median 1 may send itself to median 2."""
    roomy = CPMPInstance("r", 2, line4.coords, np.full(4, 4.0), np.ones(4))
    verdict = evaluate(roomy, CPMPSolution(np.array([0, 1]), np.array([1, 1, 1, 1])))
    assert verdict.feasible and verdict.objective == 1 + 0 + 8 + 10


@pytest.mark.parametrize(
    "solution, reason",
    [
        (CPMPSolution(np.array([0]), np.array([0, 0, 0, 0])), "1 medians, but the instance asks for exactly p = 2"),
        (CPMPSolution(np.array([0, 0]), np.array([0, 0, 0, 0])), "median 1 listed twice"),
        (CPMPSolution(np.array([0, 4]), np.array([0, 0, 0, 0])), "median 5 is not a point in 1..4"),
        (CPMPSolution(np.array([0, 2]), np.array([0, 1, 2, 2])), "point 2 is assigned to 2, which is not a median"),
        (CPMPSolution(np.array([0, 2]), np.array([0, 0, 0, 2])), "median 1 serves demand 3, over its capacity 2"),
        (CPMPSolution(np.array([0, 2]), np.array([0, 0, 2])), "one per point is 4"),
        (CPMPSolution(np.array([0, 2]), np.array([0, 0, 2, 7])), "assigned to 8, not a point"),
        (CPMPSolution(np.array([0.5, 2]), np.array([0, 0, 2, 2])), "not integers"),
    ],
)
def test_each_broken_constraint_is_named(line4, solution, reason):
    verdict = evaluate(line4, solution)
    assert not verdict.feasible and reason in verdict.reason


def test_instance_validation():
    with pytest.raises(ValueError, match="p must be in 1..2"):
        CPMPInstance("x", 3, np.zeros((2, 2)), np.ones(2), np.ones(2))
    with pytest.raises(ValueError, match="non-negative"):
        CPMPInstance("x", 1, np.zeros((2, 2)), -np.ones(2), np.ones(2))
    with pytest.raises(ValueError, match="one entry per point"):
        CPMPInstance("x", 1, np.zeros((2, 2)), np.ones(3), np.ones(2))
    for lying in (1.5, 2.0, True, "2"):
        with pytest.raises(ValueError, match="p must be a whole number of medians"):
            CPMPInstance("x", lying, np.zeros((2, 2)), np.ones(2), np.ones(2))
    assert CPMPInstance("x", np.int64(2), np.zeros((2, 2)), np.ones(2), np.ones(2)).p == 2


def test_json_and_file_round_trip(tmp_path, line4):
    problem = PROBLEMS["cpmp"]
    solution = CPMPSolution(np.array([0, 2]), np.array([0, 0, 2, 2]))
    assert evaluate(line4, problem.decode(problem.encode(solution))) == evaluate(line4, solution)
    path = tmp_path / "s.txt"
    write_solution(path, line4, solution, None)
    assert evaluate(line4, read_solution(path, line4)) == evaluate(line4, solution)


def test_contract_cases_are_instances():
    for build in PROBLEMS["cpmp"].contract_cases().values():
        assert isinstance(build(), CPMPInstance)
