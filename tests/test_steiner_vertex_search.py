"""The vertex-set search of equal-weight Steiner instances (frontierco.kit.steiner_vertex_search): its component
counts against networkx, and its sets against optima found by enumerating the Steiner vertices."""

import itertools

import networkx as nx
import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.kit.steiner_vertex_search import VertexSearch, _components  # noqa: E402


def random_graph(seed: int, n: int, m: int) -> nx.Graph:
    rng = np.random.default_rng(seed)
    graph = nx.path_graph(n)  # connected
    while graph.number_of_edges() < m:
        u, v = rng.choice(n, size=2, replace=False).tolist()
        graph.add_edge(u, v)
    return graph


def csr(graph: nx.Graph) -> tuple[np.ndarray, np.ndarray]:
    n = graph.number_of_nodes()
    neighbours = [sorted(graph.neighbors(v)) for v in range(n)]
    indptr = np.concatenate([[0], np.cumsum([len(x) for x in neighbours])]).astype(np.int64)
    return indptr, np.array([w for x in neighbours for w in x], dtype=np.int64)


def fewest_steiner_vertices(graph: nx.Graph, terminals: list[int]) -> int:
    others = sorted(set(graph) - set(terminals))
    for size in range(len(others) + 1):
        for extra in itertools.combinations(others, size):
            if nx.is_connected(graph.subgraph(terminals + list(extra))):
                return size
    raise AssertionError("the graph is connected")


def connected_with_terminals(graph: nx.Graph, member: np.ndarray, terminals: list[int]) -> bool:
    return bool(member[terminals].all()) and nx.is_connected(graph.subgraph(np.flatnonzero(member).tolist()))


@pytest.mark.parametrize("seed", range(5))
def test_components_and_pieces_agree_with_networkx(seed):
    graph = random_graph(seed, 30, 45)
    indptr, indices = csr(graph)
    member = np.random.default_rng(seed).random(30) < 0.6
    label, pieces = np.zeros(30, np.int64), np.zeros(30, np.int64)
    count = _components(indptr, indices, member, label, pieces, np.zeros((5, 30), np.int64))
    induced = graph.subgraph(np.flatnonzero(member).tolist())
    assert count == nx.number_connected_components(induced)
    for part in nx.connected_components(induced):
        assert len({int(label[v]) for v in part}) == 1
    for v in np.flatnonzero(member).tolist():
        without = induced.subgraph(set(induced) - {v})
        assert count - 1 + pieces[v] == nx.number_connected_components(without), v


@pytest.mark.parametrize("seed", range(6))
def test_the_search_reaches_the_fewest_steiner_vertices_and_keeps_a_connected_best(seed):
    graph = random_graph(seed, 16, 24)
    indptr, indices = csr(graph)
    terminals = np.random.default_rng(seed).choice(16, size=5, replace=False).tolist()
    terminal = np.zeros(16, dtype=bool)
    terminal[terminals] = True
    search = VertexSearch(indptr, indices, terminal, np.ones(16, dtype=bool), seed)
    sizes = []
    for _ in range(50):
        search.run(20)
        assert connected_with_terminals(graph, search.best, terminals)
        sizes.append(int((search.best & ~terminal).sum()))
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] == fewest_steiner_vertices(graph, terminals)


def test_the_search_is_determined_by_its_seed():
    graph = random_graph(7, 60, 100)
    indptr, indices = csr(graph)
    terminal = np.zeros(60, dtype=bool)
    terminal[::6] = True

    def trace(seed: int) -> list[tuple[int, bytes]]:
        search = VertexSearch(indptr, indices, terminal, np.ones(60, dtype=bool), seed)
        return [(int(search.run(25)), search.best.tobytes()) for _ in range(20)]

    assert trace(3) == trace(3)
