from pathlib import Path

import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems import CVRPInstance, CVRPTWInstance, EdgeWeights, TSPInstance, TSPSolution, evaluate
from frontierco.problems.files import read_instance, read_solution, write_instance, write_solution
from frontierco.problems.generate import generate
from frontierco.problems.routing.tsplib import read_routing_instance, read_vrplib_solution, stated_cost, tsp_solution_from_routes
from tests.helpers import DATA


def test_tiny_cvrp_and_its_solution():
    instance = read_instance(DATA / "tiny.vrp")
    assert isinstance(instance, CVRPInstance) and instance.capacity == 10
    solution = read_solution(DATA / "tiny.sol", instance)
    assert evaluate(instance, solution).objective == stated_cost(DATA / "tiny.sol") == 100


def test_upper_row_matrix():
    instance = read_instance(DATA / "upper_row.tsp")
    assert instance.weights.matrix.tolist() == [[0, 1, 2, 3], [1, 0, 4, 5], [2, 4, 0, 6], [3, 5, 6, 0]]


def _mirror_pairs(mirror: Path) -> list[Path]:
    """The X and XXL sets and TSPLIB in VRPLIB form, whose stated costs are rounded lengths (CVRPLIB states Golden's
    unrounded: its one solution is checked through the cvrplib-golden collection, which reads the file unrounded)."""
    cvrplib = [vrp for part in ("X", "XXL") for vrp in sorted((mirror / "cvrplib" / part).glob("*.vrp"))]
    return cvrplib + sorted((mirror / "tsplib-vrplib").glob("*.vrp"))


@pytest.mark.slow
def test_every_mirror_solution_evaluates_to_its_stated_cost(mirror):
    checked = 0
    for vrp in _mirror_pairs(mirror):
        instance = read_routing_instance(vrp)
        solution = read_vrplib_solution(vrp.with_suffix(".sol"))
        if isinstance(instance, TSPInstance):
            solution = tsp_solution_from_routes(solution)
        verdict = evaluate(instance, solution)
        assert verdict.feasible, (vrp.name, verdict.reason)
        assert verdict.objective == stated_cost(vrp.with_suffix(".sol")), vrp.name
        checked += 1
    assert checked == 139  # 100 X + 10 XXL + 29 TSPLIB in VRPLIB form


def test_every_tsplib_file_reads(mirror):
    files = sorted((mirror / "tsplib").glob("*.tsp"))
    assert len(files) == 111
    with pytest.raises(FormatError, match="fixed edges"):
        read_routing_instance(mirror / "tsplib" / "linhp318.tsp")  # a Hamiltonian path problem with a fixed edge
    rules = {read_routing_instance(f).weights.rule for f in files if f.stem != "linhp318"}
    assert rules == {"EUC_2D", "CEIL_2D", "ATT", "GEO", "EXPLICIT"}


def test_explicit_layouts_agree_with_known_optimum_scale(mirror):
    # gr17 (LOWER_DIAG_ROW): the matrix is symmetric with a zero diagonal
    matrix = read_routing_instance(mirror / "tsplib" / "gr17.tsp").weights.matrix
    assert np.array_equal(matrix, matrix.T) and not np.any(np.diag(matrix))


@pytest.mark.parametrize(
    "instance",
    [
        generate("tsp-uniform", "t", 1, {"n": 30}).instance,
        generate("cvrp-xlike", "x", 2, {"n": 30}).instance,
        TSPInstance("atsp", EdgeWeights("EXPLICIT", matrix=np.array([[0, 1, 9], [9, 0, 1], [1, 9, 0]]))),
    ],
    ids=["tsp", "cvrp", "atsp"],
)
def test_write_read_round_trip(tmp_path, instance):
    path = tmp_path / "x.vrp"
    write_instance(path, instance)
    again = read_instance(path)
    assert type(again) is type(instance)
    n = instance.weights.size
    i, j = np.divmod(np.arange(n * n), n)
    assert np.array_equal(again.weights.between(i, j), instance.weights.between(i, j))


