"""solverkit: a SCIP search paused and resumed, with solutions handed in from outside."""

from __future__ import annotations

import numpy as np
import pytest

from frontierco.kit.solverkit import ScipSearch

pyscipopt = pytest.importorskip("pyscipopt")


def knapsack(n: int = 40, dimensions: int = 3) -> tuple[ScipSearch, np.ndarray]:
    """A multidimensional 0/1 knapsack (not solved at SCIP's root node) and its objective coefficients."""
    rng = np.random.default_rng(3)
    weights = rng.integers(10, 60, (dimensions, n))
    values = weights.sum(0) + rng.integers(0, 40, n)
    model = pyscipopt.Model()
    model.hideOutput()
    xs = [model.addVar(vtype="B", name=f"x{i}") for i in range(n)]
    for row in weights:
        model.addCons(pyscipopt.quicksum(int(row[i]) * xs[i] for i in range(n)) <= int(row.sum() // 2))
    model.setObjective(pyscipopt.quicksum(int(values[i]) * xs[i] for i in range(n)), "maximize")
    return ScipSearch(model, xs), values


def test_a_search_in_slices_resumes_where_it_stopped_and_takes_solutions_from_outside() -> None:
    search, values = knapsack()
    assert search.offer(np.zeros(len(values)))  # before solving: kept as a start
    search.model.setParam("limits/nodes", 2)
    list(search.run(until=60.0))
    assert not search.finished and search.model.getStage() == pyscipopt.SCIP_STAGE.SOLVING
    nodes, incumbent = search.model.getNNodes(), search.values(search.model.getBestSol())
    assert not search.offer(incumbent)  # no better than the incumbent: not stored
    search.model.setParam("limits/nodes", -1)
    found = list(search.run(until=60.0))
    assert search.finished and search.model.getNNodes() > nodes  # the same tree, continued
    assert found[-1][1] and float(values @ found[-1][0]) == pytest.approx(search.model.getObjVal())
    assert not search.offer(incumbent)  # solved: nothing to hand in


def test_a_fresh_search_proves_the_same_optimum_in_one_slice() -> None:
    sliced, values = knapsack()
    sliced.model.setParam("limits/nodes", 2)
    list(sliced.run(until=60.0))
    sliced.model.setParam("limits/nodes", -1)
    list(sliced.run(until=60.0))
    whole, _ = knapsack()
    found = list(whole.run(until=60.0))
    assert found[-1][1] and whole.model.getObjVal() == pytest.approx(sliced.model.getObjVal())
