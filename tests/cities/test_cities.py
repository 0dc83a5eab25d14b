import networkx as nx
import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems.routing.cities.build import build_city, check_city
from frontierco.problems.routing.cities.city import read_city, write_city
from frontierco.problems.routing.cities.network import largest_strong_component, sample_points
from frontierco.problems.routing.cities.osm import direction, great_circle_m, parse_maxspeed, read_road_graph
from tests.helpers import DATA


def _arcs(graph):
    return {(int(u), int(v)) for u, v in zip(graph.source, graph.target, strict=True)}


def test_tiny_extract_keeps_drivable_ways_with_their_directions():
    graph = read_road_graph(DATA / "tiny.osm")
    # nodes in file order of first use: 1->0, 2->1, 3->2, 4->3 (5, 6 only on private/footway ways)
    assert graph.num_nodes == 4
    assert _arcs(graph) == {(0, 1), (1, 0), (1, 2), (2, 3), (3, 0)}
    # way 16 is drawn 3 -> 2 with oneway=-1, so it runs 2 -> 3 like way 11: a second arc (1, 2)
    assert graph.num_edges == 6 and sum(1 for u, v in zip(graph.source, graph.target, strict=True) if (u, v) == (1, 2)) == 2
    speeds = sorted((int(u), int(v), round(float(s), 4)) for u, v, s in zip(graph.source, graph.target, graph.speed_kmh, strict=True))
    assert speeds == [(0, 1, 30.0), (1, 0, 30.0), (1, 2, 49.8897), (1, 2, 50.0), (2, 3, 40.0), (3, 0, 40.0)]  # 31 mph; class defaults
    assert graph.length_m[0] == pytest.approx(great_circle_m(np.array([48.0]), np.array([11.0]), np.array([48.0]), np.array([11.01]))[0])


def test_tag_rules():
    assert direction({"highway": "primary", "oneway": "yes"}) == (True, False)
    assert direction({"highway": "primary", "oneway": "-1"}) == (False, True)
    assert direction({"highway": "motorway"}) == (True, False)
    assert direction({"highway": "motorway", "oneway": "no"}) == (True, True)
    assert direction({"highway": "residential", "junction": "roundabout"}) == (True, False)
    assert parse_maxspeed("50", "residential") == 50.0
    assert parse_maxspeed("RU:urban", "residential") == 30.0
    assert parse_maxspeed(None, "motorway") == 100.0


def test_great_circle_one_degree_of_latitude():
    assert great_circle_m(np.array([0.0]), np.array([0.0]), np.array([1.0]), np.array([0.0]))[0] == pytest.approx(111_195, rel=1e-3)


def test_bad_extract_is_a_format_error(tmp_path):
    bad = tmp_path / "bad.osm"
    bad.write_text("<osm><node id='1' lat='0' lon='0'/></osm>")
    with pytest.raises(FormatError):
        read_road_graph(bad)
    with pytest.raises(FormatError, match="not found"):
        read_road_graph(tmp_path / "missing.osm.pbf")


def test_sampled_distances_are_shortest_paths(mirror):
    graph = largest_strong_component(read_road_graph(mirror / "osm" / "paris.osm.pbf"))
    network = sample_points(graph, 60, seed=3)
    from frontierco.problems.routing.cities.network import distance_duration

    distance, duration = distance_duration(network)
    g = nx.DiGraph()
    for u, v, w in zip(network.graph.source.tolist(), network.graph.target.tolist(), network.graph.length_m.tolist(), strict=True):
        if not g.has_edge(u, v) or g[u][v]["w"] > w:
            g.add_edge(u, v, w=w)
    rng = np.random.default_rng(0)
    for a, b in rng.integers(0, 60, size=(25, 2)):
        expected = nx.shortest_path_length(g, int(network.points[a]), int(network.points[b]), weight="w") / 1000.0
        assert distance[a, b] == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert np.isfinite(distance).all() and np.isfinite(duration).all()
    assert np.abs(distance - distance.T).max() > 0  # one-way streets make it asymmetric


def test_build_city_checks_and_round_trip(mirror, tmp_path):
    city = build_city(mirror / "osm" / "paris.osm.pbf", "paris", 80, seed=1)
    report = check_city(city)
    assert report.ok and report.asymmetry > 0 and 5 < report.mean_speed_kmh < 80
    assert city.metadata["licence"].startswith("ODbL") and len(city.metadata["source_sha256"]) == 64
    write_city(tmp_path / "paris.npz", city)
    again = read_city(tmp_path / "paris.npz")
    assert np.array_equal(again.distance, city.distance.astype(np.float64)) and again.metadata["seed"] == 1
    assert np.array_equal(build_city(mirror / "osm" / "paris.osm.pbf", "paris", 80, seed=1).distance, city.distance)


def test_import_rrnco_copies_checked_files(tmp_path):
    from frontierco.problems.routing.cities.build import import_rrnco

    release = tmp_path / "release"
    release.mkdir()
    d = np.random.default_rng(0).random((5, 5))
    np.savez(release / "Seoul_data.npz", points=np.zeros((5, 2)), distance=d, duration=2 * d)
    copied = import_rrnco(release, tmp_path / "cities")
    assert [p.name for p in copied] == ["Seoul_data.npz"] and read_city(copied[0]).name == "Seoul"
    np.savez(release / "Broken_data.npz", points=np.zeros((5, 2)))
    with pytest.raises(FormatError, match="missing distance"):
        import_rrnco(release, tmp_path / "cities")
    with pytest.raises(FormatError):
        import_rrnco(tmp_path / "empty-folder-that-is-missing", tmp_path / "cities")


def test_cities_build_command(mirror, tmp_path):
    import subprocess
    import sys

    out = tmp_path / "paris.npz"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "frontierco",
            "cities",
            "build",
            "--osm",
            str(mirror / "osm" / "paris.osm.pbf"),
            "--name",
            "paris",
            "--points",
            "50",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "asymmetry" in result.stdout and read_city(out).size == 50


@pytest.mark.parametrize(
    ("name", "points", "expected"),
    [("../x", 10, "not a plain name"), ("x", 0, "points in 1..20000"), ("x", 10**6, "points in 1..20000")],
    ids=["name-outside-its-folder", "no-points", "a-million-points"],
)
def test_a_city_name_or_size_that_cannot_be_is_refused_before_the_extract_is_read(name, points, expected):
    from frontierco.errors import UsageError

    with pytest.raises(UsageError, match=expected):  # '../x' was written above instances/cities, 0 a numpy traceback
        build_city(DATA / "tiny.osm", name, points)
