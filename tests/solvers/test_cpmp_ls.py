"""cpmp-ls: feasible, improving yields; capacities honoured where the nearest median would overflow."""

from frontierco.problems import PROBLEMS, evaluate
from frontierco.problems.generate import generate
from frontierco.solver import Budget, get_solver


def _run(instance, seconds=2.0):
    return list(get_solver("cpmp-ls").load()().solve(instance, Budget(seconds)))


def test_tight_case_reaches_its_optimum():
    instance = PROBLEMS["cpmp"].contract_cases()["tight"]()  # two pairs 1 apart, 10 between them, capacity 2
    assert evaluate(instance, _run(instance)[-1]).objective == 2


def test_every_yield_is_feasible_and_better_than_the_last():
    instance = generate("cpmp-frontierco", "p", 5, {"n": 60, "p": 5}).instance
    solutions = _run(instance)
    values = [evaluate(instance, s) for s in solutions]
    assert all(v.feasible for v in values), [v.reason for v in values if not v.feasible]
    objectives = [v.objective for v in values]
    assert all(b < a for a, b in zip(objectives, objectives[1:], strict=False))


def test_nothing_when_no_p_medians_can_hold_the_demand():
    assert _run(PROBLEMS["cpmp"].contract_cases()["infeasible"](), 1.0) == []
