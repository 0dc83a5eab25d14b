import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems.files import natural_suffix, read_instance, write_instance
from frontierco.problems.generate import generate
from frontierco.problems.graphs.pace import read_pace_ds


def test_round_trip_through_the_registry(tmp_path):
    graph = generate("mds-ba", "g", 1, {"n": 80, "m": 4}).instance
    path = tmp_path / f"g{natural_suffix(graph)}"
    write_instance(path, graph)
    assert path.read_text().startswith(f"p ds {graph.n} {graph.m}\n")
    again = read_instance(path)
    assert again.n == graph.n and np.array_equal(again.edges, graph.edges)


def test_comments_blank_lines_and_isolated_vertices(tmp_path):
    (tmp_path / "c.gr").write_text("c a comment\np ds 5 2\nc among the edges\n1 2\n\n4 2\n")
    graph = read_pace_ds(tmp_path / "c.gr")
    assert graph.n == 5 and graph.edges.tolist() == [[0, 1], [1, 3]]


def test_clean_and_line_by_line_readers_agree(tmp_path):
    graph = generate("mds-sparse", "s", 3, {"n": 400, "degree": 5.0}).instance
    write_instance(tmp_path / "s.gr", graph)
    text = (tmp_path / "s.gr").read_text()
    (tmp_path / "t.gr").write_text(text.replace("\n", "\nc slow path\n", 3))
    fast, slow = read_pace_ds(tmp_path / "s.gr"), read_pace_ds(tmp_path / "t.gr")
    assert np.array_equal(fast.edges, slow.edges) and np.array_equal(fast.edges, graph.edges)


@pytest.mark.parametrize(
    "text, line, expected",
    [
        ("1 2\np ds 2 1\n", 1, "'p ds N M' line before any edge"),
        ("p edge 2 1\n1 2\n", 1, "'p ds N M'"),
        ("p ds two 1\n1 2\n", 1, "integer N and M"),
        ("p ds 3 1\n1 4\n", 2, "vertices in 1..3"),
        ("p ds 3 1\n0 1\n", 2, "vertices in 1..3"),
        ("p ds 3 1\n2 2\n", 2, "self-loop"),
        ("p ds 3 2\n1 2\n2 1\n", 3, "listed twice"),
        ("p ds 3 1\n1 2 3\n", 2, "an edge 'u v'"),
        ("p ds 3 1\n1 x\n", 2, "integer vertices"),
        ("p ds 3 2\n1 2\n", 1, "2 edges as the header says, found 1"),
        ("p ds 3 1\n1 2\np ds 3 1\n", 3, "one 'p ds N M' line"),
        ("c nothing\n", 1, "a 'p ds N M' line"),
    ],
)
def test_lying_input_is_refused_with_its_line(tmp_path, text, line, expected):
    (tmp_path / "bad.gr").write_text(text)
    with pytest.raises(FormatError, match=expected) as caught:
        read_pace_ds(tmp_path / "bad.gr")
    assert caught.value.line == line
