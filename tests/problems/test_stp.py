"""The Steiner tree checker: one broken solution per constraint, exact costs, and refused instances."""

import numpy as np
import pytest

from frontierco.problems import PROBLEMS, STPInstance, STPSolution, evaluate, problem_of
from frontierco.problems.files import read_solution, write_solution
from frontierco.problems.generate import generate


@pytest.fixture
def square():
    """A 4-cycle 1-2-3-4 with a chord 1-3 and a pendant vertex 5 at 3; terminals 1, 2 and 4 (0-based 0, 1, 3)."""
    edges = [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [2, 4]]
    return STPInstance.build("sq", 5, edges, [1, 2, 2, 1, 5, 1], [3, 0, 1])


def test_a_tree_spanning_the_terminals_costs_its_weights(square):
    verdict = evaluate(square, STPSolution(np.array([[1, 0], [0, 3]])))
    assert verdict.feasible and verdict.objective == 2 and problem_of(square).name == "stp"


def test_a_tree_through_steiner_vertices_is_feasible(square):
    verdict = evaluate(square, STPSolution(np.array([[0, 1], [1, 2], [2, 3], [2, 4]])))
    assert verdict.feasible and verdict.objective == 1 + 2 + 2 + 1


@pytest.mark.parametrize(
    "edges, reason",
    [
        ([[0, 1], [1, 4]], "edge 2-5 is not an edge of the graph"),
        ([[0, 1], [0, 3], [1, 0]], "edge 1-2 listed twice"),
        ([[0, 1], [1, 2], [2, 3], [3, 0]], "closes a cycle"),
        ([[0, 1], [2, 3], [2, 4]], "not connected"),
        ([[0, 1], [1, 2]], "terminal 4 is not in the tree"),
        ([[0, 7]], "endpoint 8 is not a vertex"),
        ([[0.5, 1]], "not integers"),
        ([[0, 1, 2]], "vertex pairs"),
    ],
)
def test_each_broken_constraint_is_named(square, edges, reason):
    verdict = evaluate(square, STPSolution(np.array(edges)))
    assert not verdict.feasible and reason in verdict.reason


def test_no_edges_span_one_terminal_but_not_two(square):
    single = STPInstance.build("one", 5, square.edges, square.weights, [2])
    assert evaluate(single, STPSolution(np.zeros((0, 2)))).objective == 0
    assert "terminal 2 is not in the tree" in evaluate(square, STPSolution(np.zeros((0, 2)))).reason


def test_integer_weights_sum_exactly():
    big = 2**53 + 1  # not a float: a float sum would lose the last unit
    instance = STPInstance.build("big", 3, [[0, 1], [1, 2]], [big, 1], [0, 2])
    assert instance.integer_weights and evaluate(instance, STPSolution(np.array([[0, 1], [1, 2]]))).objective == float(big + 1)


def test_fractional_weights_stay_floats():
    instance = STPInstance.build("f", 2, [[0, 1]], [0.25], [0, 1])
    assert not instance.integer_weights and evaluate(instance, STPSolution(np.array([[1, 0]]))).objective == 0.25


@pytest.mark.parametrize(
    "n, edges, weights, terminals, reason",
    [
        (3, [[0, 1], [1, 2]], [1, 1], [0, 3], "terminal 4 is not a vertex"),
        (3, [[0, 1], [1, 2]], [1, -1], [0, 2], "weights must be finite and non-negative"),
        (4, [[0, 1], [2, 3]], [1, 1], [0, 3], "terminal 4 is not connected to terminal 1"),
        (3, [[0, 1], [1, 1]], [1, 1], [0, 1], "self-loop"),
        (3, [[0, 1], [1, 2]], [1, 1], [], "at least one terminal"),
        (3, [[0, 1], [0, 5]], [1, 1], [0, 1], "endpoint 6 is not a vertex"),
    ],
)
def test_an_instance_that_cannot_be_is_refused(n, edges, weights, terminals, reason):
    with pytest.raises(ValueError, match=reason):
        STPInstance.build("bad", n, edges, weights, terminals)


def test_unsorted_or_repeated_edges_are_refused_unless_built():
    with pytest.raises(ValueError, match="sorted pairs"):
        STPInstance("x", 3, np.array([[1, 2], [0, 1]]), np.array([1, 1]), np.array([0, 2]))
    with pytest.raises(ValueError, match="sorted pairs"):
        STPInstance.build("x", 3, [[0, 1], [1, 0]], [1, 2], [0, 1])
    built = STPInstance.build("x", 3, [[2, 1], [1, 0]], [5, 7], [2, 0])
    assert built.edges.tolist() == [[0, 1], [1, 2]] and built.weights.tolist() == [7, 5] and built.terminals.tolist() == [0, 2]


def test_json_and_solution_file_round_trip(tmp_path):
    instance = generate("stp-random", "r", 3, {"n": 30, "m": 60, "terminals": 5}).instance
    problem = PROBLEMS["stp"]
    tree = STPSolution(np.array([[0, 1]]))
    assert np.array_equal(problem.decode(problem.encode(tree)).edges, tree.edges)
    write_solution(tmp_path / "t.txt", instance, tree, 3.0)
    assert (tmp_path / "t.txt").read_text() == "# cost 3\n1 2\n"
    assert np.array_equal(read_solution(tmp_path / "t.txt", instance).edges, [[0, 1]])
    with pytest.raises(ValueError):
        problem.decode({"edges": [[1, 2, 3]]})


def test_every_random_spanning_tree_pruned_is_feasible_and_a_cycle_is_not():
    import networkx as nx

    instance = generate("stp-random", "r", 4, {"n": 60, "m": 150, "terminals": 10}).instance
    graph = nx.Graph()
    graph.add_weighted_edges_from((u, v, w) for (u, v), w in zip(instance.edges.tolist(), instance.weights.tolist(), strict=True))
    tree = nx.minimum_spanning_tree(graph)
    expected = sum(d["weight"] for _, _, d in tree.edges(data=True))
    assert evaluate(instance, STPSolution(np.array(list(tree.edges())))).objective == expected
    extra = next((u, v) for u, v in graph.edges() if not tree.has_edge(u, v))
    assert "closes a cycle" in evaluate(instance, STPSolution(np.array([*tree.edges(), extra]))).reason
