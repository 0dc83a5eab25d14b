import numpy as np
import pytest

from frontierco.problems.generate import generate


@pytest.mark.parametrize("ratio", [1.5, 5.0])
def test_cornuejols_recipe(ratio):
    instance = generate("cflp-cornuejols", "c", 4, {"customers": 60, "facilities": 20, "ratio": ratio}).instance
    assert (instance.n, instance.m) == (20, 60)
    assert instance.demand.min() >= 5 and instance.demand.max() <= 35
    for array in (instance.capacity, instance.fixed_cost, instance.cost):
        assert np.array_equal(array, np.floor(array))  # FrontierCO truncates every number to an integer
    total = instance.capacity.sum() / instance.demand.sum()
    assert ratio - 20 / instance.demand.sum() <= total <= ratio  # truncation loses under 1 per facility
    # cost of all of j's demand from i: 10 x distance x demand, so a customer's costs scale with its demand
    assert np.all(instance.cost <= 10 * np.sqrt(2) * instance.demand[None, :])


def test_cpmp_recipe():
    instance = generate("cpmp-frontierco", "p", 4, {"n": 200, "p": 8}).instance
    assert instance.coords.min() >= 1 and instance.coords.max() <= 100
    assert instance.demand.min() >= 1 and instance.demand.max() <= 20
    assert np.all(instance.capacity == instance.capacity[0])
    tightness = instance.demand.sum() / (instance.capacity[0] * instance.p)
    assert 0.82 * 0.99 <= tightness <= 0.96


@pytest.mark.slow
def test_seed_42_is_frontierco_valid_instance_1():
    """FrontierCO writes its valid set with --seed 42 and instance seeds 42, 43, ...: our seed 42 at 100 x 100, ratio
    5 must have the optimum FrontierCO lists for valid_instances/cflp_corn_n100_m100_r5.0_1.txt (17769.059032386).
    HiGHS proves it on one core in about a minute."""
    import highspy

    from frontierco.kit.formulations import as_milp
    from frontierco.problems.milp.mps import to_highs

    instance = generate("cflp-cornuejols", "v1", 42, {"customers": 100, "facilities": 100, "ratio": 5.0}).instance
    model, _ = as_milp(instance)
    highs = to_highs(model)
    highs.setOptionValue("mip_rel_gap", 1e-9)
    highs.setOptionValue("threads", 1)
    highs.run()
    assert highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert highs.getInfo().objective_function_value == pytest.approx(17769.059032386, abs=1e-5)
