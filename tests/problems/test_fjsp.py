import json

import numpy as np
import pytest

from frontierco.problems import PROBLEMS, FJSPInstance, FJSPSolution, evaluate
from frontierco.problems.files import read_solution, write_solution


@pytest.fixture
def shop():
    """Job 1: op 1 on machine 1 (3) or 2 (5), op 2 on machine 2 (2); job 2: op 1 on machine 1 (4)."""
    return FJSPInstance.from_lists("s", 2, [[[(0, 3), (1, 5)], [(1, 2)]], [[(0, 4)]]])


def test_feasible_schedule_and_its_makespan(shop):
    verdict = evaluate(shop, FJSPSolution(np.array([0, 1, 0]), np.array([0, 3, 3])))
    assert verdict.feasible and verdict.objective == 7


def test_makespan_is_recomputed_from_the_times_of_the_chosen_machines(shop):
    assert evaluate(shop, FJSPSolution(np.array([1, 1, 0]), np.array([0, 5, 0]))).objective == 7
    assert evaluate(shop, FJSPSolution(np.array([1, 1, 0]), np.array([0, 9, 0]))).objective == 11


@pytest.mark.parametrize(
    "machines, starts, reason",
    [
        ([0, 0, 0], [0, 3, 3], "eligible machine: operation 2 of job 1 is on machine 1, not one of 2"),
        ([0, 1, 0], [0, 2, 3], "job precedence: operation 2 of job 1 starts at 2, before operation 1 of the same job ends at 3"),
        ([0, 1, 0], [0, 3, 2], "no overlap: on machine 1, operation 1 of job 2 starts at 2, before operation 1 of job 1 ends at 3"),
        ([0, 1, 0], [-1, 3, 3], "operation 1 of job 1 starts at -1"),
        ([0, 1], [0, 3], "2 machines and 2 start times for 3 operations"),
        ([0, 1.5, 0], [0, 3, 3], "not integers"),
    ],
)
def test_each_broken_constraint_is_named(shop, machines, starts, reason):
    verdict = evaluate(shop, FJSPSolution(np.array(machines), np.array(starts)))
    assert not verdict.feasible and reason in verdict.reason


def test_an_operation_of_length_zero_overlaps_nothing():
    shop = FJSPInstance.from_lists("z", 1, [[[(0, 4)]], [[(0, 0)]]])
    assert evaluate(shop, FJSPSolution(np.array([0, 0]), np.array([0, 2]))).objective == 4


@pytest.mark.parametrize(
    "jobs, message",
    [
        ([[[(0, 3)], []]], "operation 2 of job 1 has no eligible machine"),
        ([[[(0, 3)]], [[(1, -2)]]], "operation 1 of job 2 has a negative processing time"),
        ([[[(0, 3), (0, 4)]]], "lists a machine twice"),
        ([[[(2, 3)]]], "machine outside 1..2"),
        ([[[(0, 3)]], []], "every job needs at least one operation"),
    ],
)
def test_lying_instances_are_refused(jobs, message):
    with pytest.raises(ValueError, match=message):
        FJSPInstance.from_lists("bad", 2, jobs)


def test_solution_file_and_json_round_trip(tmp_path, shop):
    solution = FJSPSolution(np.array([1, 1, 0]), np.array([0, 5.5, 0]))
    write_solution(tmp_path / "s.sol", shop, solution, 7.5)
    again = read_solution(tmp_path / "s.sol", shop)
    assert again.machines.tolist() == [1, 1, 0] and again.starts.tolist() == [0, 5.5, 0]
    problem = PROBLEMS["fjsp"]
    decoded = problem.decode(json.loads(json.dumps(problem.encode(solution))))
    assert evaluate(shop, decoded).objective == evaluate(shop, solution).objective == 7.5


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 1 1 0\n2 1 1 3\n", "operation 2 of job 1 has none"),
        ("1 1 1 0\n1 1 2 0\n", "listed again"),
        ("1 3 1 0\n", "for one of the 2 jobs"),
        ("1 1 0 0\n1 2 2 3\n2 1 1 0\n", "operation 1 of job 1: machine 0 is not in 1..2"),  # was "... has none"
        ("1 1 3 0\n1 2 2 3\n2 1 1 0\n", "operation 1 of job 1: machine 3 is not in 1..2"),
    ],
)
def test_lying_solution_files_are_refused(tmp_path, shop, text, message):
    from frontierco.errors import FormatError

    (tmp_path / "s.sol").write_text(text)
    with pytest.raises(FormatError, match=message):
        read_solution(tmp_path / "s.sol", shop)


def test_contract_cases_are_valid_and_one_has_an_idle_machine():
    cases = {name: build() for name, build in PROBLEMS["fjsp"].contract_cases().items()}
    assert cases["one"].num_operations == 1
    idle = cases["idle-machine"]
    assert set(range(idle.num_machines)) - set(idle.machines.tolist()) == {2}


@pytest.mark.parametrize(
    "data, reason",
    [
        ({"machines": [0, 1.5, 0], "starts": [0, 3, 3]}, "not integers"),  # was cast to machine 1 and accepted
        ({"machines": [0, 2**64, 0], "starts": [0, 3, 3]}, "not integers"),  # was an OverflowError out of decode
        ({"machines": [0, float("inf"), 0], "starts": [0, 3, 3]}, "not integers"),
    ],
    ids=["fraction", "past-int64", "infinite"],
)
def test_a_sent_machine_is_checked_as_sent_never_cast(shop, data, reason):
    problem = PROBLEMS["fjsp"]
    verdict = evaluate(shop, problem.decode(data))
    assert not verdict.feasible and reason in verdict.reason


def test_a_start_past_2_53_is_refused_where_a_float_would_absorb_an_overlap(shop):
    late = float(2**60)  # late + 3 == late in float64: job 1's operations and both on machine 1 would "not overlap"
    verdict = evaluate(shop, FJSPSolution(np.array([0, 1, 0]), np.array([late, late, late])))
    assert not verdict.feasible and "after 2^53" in verdict.reason
    assert evaluate(shop, FJSPSolution(np.array([0, 1, 0]), np.array([2.0**52, 2.0**52 + 3, 2.0**52 + 3]))).feasible


def test_a_start_past_float64_is_malformed_data():
    with pytest.raises(ValueError, match="not a fjsp solution"):
        PROBLEMS["fjsp"].decode({"machines": [0], "starts": [10**400]})
