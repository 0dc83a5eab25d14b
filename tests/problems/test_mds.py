import numpy as np
import pytest

from frontierco.problems import MDSInstance, MDSSolution, evaluate
from frontierco.problems.files import read_solution, write_solution
from frontierco.problems.generate import generate
from frontierco.problems.graphs.mds import PROBLEM
from frontierco.problems.graphs.mis import canonical_edges


@pytest.fixture
def path5():
    """1 - 2 - 3 - 4 - 5 (0-based inside)."""
    return MDSInstance("p5", 5, canonical_edges(np.array([[1, 0], [1, 2], [2, 3], [3, 4]])))


def test_feasible_set_scores_its_size(path5):
    verdict = evaluate(path5, MDSSolution(np.array([1, 3])))
    assert verdict.feasible and verdict.objective == 2


def test_isolated_vertices_must_be_chosen():
    graph = MDSInstance("d4", 4, np.array([[0, 1]]))
    assert evaluate(graph, MDSSolution(np.array([0, 2, 3]))).feasible
    assert "vertex 4 is not dominated" in evaluate(graph, MDSSolution(np.array([0, 2]))).reason


@pytest.mark.parametrize(
    "vertices, reason",
    [
        ([1], "vertex 4 is not dominated"),  # domination
        ([1, 1, 3], "vertex 2 listed twice"),  # a set, not a list
        ([1, 5], "vertex 6 is not in 1..5"),  # vertices of the graph
        ([1.5, 3], "not integers"),  # whole vertex numbers
    ],
)
def test_each_broken_constraint_is_named(path5, vertices, reason):
    verdict = evaluate(path5, MDSSolution(np.array(vertices)))
    assert not verdict.feasible and reason in verdict.reason


def test_dropping_a_vertex_a_neighbour_relies_on_is_caught():
    graph = generate("mds-ba", "g", 4, {"n": 300, "m": 2}).instance
    everything = np.arange(graph.n)
    assert evaluate(graph, MDSSolution(everything)).feasible
    leaf = int(np.flatnonzero(graph.adjacency.degrees == graph.adjacency.degrees.min())[0])
    (neighbour,) = graph.adjacency.neighbours(leaf)[:1]
    others = graph.adjacency.neighbours(leaf)
    kept = np.setdiff1d(everything, np.concatenate([[leaf], others]))
    verdict = evaluate(graph, MDSSolution(kept))
    assert not verdict.feasible and f"vertex {leaf + 1} is not dominated" in verdict.reason
    assert evaluate(graph, MDSSolution(np.append(kept, neighbour))).feasible


def test_solution_file_round_trip_and_refusals(tmp_path, path5):
    write_solution(tmp_path / "s.sol", path5, MDSSolution(np.array([3, 1])), 2.0)
    assert (tmp_path / "s.sol").read_text() == "2\n2\n4\n"
    assert read_solution(tmp_path / "s.sol", path5).vertices.tolist() == [1, 3]
    (tmp_path / "bad.sol").write_text("3\n2\n4\n")
    with pytest.raises(Exception, match="a size equal to the 2 vertices listed"):
        read_solution(tmp_path / "bad.sol", path5)


def test_json_round_trip(path5):
    data = PROBLEM.encode(MDSSolution(np.array([1, 3])))
    assert PROBLEM.decode(data).vertices.tolist() == [1, 3]
    with pytest.raises(ValueError, match="not a mds solution"):
        PROBLEM.decode({"nodes": [1]})


def test_adjacency_lists_are_sorted_and_match_the_edges():
    graph = generate("mds-sparse", "s", 2, {"n": 500, "degree": 6.0}).instance
    adjacency = graph.adjacency
    assert adjacency.degrees.sum() == 2 * graph.m
    for v in range(0, 500, 37):
        expected = sorted({int(b) for a, b in graph.edges if a == v} | {int(a) for a, b in graph.edges if b == v})
        assert adjacency.neighbours(v).tolist() == expected