def test_cvrptw_round_trip(tmp_path):
    weights = EdgeWeights("EXACT_2D", coords=np.array([[0, 0], [1, 0], [2, 0]], dtype=float))
    instance = CVRPTWInstance(
        "tw",
        weights,
        np.array([0, 1, 2]),
        5,
        None,
        weights,
        np.array([[0, 10], [1, 3], [0, 9]], dtype=float),
        np.array([0, 1, 1], dtype=float),
    )
    write_instance(tmp_path / "tw.vrp", instance)
    again = read_instance(tmp_path / "tw.vrp")
    assert isinstance(again, CVRPTWInstance)
    assert np.array_equal(again.time_windows, instance.time_windows)


@pytest.mark.parametrize("name", ["t.tour", "t.sol", "t.txt"])
def test_solution_files_round_trip(tmp_path, name):
    """Whatever name a tour is written under (run --write-solution t.sol writes a TSPLIB tour), it reads back."""
    instance = generate("tsp-uniform", "t", 1, {"n": 10}).instance
    tour = TSPSolution(np.random.default_rng(0).permutation(10))
    write_solution(tmp_path / name, instance, tour, 1.0)
    assert np.array_equal(read_solution(tmp_path / name, instance).tour, tour.tour)


def test_a_vrplib_routes_file_still_reads_as_a_tsp_solution(tmp_path):
    instance = generate("tsp-uniform", "t", 1, {"n": 4}).instance
    (tmp_path / "r.sol").write_text("Route #1: 3 1 2\nCost 10\n")  # VRPLIB: the nodes after node 0, the start
    assert read_solution(tmp_path / "r.sol", instance).tour.tolist() == [0, 3, 1, 2]


def test_a_large_file_with_ids_out_of_order_is_refused_by_the_streamed_reader_too(tmp_path, monkeypatch):
    from frontierco.problems.routing import tsplib as routing

    monkeypatch.setattr(routing, "STREAM_FROM", 0)  # every file goes the streamed way first
    path = tmp_path / "big.tsp"
    path.write_text("NAME : x\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n3 1 1\n2 5 5\nEOF\n")
    with pytest.raises(FormatError, match="node ids 1..3 in order in NODE_COORD_SECTION, got 3 in row 2"):
        read_instance(path)


LIMITED = (
    "NAME : limited\nTYPE : CVRP\nDIMENSION : 3\nCAPACITY : 10\n{specs}EDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
    "1 0 0\n2 3 4\n3 6 8\nDEMAND_SECTION\n1 0\n2 4\n3 5\nDEPOT_SECTION\n1\n-1\nEOF\n"
)


def test_distance_and_service_time_are_read_from_a_cvrp_file_and_written_back(tmp_path):
    path = tmp_path / "limited.vrp"
    path.write_text(LIMITED.format(specs="DISTANCE : 25.5\nSERVICE_TIME : 2\n"))
    instance = read_instance(path)
    assert isinstance(instance, CVRPInstance)
    assert (instance.max_distance, instance.service_time) == (25.5, 2.0)
    write_instance(tmp_path / "again.vrp", instance)
    again = read_instance(tmp_path / "again.vrp")
    assert (again.max_distance, again.service_time) == (25.5, 2.0)


def test_a_cvrp_file_without_distance_has_no_route_limit(tmp_path):
    path = tmp_path / "free.vrp"
    path.write_text(LIMITED.format(specs=""))
    instance = read_instance(path)
    assert instance.max_distance is None and instance.service_time is None and not instance.has_route_limit


@pytest.mark.parametrize(
    "specs, expected",
    [
        ("DISTANCE : 0\n", "a finite positive number DISTANCE, got 0"),
        ("DISTANCE : -3\n", "a finite positive number DISTANCE"),
        ("DISTANCE : inf\n", "a finite positive number DISTANCE, got inf"),
        ("DISTANCE : far\n", "a finite positive number DISTANCE, got 'far'"),
        ("SERVICE_TIME : -1\n", "a finite non-negative number SERVICE_TIME"),
    ],
)
def test_a_bad_distance_or_service_time_is_refused_on_its_line(tmp_path, specs, expected):
    path = tmp_path / "bad.vrp"
    path.write_text(LIMITED.format(specs=specs))
    with pytest.raises(FormatError) as info:
        read_instance(path)
    assert info.value.line == 5 and expected in info.value.expected


