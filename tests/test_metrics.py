import math

import pytest

from frontierco.metrics import (
    aggregate,
    performance_profile,
    primal_gap,
    primal_integral,
    score,
    score_run,
    shifted_geometric_mean,
    solve_time,
)


def test_primal_gap_hand_values():
    assert primal_gap(110, 100) == pytest.approx(10 / 110)
    assert primal_gap(90, 100) == pytest.approx(0.1)  # max(|f|, |f*|) = 100
    assert primal_gap(-90, -100) == pytest.approx(0.1)
    assert primal_gap(0, 0) == 0.0
    assert primal_gap(None, 100) == 1.0
    assert primal_gap(-5, 5) == 1.0  # capped at 1
    assert score(110, 100) == pytest.approx(1 - 10 / 110)


def test_primal_gap_needs_reference():
    with pytest.raises(ValueError):
        primal_gap(1.0, None)


def test_primal_integral_hand_value():
    # nothing until t=2 (gap 1), then 120 (gap 1/6) until t=6, then 100 (gap 0) until 10: (2 + 4/6) / 10
    assert primal_integral([(2.0, 120.0), (6.0, 100.0)], 100.0, 10.0) == pytest.approx((2 + 4 / 6) / 10)
    assert primal_integral([], 100.0, 10.0) == 1.0
    assert primal_integral([(0.0, 100.0)], 100.0, 10.0) == 0.0


def test_shifted_geometric_mean_hand_value():
    # shift 1: exp((log 2 + log 8) / 2) - 1 = 4 - 1
    assert shifted_geometric_mean([1.0, 7.0], 1.0) == pytest.approx(3.0)
    assert shifted_geometric_mean([5.0], 10.0) == pytest.approx(5.0)


def test_unsolved_counts_at_the_limit():
    assert solve_time("timeout", None, 60.0) == 60.0
    assert solve_time("feasible", 12.0, 60.0) == 12.0


def test_aggregate_counts_runs_and_failures():
    from tests.helpers import record

    runs = [
        score_run(record("a", "t1", "feasible", 110.0, [(1.0, 110.0)]), 100.0, "min"),
        score_run(record("a", "t2", "crash", None, []), 100.0, "min"),
    ]
    agg = aggregate(runs, "mis")
    assert agg.runs == 2 and agg.feasible == 1 and agg.optimal == 0 and agg.feasible_share == 0.5
    assert agg.mean_gap == pytest.approx((10 / 110 + 1) / 2)
    assert agg.sgm_time == pytest.approx(math.sqrt(2 * 11) - 1)  # time to best 1 s, and the 10 s limit


def test_a_declined_instance_counts_as_no_solution():
    """A solver that declines an instance it cannot serve (the run's record an error with the reason) scores gap 1 and
    primal integral 1 on it, as FrontierCO counts an instance without a solution."""
    from tests.helpers import record

    declined = score_run(record("a", "t1", "error", None, []), 100.0, "min")
    assert declined.gap == 1.0 and declined.integral == 1.0
    agg = aggregate([declined, score_run(record("a", "t2", "feasible", 100.0, [(1.0, 100.0)]), 100.0, "min")], "tsp")
    assert agg.runs == 2 and agg.feasible == 1 and agg.mean_gap == pytest.approx(0.5)


def test_performance_profile():
    costs = {"a": [1.0, 2.0, math.inf], "b": [2.0, 2.0, 3.0]}
    profile = performance_profile(costs, [1.0, 2.0])
    assert profile["a"] == [pytest.approx(2 / 3), pytest.approx(2 / 3)]
    assert profile["b"] == [pytest.approx(2 / 3), pytest.approx(1.0)]
    # a problem nobody solves is unsolved for everyone
    assert performance_profile({"a": [math.inf], "b": [math.inf]}, [1.0, 100.0]) == {"a": [0.0, 0.0], "b": [0.0, 0.0]}


def test_a_proven_run_counts_as_optimal_once_its_reference_is_known():
    """Runs recorded before a collection had references are 'feasible'; a proven one that matches the
    reference found later counts as optimal, an unproven or different one does not."""
    import dataclasses

    from tests.helpers import record

    proven = dataclasses.replace(record("a", "t1", "feasible", 100.0, [(1.0, 100.0)]), proven=True)
    unproven = record("a", "t2", "feasible", 100.0, [(1.0, 100.0)])
    wrong = dataclasses.replace(record("a", "t3", "feasible", 101.0, [(1.0, 101.0)]), proven=True)
    runs = [score_run(proven, 100.0, "min"), score_run(unproven, 100.0, "min"), score_run(wrong, 100.0, "min")]
    assert [r.optimal for r in runs] == [True, False, False]
    assert aggregate(runs, "tsp").optimal == 1
