"""cflp-ls: feasible, improving yields; a split where no single facility can serve a customer."""

import pytest

from frontierco.problems import PROBLEMS, evaluate
from frontierco.problems.generate import generate
from frontierco.solver import Budget, get_solver


def _run(instance, seconds=120.0):  # a stall rule ends the run, the time limit only bounds a very busy machine
    return list(get_solver("cflp-ls").load()(patience=5).solve(instance, Budget(seconds)))


def test_splits_a_customer_no_facility_can_hold():
    instance = PROBLEMS["cflp"].contract_cases()["split"]()
    best = evaluate(instance, _run(instance)[-1])
    assert best.feasible and best.objective == pytest.approx(1 + 2 + 0.6 * 3 + 0.4 * 5)  # 6 of 10 from the cheaper


def test_every_yield_is_feasible_and_better_than_the_last():
    instance = generate("cflp-cornuejols", "c", 5, {"customers": 40, "facilities": 15, "ratio": 2.0}).instance
    values = [evaluate(instance, s) for s in _run(instance)]
    assert all(v.feasible for v in values), [v.reason for v in values if not v.feasible]
    objectives = [v.objective for v in values]
    assert len(objectives) >= 2 and all(b < a for a, b in zip(objectives, objectives[1:], strict=False))


def test_nothing_when_all_facilities_cannot_hold_the_demand():
    assert _run(PROBLEMS["cflp"].contract_cases()["infeasible"](), 1.0) == []


def test_a_highs_model_of_another_thread_count_earlier_in_the_process_does_not_stop_it():
    import highspy

    other = highspy.Highs()
    other.setOptionValue("output_flag", False)
    other.setOptionValue("threads", 2)  # HiGHS's one scheduler per process now has two threads
    other.addVar(0.0, 1.0)
    other.run()
    assert len(_run(PROBLEMS["cflp"].contract_cases()["split"]())) >= 1