VRPTW = (
    "NAME : w\nTYPE : VRPTW\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n3 2 0\n"
    "DEMAND_SECTION\n1 0\n2 4\n3 5\nTIME_WINDOW_SECTION\n{windows}\nSERVICE_TIME_SECTION\n{service}\nDEPOT_SECTION\n1\n-1\nEOF\n"
)


@pytest.mark.parametrize(
    "text, line, expected",
    [
        (
            "NAME : x\nTYPE : TSP\nDIMENSION : 2\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 a b\n",
            7,
            "numbers in NODE_COORD_SECTION",
        ),
        (
            "NAME : x\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n",
            5,
            "3 rows in NODE_COORD_SECTION",
        ),
        ("NAME : x\nTYPE : TSP\nDIMENSION : two\n", 3, "positive integer DIMENSION"),
        ("NAME : x\nTYPE : TSP\nDIMENSION : 2\nEDGE_WEIGHT_TYPE : FOO\n", 4, "EDGE_WEIGHT_TYPE in"),
        ("hello\n", 1, "'KEY : value'"),
        # values that lie: no objective may be computed from them (the wrapped int64 edges)
        *[
            (
                f"NAME : x\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 {bad} 1\n3 1 1\n",
                7,
                "finite coordinates within +-1e+09",
            )
            for bad in ("nan", "inf", "-inf", "1e300")
        ],
        (
            "NAME : x\nTYPE : TSP\nDIMENSION : 2\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : UPPER_ROW\nEDGE_WEIGHT_SECTION\ninf\n",
            7,
            "finite edge weights",
        ),
        # node ids other than 1..n in order (the 5..1: the tour was priced by row, written by id)
        *[
            (
                f"NAME : x\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n{rows}",
                line,
                f"node ids 1..3 in order in NODE_COORD_SECTION, got {got} in row {row}",
            )
            for rows, line, got, row in (
                ("3 0 0\n2 1 1\n1 5 5\n", 6, 3, 1),  # ids 3..1: reversed
                ("1 0 0\n1 1 1\n3 5 5\n", 7, 1, 2),  # a duplicate
                ("1 0 0\n2 1 1\n4 5 5\n", 8, 4, 3),  # a gap
            )
        ],
        (
            "NAME : x\nTYPE : CVRP\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n"
            "3 2 2\nDEMAND_SECTION\n1 0\n3 4\n2 5\nDEPOT_SECTION\n1\n-1\n",
            12,
            "node ids 1..3 in order in DEMAND_SECTION, got 3 in row 2",
        ),
        (
            "NAME : x\nTYPE : CVRP\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n"
            "3 2 2\nDEMAND_SECTION\n1 0\n2 -4\n3 5\nDEPOT_SECTION\n1\n-1\n",
            12,
            "non-negative demands",
        ),
        (
            "NAME : x\nTYPE : CVRP\nDIMENSION : 3\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n"
            "3 2 2\nDEMAND_SECTION\n1 0\n2 4\n3 11\nDEPOT_SECTION\n1\n-1\n",
            13,
            "demands at most the capacity 10",
        ),
        # a window that closes before it opens, a negative service time (both were read)
        (VRPTW.format(windows="1 0 100\n2 50 1\n3 2 60", service="1 0\n2 1\n3 1"), 16, "time windows that open before they close"),
        (VRPTW.format(windows="1 0 100\n2 1 50\n3 2 60", service="1 0\n2 -1\n3 1"), 20, "service times >= 0, got -1 for node 2"),
    ],
)
def test_malformed_files_name_the_line(tmp_path, text, line, expected):
    path = tmp_path / "bad.tsp"
    path.write_text(text)
    with pytest.raises(FormatError) as info:
        read_instance(path)
    assert info.value.line == line and expected in info.value.expected
    assert str(info.value).startswith(f"{path}:{line}: ")


