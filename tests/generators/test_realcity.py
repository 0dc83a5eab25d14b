import numpy as np
import pytest

from frontierco.errors import RegistryError
from frontierco.problems import CVRPSolution, CVRPTWInstance, TSPInstance, evaluate
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.generate import generate
from frontierco.problems.routing.cities.catalog import load_city


def test_shipped_city_loads_and_is_checked():
    city = load_city("monaco")
    assert city.size == 1000 and city.distance.shape == (1000, 1000)
    assert city.metadata["licence"].startswith("ODbL")
    with pytest.raises(RegistryError, match="unknown city"):
        load_city("atlantis")


@pytest.mark.parametrize("sampling", ["uniform", "clustered"])
def test_atsp_slices_the_city(sampling):
    instance = generate("realcity-atsp", "a", 3, {"city": "monaco", "n": 30, "sampling": sampling}).instance
    assert isinstance(instance, TSPInstance) and instance.n == 30 and instance.is_asymmetric
    assert instance.weights.coords is not None and np.all(np.diag(instance.weights.matrix) == 0)
    again = generate("realcity-atsp", "a", 3, {"city": "monaco", "n": 30, "sampling": sampling}).instance
    assert content_sha256(again) == content_sha256(instance)


def test_clustered_points_are_closer_together():
    spread = {}
    for sampling in ("uniform", "clustered"):
        matrices = [
            generate("realcity-atsp", "a", s, {"city": "monaco", "n": 40, "sampling": sampling}).instance.weights.matrix for s in range(5)
        ]
        spread[sampling] = np.mean([m.mean() for m in matrices])
    assert spread["clustered"] < spread["uniform"]


def test_acvrp_demands_and_capacity():
    instance = generate("realcity-acvrp", "c", 1, {"city": "monaco", "n": 50}).instance
    assert instance.capacity == 50 and instance.demands[0] == 0 and 1 <= instance.demands[1:].min() and instance.demands.max() <= 9


@pytest.mark.parametrize("seed", range(4))
def test_acvrptw_every_customer_alone_is_feasible(seed):
    instance = generate(
        "realcity-acvrptw", "t", seed, {"city": "monaco", "n": 60, "sampling": "clustered" if seed % 2 else "uniform"}
    ).instance
    assert isinstance(instance, CVRPTWInstance) and instance.durations is not instance.weights
    alone = CVRPSolution(tuple(np.array([c]) for c in range(1, instance.n)))
    assert evaluate(instance, alone).feasible
    assert np.all(instance.time_windows[1:, 1] - instance.time_windows[1:, 0] >= 30.0 - 1e-9)


@pytest.mark.parametrize(("generator", "n"), [("realcity-atsp", 20), ("realcity-acvrp", 20)])
def test_coordinates_false_gives_the_same_matrix_as_a_bare_explicit_file(tmp_path, generator, n):
    """``coordinates = false``: the same points and matrix, no coordinates; written as TSPLIB/VRPLIB it is an
    EXPLICIT matrix with no coordinate section, and reading that file back gives the same instance."""
    from frontierco.problems.files import natural_suffix, read_instance, write_instance

    params = {"city": "aguascalientes", "n": n, "sampling": "clustered"}
    full = generate(generator, "u", 5, params).instance
    bare = generate(generator, "u", 5, {**params, "coordinates": False}).instance
    assert full.weights.coords is not None and bare.weights.coords is None
    assert np.array_equal(full.weights.full_matrix(), bare.weights.full_matrix())
    path = tmp_path / f"u{natural_suffix(bare)}"
    write_instance(path, bare)
    text = path.read_text()
    assert "EXPLICIT" in text and "NODE_COORD_SECTION" not in text and "DISPLAY_DATA_SECTION" not in text
    again = read_instance(path)
    assert again.weights.coords is None
    assert np.allclose(again.weights.full_matrix(), bare.weights.full_matrix())
