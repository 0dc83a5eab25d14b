"""formats/npz_instance.py: the lossless .npz form of routing instances VRPLIB cannot hold."""

import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems import CVRPInstance, CVRPTWInstance, EdgeWeights, TSPInstance
from frontierco.problems.routing.npz import cvrptw_suffix, read_npz_instance, write_cvrptw_instance, write_npz_instance

MATRIX = np.array([[0, 5, 9], [4, 0, 2], [8, 3, 0]])  # asymmetric
COORDS = np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])


def _cvrptw(durations: EdgeWeights) -> CVRPTWInstance:
    weights = EdgeWeights("EXPLICIT", coords=COORDS, matrix=MATRIX)
    windows = np.array([[0.0, 100.0], [1.0, 50.0], [2.0, 60.0]])
    return CVRPTWInstance("tw", weights, np.array([0, 2, 3]), 5, 2, durations, windows, np.array([0.0, 1.5, 2.5]))


def _same_weights(a: EdgeWeights, b: EdgeWeights) -> bool:
    return a.rule == b.rule and np.array_equal(a.full_matrix(), b.full_matrix())


def test_a_coordinate_tsp_and_an_asymmetric_cvrp_read_back_as_they_were(tmp_path):
    tsp = TSPInstance("t", EdgeWeights("EUC_2D", coords=COORDS))
    write_npz_instance(tmp_path / "t.npz", tsp)
    again = read_npz_instance(tmp_path / "t.npz")
    assert isinstance(again, TSPInstance) and again.name == "t" and _same_weights(again.weights, tsp.weights)
    cvrp = CVRPInstance("c", EdgeWeights("EXPLICIT", matrix=MATRIX), np.array([0, 2, 3]), 5)  # no vehicle count
    write_npz_instance(tmp_path / "c.npz", cvrp)
    back = read_npz_instance(tmp_path / "c.npz")
    assert type(back) is CVRPInstance and back.num_vehicles is None and back.capacity == 5
    assert np.array_equal(back.demands, cvrp.demands) and _same_weights(back.weights, cvrp.weights)


def test_a_cvrptw_with_its_own_durations_keeps_both_matrices(tmp_path):
    instance = _cvrptw(EdgeWeights("EXPLICIT", matrix=MATRIX * 2))
    assert cvrptw_suffix(instance) == ".npz"
    write_cvrptw_instance(tmp_path / "tw.npz", instance)
    back = read_npz_instance(tmp_path / "tw.npz")
    assert isinstance(back, CVRPTWInstance) and back.num_vehicles == 2 and back.durations is not None
    assert np.array_equal(back.durations.full_matrix(), MATRIX * 2) and _same_weights(back.weights, instance.weights)
    assert back.weights.coords is not None and np.array_equal(back.weights.coords, COORDS)
    assert np.array_equal(back.time_windows, instance.time_windows) and np.array_equal(back.service_times, instance.service_times)


def test_durations_that_are_the_distances_go_to_vrplib():
    instance = _cvrptw(EdgeWeights("EXPLICIT", matrix=MATRIX))
    same = CVRPTWInstance(
        instance.name, instance.weights, instance.demands, 5, 2, instance.weights, instance.time_windows, instance.service_times
    )
    assert cvrptw_suffix(same) == ".vrp"


@pytest.mark.parametrize(
    ("arrays", "expected"),
    [
        ({"name": np.array("x")}, "with a 'problem' array"),
        ({"problem": np.array("knapsack"), "distance_rule": np.array("EXPLICIT"), "distance_matrix": MATRIX}, "tsp, cvrp or cvrptw"),
        ({"problem": np.array("tsp"), "distance_rule": np.array("EUC_2D")}, "a valid distance_rule with its matrix or coordinates"),
        ({"problem": np.array("cvrp"), "distance_rule": np.array("EXPLICIT"), "distance_matrix": MATRIX}, "the arrays of a cvrp instance"),
    ],
)
def test_an_archive_that_is_not_an_instance_is_a_format_error(tmp_path, arrays, expected):
    np.savez(tmp_path / "x.npz", **arrays)
    with pytest.raises(FormatError, match=expected):
        read_npz_instance(tmp_path / "x.npz")


