"""SteinLib .stp files: the mirror's PUC instances read with their header counts, a round trip, and lying input
refused with its file and line."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontierco.errors import FormatError
from frontierco.problems import STPInstance
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.files import read_instance, write_instance
from frontierco.problems.generate import generate
from frontierco.problems.steiner.steinlib import read_steinlib, write_steinlib

PUC = {  # name: (nodes, edges, terminals), as each file's header and SteinLib's table say
    "bip42u": (1200, 3982, 200),
    "bip52u": (2200, 7997, 200),
    "bip62u": (1200, 10002, 200),
    "bipa2u": (3300, 18073, 300),
    "bipe2u": (550, 5013, 50),
    **{f"hc{d}u": (2**d, d * 2 ** (d - 1), 2 ** (d - 1)) for d in range(6, 13)},
}

GOOD = """33D32945 STP File, STP Format Version 1.0

SECTION Comment
Name    "tiny"
END

SECTION Graph
Nodes 4
Edges 4
E 1 2 3
E 2 3 1
E 3 4 2   # a comment
E 1 4 9
END

SECTION Terminals
Terminals 2
T 1
T 4
END

SECTION Coordinates
DD 1 0 0
DD 2 1 0
DD 3 1 1
DD 4 0 1
END

EOF
"""


@pytest.mark.parametrize("name", sorted(PUC))
def test_the_mirrors_puc_files_read_with_their_counts(mirror, name):
    instance = read_instance(mirror / "steinlib" / "puc" / f"{name}.stp")
    assert (instance.n, instance.m, len(instance.terminals)) == PUC[name]
    assert instance.integer_weights and set(instance.weights.tolist()) == {1} and instance.name == name


@pytest.mark.parametrize("dimension", range(6, 13))
def test_the_hypercube_generator_rebuilds_puc_hc_exactly(mirror, dimension):
    read = read_instance(mirror / "steinlib" / "puc" / f"hc{dimension}u.stp")
    built = generate("stp-hypercube", f"hc{dimension}u", 0, {"dimension": dimension}).instance
    assert content_sha256(read) == content_sha256(built)


def test_sections_and_coordinates_read_and_round_trip(tmp_path):
    (tmp_path / "tiny.stp").write_text(GOOD)
    instance = read_steinlib(tmp_path / "tiny.stp")
    assert instance.edges.tolist() == [[0, 1], [0, 3], [1, 2], [2, 3]] and instance.weights.tolist() == [3, 9, 1, 2]
    assert instance.terminals.tolist() == [0, 3] and instance.coordinates is not None and instance.coordinates[2].tolist() == [1, 1]
    write_steinlib(tmp_path / "tiny.stp", instance)
    again = read_steinlib(tmp_path / "tiny.stp")
    assert content_sha256(again) == content_sha256(instance)


def test_crlf_lines_and_lower_case_keywords_read(tmp_path):
    text = GOOD.replace("SECTION", "Section").replace("END", "End").replace("\n", "\r\n")
    (tmp_path / "tiny.stp").write_text(text)
    assert read_steinlib(tmp_path / "tiny.stp").m == 4


def test_fractional_weights_round_trip(tmp_path):
    instance = STPInstance.build("f", 3, [[0, 1], [1, 2]], [0.1, 2.5], [0, 2])
    write_instance(tmp_path / "f.stp", instance)
    again = read_instance(tmp_path / "f.stp")
    assert again.weights.dtype == np.float64 and again.weights.tolist() == [0.1, 2.5]


def test_a_generated_instance_round_trips(tmp_path):
    instance = generate("stp-random", "r", 1, {"n": 50, "m": 120, "terminals": 9}).instance
    write_instance(tmp_path / "r.stp", instance)
    assert content_sha256(read_instance(tmp_path / "r.stp")) == content_sha256(instance)


def _line(text: str, start: str) -> int:
    return [k for k, line in enumerate(text.splitlines(), start=1) if line.startswith(start)][-1]


@pytest.mark.parametrize(
    "old, new, at, expected",
    [
        ("Edges 4", "Edges 5", "Edges", "5 edges as this line says, found 4"),
        ("Terminals 2", "Terminals 3", "Terminals", "3 terminals as this line says, found 2"),
        ("T 4", "T 7", "T 7", "terminal in 1..4"),
        ("E 2 3 1", "E 2 3 -1", "E 2 3", "non-negative edge weight"),
        ("E 1 4 9", "E 2 1 9", "E 2 1", "each edge once"),
        ("E 1 4 9", "E 1 1 9", "E 1 1", "self-loop"),
        ("E 1 4 9", "A 1 4 9", "A 1 4", "undirected graphs only"),
        ("T 4", "T 1", "T 1", "each terminal once"),
        ("SECTION Coordinates", "SECTION MaximumDegrees", "SECTION Max", "a section of"),
        ("E 2 3 1", "E 2 3 x", "E 2 3", "numeric edge weight"),
        ("Nodes 4", "Nodes four", "Nodes", "number of nodes as an integer"),
        ("DD 4 0 1", "DD 3 0 1", "DD 3 0 1", "vertex 3 again"),
        ("EOF", "EOF\nE 1 2 3", "E 1 2 3", "nothing after EOF"),
    ],
)
def test_lying_input_is_refused_at_its_line(tmp_path, old, new, at, expected):
    text = GOOD.replace(old, new, 1)
    (tmp_path / "bad.stp").write_text(text)
    with pytest.raises(FormatError, match=expected) as caught:
        read_steinlib(tmp_path / "bad.stp")
    assert caught.value.line == _line(text, at)
    assert str(caught.value).startswith(f"{tmp_path / 'bad.stp'}:{caught.value.line}: ")


def test_disconnected_terminals_are_refused_at_the_terminal(tmp_path):
    text = GOOD.replace("E 3 4 2   # a comment\nE 1 4 9\n", "").replace("Edges 4", "Edges 2")
    (tmp_path / "apart.stp").write_text(text)
    with pytest.raises(FormatError, match="does not connect terminal 4 to terminal 1") as caught:
        read_steinlib(tmp_path / "apart.stp")
    assert caught.value.line == _line(text, "T 4")


@pytest.mark.parametrize(
    "keep, expected",
    [(GOOD.rindex("EOF"), "'EOF' after the last section"), (GOOD.rindex("END"), "'END' to close the section")],
)
def test_a_cut_file_is_refused(tmp_path, keep, expected):
    (tmp_path / "cut.stp").write_text(GOOD[:keep])
    with pytest.raises(FormatError, match=expected):
        read_steinlib(tmp_path / "cut.stp")


def test_a_file_without_the_magic_line_is_refused(tmp_path):
    (tmp_path / "plain.stp").write_text(GOOD.split("\n", 1)[1])
    with pytest.raises(FormatError, match="the SteinLib header") as caught:
        read_steinlib(tmp_path / "plain.stp")
    assert caught.value.line == 2  # the first line that is not empty


def test_a_weight_or_a_node_count_beyond_the_limits_is_refused(tmp_path):
    for old, new, expected in (("E 2 3 1", f"E 2 3 {2**64}", "at most 2\\^53"), ("Nodes 4", "Nodes 99999999999", "between 1 and")):
        (tmp_path / "big.stp").write_text(GOOD.replace(old, new))
        with pytest.raises(FormatError, match=expected):
            read_steinlib(tmp_path / "big.stp")


TOKENS = st.sampled_from(
    ["SECTION", "Graph", "Terminals", "END", "EOF", "Nodes", "Edges", "E", "T", "DD", "1", "2", "-1", "x", "nan", "\n", " "]
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(0, len(GOOD)), noise=st.lists(TOKENS, max_size=6).map(" ".join), tail=st.booleans())
def test_a_corrupted_file_gives_a_one_line_format_error(tmp_path_factory, cut, noise, tail):
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.stp"
    path.write_text(GOOD[:cut] + noise + (GOOD[cut + len(noise) :] if tail else ""))
    try:
        read_steinlib(path)
    except FormatError as exc:
        assert "\n" not in str(exc)