def test_realcity_acvrptw_round_trips_through_npz(tmp_path):
    from frontierco.problems.common.fingerprint import content_sha256

    instance = generate("realcity-acvrptw", "t", 2, {"city": "monaco", "n": 15}).instance
    path = tmp_path / "t.npz"
    write_instance(path, instance)
    assert content_sha256(read_instance(path)) == content_sha256(instance)


def test_city_npz_is_not_an_instance(tmp_path):
    np.savez(tmp_path / "Seoul_data.npz", points=np.zeros((2, 2)), distance=np.zeros((2, 2)), duration=np.zeros((2, 2)))
    with pytest.raises(FormatError, match="city"):
        read_instance(tmp_path / "Seoul_data.npz")


TOUR_HEAD = "NAME : t.tour\nTYPE : TOUR\nDIMENSION : 4\n"


@pytest.mark.parametrize(
    "section",
    [
        "TOUR_SECTION\n3\n1\n4\n2\n-1\nEOF\n",
        "TOUR_SECTION\n3 1\n4 2 -1\n",  # several a line, no EOF
        "TOUR_SECTION\r\n3\r\n1\r\n4\r\n2\r\n-1\r\nEOF\r\n",
        "TOUR_SECTION\n-1\nEOF\n",  # an empty tour (the checker refuses it)
        "TOUR_SECTION\n3\n1\n4\n2\n-1\n-1\nEOF\n",  # the general reader stops at the first -1
        "TOUR_SECTION\n3\n1.0\n4\n2\n-1\nEOF\n",
        "TOUR_SECTION\n3\n1\n4\n2\nEOF\n",  # no -1
        "TOUR_SECTION\n3\n1\n4\n99999999999999999999\n-1\nEOF\n",
        "TOUR_SECTION\n3\n1\n4\n2\n-1\nEOF\nextra\n",
        "TOUR_SECTION : 3 1 4 2 -1\nEOF\n",
    ],
)
def test_a_tour_reads_the_same_through_the_fast_path_as_through_the_general_reader(tmp_path, section):
    """read_tour takes the plain form (numbers, -1, EOF) at C speed and everything else through the general reader,
    which names what is wrong: either way the same nodes, or the same error."""
    from frontierco.problems.routing import tsplib as routing

    path = tmp_path / "t.tour"
    path.write_text(TOUR_HEAD + section)
    plain = routing.plain_tour(path.read_text(), path)
    outcomes = []
    for fast in (True, False):
        if not fast:
            routing_plain = routing.plain_tour
            routing.plain_tour = lambda text, path: None  # the general reader alone
        try:
            outcomes.append(("nodes", routing.read_tour(path).tour.tolist()))
        except FormatError as exc:
            outcomes.append(("error", str(exc)))
        finally:
            if not fast:
                routing.plain_tour = routing_plain
    assert outcomes[0] == outcomes[1]
    if plain is not None:
        assert ("nodes", plain.tour.tolist()) == outcomes[0]


def test_the_fast_path_takes_the_plain_form_and_leaves_the_rest(tmp_path):
    from frontierco.problems.routing.tsplib import plain_tour

    path = tmp_path / "t.tour"
    assert plain_tour(TOUR_HEAD + "TOUR_SECTION\n3\n1\n4\n2\n-1\nEOF\n", path).tour.tolist() == [2, 0, 3, 1]
    for odd in ("TOUR_SECTION\n3\n1.5\n-1\n", "TOUR_SECTION\n3\nx\n-1\n", "TOUR_SECTION\n3 1\n", "TOUR_SECTION\n3 1 -1\nEOF\nmore\n"):
        assert plain_tour(TOUR_HEAD + odd, path) is None, odd
    assert plain_tour("NAME t.tour\nBAD LINE\nTOUR_SECTION\n1\n-1\n", path) is None  # a header the general reader refuses


def test_an_empty_type_is_a_format_error_naming_its_line(tmp_path):
    (tmp_path / "t.tsp").write_text("NAME : t\nTYPE :\nDIMENSION : 2\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\nEOF\n")
    with pytest.raises(FormatError, match=r"t.tsp:2: TYPE TSP, ATSP, CVRP or VRPTW, got ''"):  # was an IndexError traceback
        read_routing_instance(tmp_path / "t.tsp")
