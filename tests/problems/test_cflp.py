import numpy as np
import pytest

from frontierco.problems import PROBLEMS, CFLPInstance, CFLPSolution, evaluate
from frontierco.problems.files import read_solution, write_solution


@pytest.fixture
def two_by_three():
    """Facilities of capacity 10 and 6 (fixed 100, 50); customers of demand 4, 4, 4."""
    cost = np.array([[1.0, 2.0, 3.0], [5.0, 5.0, 1.0]])
    return CFLPInstance("c", np.array([10.0, 6.0]), np.array([100.0, 50.0]), np.array([4.0, 4.0, 4.0]), cost)


def test_single_source_cost_is_fixed_plus_assignment(two_by_three):
    verdict = evaluate(two_by_three, CFLPSolution.single_source(np.array([0, 0, 1])))
    assert verdict.feasible and verdict.objective == 100 + 50 + 1 + 2 + 1


def test_split_customer_pays_its_fractions(two_by_three):
    solution = CFLPSolution(np.array([0, 1]), np.array([0, 1, 2, 2]), np.array([0, 0, 0, 1]), np.array([1.0, 1.0, 0.25, 0.75]))
    verdict = evaluate(two_by_three, solution)
    assert verdict.feasible and verdict.objective == pytest.approx(150 + 1 + 2 + 0.25 * 3 + 0.75 * 1)


def test_an_open_unused_facility_still_pays(two_by_three):
    solution = CFLPSolution(np.array([0, 1]), np.arange(2), np.zeros(2, dtype=np.int64), np.ones(2))
    roomy = CFLPInstance("r", np.array([10.0, 6.0]), np.array([100.0, 50.0]), np.array([4.0, 4.0]), two_by_three.cost[:, :2])
    assert evaluate(roomy, solution).objective == 150 + 1 + 2


@pytest.mark.parametrize(
    "solution, reason",
    [
        (
            CFLPSolution(np.array([0]), np.arange(3), np.array([0, 0, 1]), np.ones(3)),
            "customer 3 is served by facility 2, which is not open",
        ),
        (CFLPSolution(np.array([0]), np.array([0, 1]), np.array([0, 0]), np.ones(2)), "customer 3 is served fractions summing to 0"),
        (
            CFLPSolution(np.array([0]), np.array([0, 1, 2, 2]), np.zeros(4, dtype=np.int64), np.ones(4)),
            "customer 3 is served fractions summing to 2",
        ),
        (
            CFLPSolution(np.array([1]), np.arange(3), np.ones(3, dtype=np.int64), np.ones(3)),
            "facility 2 serves demand 12, over its capacity 6",
        ),
        (CFLPSolution(np.array([0, 0]), np.arange(3), np.zeros(3, dtype=np.int64), np.ones(3)), "facility 1 opened twice"),
        (CFLPSolution(np.array([2]), np.arange(3), np.zeros(3, dtype=np.int64), np.ones(3)), "open facility 3 is not in 1..2"),
        (CFLPSolution(np.array([0]), np.array([0, 1, 3]), np.zeros(3, dtype=np.int64), np.ones(3)), "customer 4 is not in 1..3"),
        (CFLPSolution(np.array([0, 1]), np.array([0, 1, 2, 2]), np.array([0, 0, 0, 1]), np.array([1, 1, 1.5, -0.5])), "negative fraction"),
        (CFLPSolution(np.array([0]), np.arange(3), np.zeros(3, dtype=np.int64), np.ones(2)), "lists of one length"),
        (CFLPSolution(np.array([0.5]), np.arange(3), np.zeros(3, dtype=np.int64), np.ones(3)), "not integers"),
    ],
)
def test_each_broken_constraint_is_named(two_by_three, solution, reason):
    verdict = evaluate(two_by_three, solution)
    assert not verdict.feasible and reason in verdict.reason


def test_capacity_tolerance_is_tight(two_by_three):
    """Facility 2 (capacity 6) serves customer 3 and a share of customer 2: a load of 6 + 1e-5 is over, 6 + 1e-7 within
    the stated tolerance."""
    for excess, feasible in ((1e-5, False), (1e-7, True)):
        share = (2 + excess) / 4
        solution = CFLPSolution(np.array([0, 1]), np.array([0, 1, 1, 2]), np.array([0, 0, 1, 1]), np.array([1, 1 - share, share, 1]))
        assert evaluate(two_by_three, solution).feasible is feasible


def test_instance_validation():
    with pytest.raises(ValueError, match="one entry per facility"):
        CFLPInstance("x", np.ones(3), np.ones(2), np.ones(2), np.ones((2, 2)))
    with pytest.raises(ValueError, match="non-negative"):
        CFLPInstance("x", np.ones(2), np.ones(2), -np.ones(2), np.ones((2, 2)))
    with pytest.raises(ValueError, match="finite"):
        CFLPInstance("x", np.ones(2), np.ones(2), np.ones(2), np.full((2, 2), np.nan))


def test_json_and_file_round_trip(tmp_path, two_by_three):
    problem = PROBLEMS["cflp"]
    solution = CFLPSolution(np.array([0, 1]), np.array([0, 1, 2, 2]), np.array([0, 0, 0, 1]), np.array([1.0, 1.0, 0.1, 0.9]))
    again = problem.decode(problem.encode(solution))
    assert evaluate(two_by_three, again) == evaluate(two_by_three, solution)
    path = tmp_path / "s.txt"
    write_solution(path, two_by_three, solution, None)
    assert evaluate(two_by_three, read_solution(path, two_by_three)) == evaluate(two_by_three, solution)


def test_contract_cases_are_instances():
    for build in PROBLEMS["cflp"].contract_cases().values():
        assert isinstance(build(), CFLPInstance)


@pytest.mark.parametrize("fraction", [{"a": 1}, "x", 10**400], ids=["object", "string", "past-float64"])
def test_fractions_that_are_not_numbers_are_refused_not_raised(two_by_three, fraction):
    solution = PROBLEMS["cflp"].decode({"open": [0], "customer": [0, 1, 2], "facility": [0, 0, 0], "fraction": fraction})
    verdict = evaluate(two_by_three, solution)
    assert not verdict.feasible and "fractions" in verdict.reason