def test_a_file_that_is_no_archive_is_a_format_error(tmp_path):
    (tmp_path / "x.npz").write_text("hello")
    with pytest.raises(FormatError, match="a NumPy .npz archive"):
        read_npz_instance(tmp_path / "x.npz")


TSP_ARRAYS = {"problem": np.array("tsp"), "distance_rule": np.array("EUC_2D"), "distance_coords": COORDS}
CVRP_ARRAYS = {
    **TSP_ARRAYS,
    "problem": np.array("cvrp"),
    "demands": np.array([0, 2, 3]),
    "capacity": np.array(5),
    "num_vehicles": np.array(-1),
}
CVRPTW_ARRAYS = {
    **CVRP_ARRAYS,
    "problem": np.array("cvrptw"),
    "duration_rule": np.array("EXPLICIT"),
    "duration_matrix": MATRIX,
    "time_windows": np.array([[0.0, 100.0], [1.0, 50.0], [2.0, 60.0]]),
    "service_times": np.array([0.0, 1.5, 2.5]),
}


@pytest.mark.parametrize(
    ("arrays", "expected"),
    [  # each was read as an instance (the first a TypeError)
        ({**CVRP_ARRAYS, "capacity": np.array([5, 6])}, "capacity of shape"),
        ({**TSP_ARRAYS, "distance_coords": np.array([[np.nan, 0.0], [3.0, 4.0]])}, "finite numbers within"),
        ({**TSP_ARRAYS, "distance_rule": np.array("EXPLICIT"), "distance_matrix": np.full((2, 2), np.inf)}, "finite numbers within"),
        ({**CVRP_ARRAYS, "demands": np.array([0, -2, 3])}, "demands in 0..capacity"),
        ({**CVRP_ARRAYS, "demands": np.array([0, 2, 9])}, "demands in 0..capacity"),
        ({**CVRP_ARRAYS, "demands": np.array(["a", "b", "c"])}, "numbers in demands"),
        ({**CVRP_ARRAYS, "capacity": np.array("0_5")}, "numbers in capacity"),  # numpy converts text by float(): 5
        ({**TSP_ARRAYS, "distance_coords": np.array([["0", "0"], ["3", "0"], ["3", "4"]])}, "numbers in distance_coords"),
        ({**CVRPTW_ARRAYS, "time_windows": np.array([[0.0, 100.0], [50.0, 1.0], [2.0, 60.0]])}, "open before they close"),
        ({**CVRPTW_ARRAYS, "service_times": np.array([0.0, -1.5, 2.5])}, "service times >= 0"),
        ({**CVRPTW_ARRAYS, "duration_matrix": MATRIX[:2, :2]}, "durations between the 3 nodes"),
    ],
    ids=[
        "capacity-array",
        "nan-coordinates",
        "infinite-matrix",
        "negative-demand",
        "demand-over-capacity",
        "text-demands",
        "underscored-text-capacity",
        "text-coordinates",
        "window-reversed",
        "negative-service",
        "durations-of-another-size",
    ],
)
def test_numbers_that_cannot_be_true_are_refused_as_the_tsplib_reader_refuses_them(tmp_path, arrays, expected):
    np.savez(tmp_path / "x.npz", **arrays)
    with pytest.raises(FormatError, match=expected):
        read_npz_instance(tmp_path / "x.npz")


def test_the_checked_arrays_of_each_problem_still_read(tmp_path):
    for arrays in (TSP_ARRAYS, CVRP_ARRAYS, CVRPTW_ARRAYS):
        np.savez(tmp_path / "ok.npz", **arrays)
        assert read_npz_instance(tmp_path / "ok.npz").n == 3
