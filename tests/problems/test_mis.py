import numpy as np
import pytest

from frontierco.problems import MISInstance, MISSolution, evaluate
from frontierco.problems.generate import generate
from frontierco.problems.graphs.mis import canonical_edges


@pytest.fixture
def path4():
    return MISInstance("p4", 4, canonical_edges(np.array([[1, 0], [1, 2], [2, 3]])))


def test_feasible(path4):
    verdict = evaluate(path4, MISSolution(np.array([0, 2])))
    assert verdict.feasible and verdict.objective == 2


@pytest.mark.parametrize(
    "vertices, reason",
    [([0, 1], "vertices 1 and 2"), ([0, 0], "vertex 1 listed twice"), ([4], "vertex 5 is not in 1..4")],
)
def test_infeasible(path4, vertices, reason):
    assert reason in evaluate(path4, MISSolution(np.array(vertices))).reason


def test_canonical_edges_dedupe():
    assert canonical_edges(np.array([[2, 1], [1, 2], [0, 1]])).tolist() == [[0, 1], [1, 2]]


def test_adjacency_lists(path4):
    adjacency = path4.adjacency
    assert adjacency.degrees.tolist() == [1, 2, 2, 1]
    assert adjacency.neighbours(1).tolist() == [0, 2] and adjacency.neighbours(3).tolist() == [2]


def test_self_loop_rejected():
    with pytest.raises(ValueError):
        MISInstance("x", 2, np.array([[1, 1]]))


def test_adding_an_adjacent_vertex_is_caught():
    rng = np.random.default_rng(2)
    graph = generate("mis-er", "g", 5, {"n": 200, "p": 0.05}).instance
    adjacency = graph.adjacency
    for _ in range(50):
        chosen: list[int] = []
        blocked = np.zeros(graph.n, dtype=bool)
        for v in rng.permutation(graph.n):
            if not blocked[v]:
                chosen.append(int(v))
                blocked[adjacency.neighbours(v)] = True
                blocked[v] = True
        assert evaluate(graph, MISSolution(np.array(chosen))).feasible
        v = chosen[rng.integers(len(chosen))]
        neighbours = adjacency.neighbours(v)
        if neighbours.size == 0:
            continue
        assert not evaluate(graph, MISSolution(np.array(chosen + [int(rng.choice(neighbours))]))).feasible


def test_the_complement_joins_exactly_the_pairs_the_graph_does_not():
    from frontierco.problems.graphs.mis import complement

    graph = MISInstance("g", 4, np.array([[0, 1], [1, 2]]))
    flipped = complement(graph)
    assert flipped.edges.tolist() == [[0, 2], [0, 3], [1, 3], [2, 3]]
    assert complement(flipped).edges.tolist() == graph.edges.tolist()
    assert evaluate(flipped, MISSolution(np.array([0, 1]))).feasible  # an edge here is independent there


def test_a_complement_too_large_to_build_is_refused():
    from frontierco.problems.graphs.mis import MAX_COMPLEMENT_VERTICES, complement

    with pytest.raises(ValueError, match="at most"):
        complement(MISInstance("big", MAX_COMPLEMENT_VERTICES + 1, np.zeros((0, 2), dtype=np.int64)))
