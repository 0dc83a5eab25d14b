"""Garbage into every reader gives a FormatError (the CLI's one-line error), never another exception."""

import string
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontierco.errors import FormatError
from frontierco.problems.files import read_instance
from frontierco.problems.routing.cities.city import read_city
from tests.helpers import DATA

SUFFIXES = [".tsp", ".vrp", ".mis", ".graph", ".cnf", ".mps", ".lp", ".npz", ".stp", ".plc", ".cap", ".cpmp", ".txt", ".gr", ".fjs"]
TOKENS = st.sampled_from(
    [
        "NAME",
        ":",
        "TYPE",
        "CVRP",
        "TSP",
        "DIMENSION",
        "3",
        "-1",
        "0",
        "1.5",
        "EDGE_WEIGHT_TYPE",
        "EUC_2D",
        "EXPLICIT",
        "NODE_COORD_SECTION",
        "DEMAND_SECTION",
        "DEPOT_SECTION",
        "CAPACITY",
        "EOF",
        "p",
        "edge",
        "e",
        "cnf",
        "ROWS",
        "COLUMNS",
        "RHS",
        "BOUNDS",
        "ENDATA",
        "N",
        "L",
        "UP",
        "MARKER",
        "x",
        "\n",
        " ",
        "\t",
        "nan",
        "inf",
        "1e400",
    ]
)
GARBAGE = st.one_of(
    st.binary(max_size=300),
    st.text(alphabet=string.printable, max_size=300).map(str.encode),
    st.lists(TOKENS, max_size=80).map(lambda t: " ".join(t).encode()),
)


def _read(suffix: str, payload: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"fuzz{suffix}"
        path.write_bytes(payload)
        try:
            read_instance(path)
        except FormatError as exc:
            assert "\n" not in str(exc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(suffix=st.sampled_from(SUFFIXES), payload=GARBAGE)
def test_garbage_gives_one_line_format_error(suffix, payload):
    _read(suffix, payload)


NUMBER_LINES = st.lists(st.lists(st.sampled_from(["0", "1", "2", "3", "4", "-1", "2.5", "x"]), max_size=5), max_size=8)


@settings(max_examples=200, deadline=None)
@given(lines=NUMBER_LINES)
def test_numeric_txt_lines_give_one_line_format_error(lines):
    """.txt is Naderi's FJSP, FrontierCO's CPMP or its CFLP by the first two lines: every reader it picks refuses
    short, long or odd numbers in one line."""
    _read(".txt", "\n".join(" ".join(tokens) for tokens in lines).encode())


@settings(max_examples=150, deadline=None)
@given(suffix=st.sampled_from([".vrp", ".tsp"]), cut=st.integers(0, 400), noise=st.binary(max_size=5))
def test_corrupted_real_file(suffix, cut, noise):
    text = (DATA / "tiny.vrp").read_bytes()
    _read(suffix, text[:cut] + noise + text[cut + len(noise) :])


@settings(max_examples=60, deadline=None)
@given(payload=st.binary(max_size=200))
def test_city_garbage(payload):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.npz"
        path.write_bytes(payload)
        try:
            read_city(path)
        except FormatError:
            pass
