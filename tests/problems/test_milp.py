import numpy as np
import pytest
import scipy.sparse as sp

from frontierco.problems import MILPInstance, MILPSolution, evaluate
from frontierco.problems.generate import generate
from frontierco.problems.milp.milp import ABS_TOL
from frontierco.problems.milp.mps import to_highs


@pytest.fixture
def knapsack():
    # max 3a + 2b + c  s.t.  2a + 2b + c <= 3 (row "cap"), a, b binary, c in [0, 1.5] continuous
    return MILPInstance(
        name="k",
        sense="max",
        objective=np.array([3.0, 2.0, 1.0]),
        matrix=sp.csr_matrix(np.array([[2.0, 2.0, 1.0]])),
        row_lower=np.array([-np.inf]),
        row_upper=np.array([3.0]),
        col_lower=np.zeros(3),
        col_upper=np.array([1.0, 1.0, 1.5]),
        integrality=np.array([True, True, False]),
        col_names=("a", "b", "c"),
        row_names=("cap",),
        offset=0.5,
    )


def test_objective_with_offset(knapsack):
    verdict = evaluate(knapsack, MILPSolution(np.array([1.0, 0.0, 1.0])))
    assert verdict.feasible and verdict.objective == 4.5


@pytest.mark.parametrize(
    "x, reason",
    [
        ([1, 1, 0], "row cap violated by 1"),
        ([0.5, 0, 0], "integer column a = 0.5 is fractional"),
        ([0, 0, 2], "column c = 2 violates its bounds [0, 1.5] by 0.5"),
        ([0, 0], "x has 2 values for 3 columns"),
        ([0, np.nan, 0], "non-finite"),
    ],
)
def test_infeasible_reasons(knapsack, x, reason):
    verdict = evaluate(knapsack, MILPSolution(np.array(x, dtype=float)))
    assert not verdict.feasible and reason in verdict.reason


def test_tolerances(knapsack):
    assert evaluate(knapsack, MILPSolution(np.array([1.0, 0.0, 1.0 + 0.5 * ABS_TOL]))).feasible
    assert not evaluate(knapsack, MILPSolution(np.array([1.0, 0.0, 1.0 + 10 * ABS_TOL]))).feasible


def test_perturbing_an_optimal_solution_is_caught():
    instance = generate("milp-setcover", "sc", 4, {"rows": 40, "cols": 80, "density": 0.05}).instance
    highs = to_highs(instance)
    highs.run()
    x = np.round(np.array(highs.getSolution().col_value))
    verdict = evaluate(instance, MILPSolution(x))
    assert verdict.feasible and verdict.objective == pytest.approx(highs.getInfo().objective_function_value)
    rng = np.random.default_rng(0)
    on = np.flatnonzero(x > 0.5)
    for j in on:  # dropping a column of an optimal cover uncovers some row (or it was not optimal)
        mutated = x.copy()
        mutated[j] = 0.0
        assert not evaluate(instance, MILPSolution(mutated)).feasible
    for _ in range(20):
        mutated = x.copy()
        mutated[rng.integers(len(x))] += rng.choice([0.5, 2.0, -1.0])
        assert not evaluate(instance, MILPSolution(mutated)).feasible
