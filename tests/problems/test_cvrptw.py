import numpy as np
import pytest

from frontierco.problems import CVRPSolution, CVRPTWInstance, EdgeWeights, evaluate


@pytest.fixture
def instance():
    # distances = durations; depot window [0, 100]; customer 1 at 10 (window [20, 40]), customer 2 at 20 ([0, 25])
    weights = EdgeWeights("EXACT_2D", coords=np.array([[0, 0], [10, 0], [20, 0]], dtype=float))
    windows = np.array([[0, 100], [20, 40], [0, 25]], dtype=float)
    return CVRPTWInstance("tw", weights, np.array([0, 1, 1]), 10, None, weights, windows, np.array([0, 5, 5], dtype=float))


def test_waiting_is_allowed(instance):
    # 2 first: reach it at 20, serve until 25, reach 1 at 35 <= 40, back at 50
    assert evaluate(instance, CVRPSolution((np.array([2, 1]),))).feasible


def test_late_arrival_is_named(instance):
    # 1 first: reach it at 10, wait to 20, serve until 25, reach 2 at 35 > 25
    verdict = evaluate(instance, CVRPSolution((np.array([1, 2]),)))
    assert not verdict.feasible
    assert "customer 2 at 35" in verdict.reason


def test_depot_closing(instance):
    tight = CVRPTWInstance(
        "tw2",
        instance.weights,
        instance.demands,
        10,
        None,
        instance.durations,
        np.array([[0, 30], [0, 100], [0, 100]], dtype=float),
        np.array([0, 5, 5], dtype=float),
    )
    verdict = evaluate(tight, CVRPSolution((np.array([2, 1]),)))
    assert not verdict.feasible and "the depot" in verdict.reason


def test_duplicate_still_caught(instance):
    assert "twice" in evaluate(instance, CVRPSolution((np.array([2, 1]), np.array([1])))).reason
