"""The MILP forms of formulations.FORMS: a problem's solution and its columns map onto each other at the same
objective, and the MILP solvers list every problem that has a form."""

import numpy as np
import pytest

from frontierco.kit.formulations import FORMS, as_milp
from frontierco.problems import PROBLEMS, CFLPSolution, CPMPSolution, MDSSolution, MILPSolution, evaluate
from frontierco.problems.generate import generate
from frontierco.problems.graphs.forms import mds_to_milp
from frontierco.solver import discover


@pytest.mark.parametrize("solver", ["highs", "scip"])
def test_milp_solvers_take_every_problem_with_a_form(solver):
    with_form = {problem.name for problem in PROBLEMS.values() if problem.instance_type in FORMS}
    assert with_form <= set(discover()[solver].problems)


def _cflp_columns(instance, solution):
    x = np.zeros(instance.n + instance.n * instance.m)
    x[solution.open] = 1.0
    np.add.at(x, instance.n + solution.facility * instance.m + solution.customer, solution.fraction)
    return x


def test_cflp_columns_and_solution_agree():
    instance = generate("cflp-cornuejols", "c", 2, {"customers": 15, "facilities": 6, "ratio": 5.0}).instance
    solution = CFLPSolution(np.arange(6), np.repeat(np.arange(15), 6), np.tile(np.arange(6), 15), np.full(90, 1 / 6))
    model, back = as_milp(instance)
    x = _cflp_columns(instance, solution)
    as_milp_value = evaluate(model, MILPSolution(x))
    assert as_milp_value.feasible and as_milp_value.objective == pytest.approx(evaluate(instance, solution).objective)
    assert evaluate(instance, back(x)).objective == pytest.approx(as_milp_value.objective)


def test_cflp_capacity_row_binds():
    instance = PROBLEMS["cflp"].contract_cases()["split"]()  # one customer of demand 10, capacities 6 and 6
    model, _ = as_milp(instance)
    whole = CFLPSolution(np.array([0]), np.array([0]), np.array([0]), np.array([1.0]))
    assert not evaluate(model, MILPSolution(_cflp_columns(instance, whole))).feasible


def test_cpmp_columns_and_solution_agree():
    instance = generate("cpmp-frontierco", "p", 2, {"n": 12, "p": 3}).instance
    medians = np.array([0, 5, 9])
    assignment = medians[np.argmin(instance.distances_to(medians), axis=1)]
    loads = np.bincount(assignment, weights=instance.demand, minlength=instance.n)
    roomy = type(instance)("r", 3, instance.coords, np.full(instance.n, loads.max()), instance.demand)
    solution = CPMPSolution(medians, assignment)
    model, back = as_milp(roomy)
    x = np.zeros(model.num_cols)
    x[medians] = 1.0
    x[roomy.n + assignment * roomy.n + np.arange(roomy.n)] = 1.0
    as_milp_value = evaluate(model, MILPSolution(x))
    assert as_milp_value.feasible and as_milp_value.objective == evaluate(roomy, solution).objective
    assert evaluate(roomy, back(x)).objective == as_milp_value.objective
    x[medians[0]] = 0.0  # p - 1 medians open: the count row and the links break
    assert not evaluate(model, MILPSolution(x)).feasible


def test_mds_rows_are_closed_neighbourhoods_and_column_values_map_back():
    graph = generate("mds-ba", "g", 5, {"n": 40, "m": 2}).instance
    milp = mds_to_milp(graph)
    assert milp.sense == "min" and milp.matrix.shape == (40, 40) and np.all(milp.row_lower == 1)
    for v in (0, 7, 39):
        assert milp.matrix[v].indices.tolist() == sorted([v, *graph.adjacency.neighbours(v).tolist()])
    rng = np.random.default_rng(0)
    model, wrap = as_milp(graph)
    for _ in range(20):
        x = (rng.random(40) < 0.3).astype(float)
        covered = bool(np.all(model.matrix @ x >= 1))
        assert evaluate(model, MILPSolution(x)).feasible == covered
        solution = wrap(x)
        assert isinstance(solution, MDSSolution) and evaluate(graph, solution).feasible == covered
