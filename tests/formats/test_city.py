import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems.routing.cities.city import City, read_city, write_city


def _city(n=4):
    rng = np.random.default_rng(0)
    d = rng.random((n, n))
    np.fill_diagonal(d, 0)
    return City("test", rng.random((n, 2)), d, 2 * d, {"licence": "ODbL, (c) OpenStreetMap contributors"})


def test_round_trip(tmp_path):
    city = _city()
    write_city(tmp_path / "test_data.npz", city)
    again = read_city(tmp_path / "test_data.npz")
    assert again.name == "test" and again.metadata["licence"].startswith("ODbL")
    assert np.array_equal(again.distance, city.distance) and np.array_equal(again.duration, city.duration)


def test_rrnco_style_file_without_metadata(tmp_path):
    city = _city()
    np.savez(tmp_path / "Seoul_data.npz", points=city.points, distance=city.distance, duration=city.duration)
    assert read_city(tmp_path / "Seoul_data.npz").name == "Seoul"


@pytest.mark.parametrize(
    "arrays, message",
    [
        ({"points": np.zeros((3, 2)), "distance": np.zeros((3, 3))}, "missing duration"),
        ({"points": np.zeros((3, 2)), "distance": np.zeros((3, 2)), "duration": np.zeros((3, 3))}, "distance of shape (3, 3)"),
        (
            {"points": np.zeros((2, 2)), "distance": np.array([[0, np.inf], [1, 0]]), "duration": np.zeros((2, 2))},
            "finite values in distance",
        ),
        (
            {"points": np.array([["0", "1_0"], ["1", "2"]]), "distance": np.zeros((2, 2)), "duration": np.zeros((2, 2))},
            "numbers in points",  # numpy converts text by float(): '1_0' was 10
        ),
    ],
)
def test_bad_city_files(tmp_path, arrays, message):
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(FormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_city(tmp_path / "bad.npz")
