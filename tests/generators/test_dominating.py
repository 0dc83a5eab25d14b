import numpy as np

from frontierco.problems.generate import generate


def test_ba_draws_its_size_from_the_range_and_attaches_m_edges_per_vertex():
    sizes = set()
    for seed in range(6):
        graph = generate("mds-ba", "g", seed, {"n": [800, 1200], "m": 4}).instance
        assert 800 <= graph.n <= 1200
        assert graph.m == (graph.n - 4) * 4  # networkx: m edges for each vertex after the first m
        sizes.add(graph.n)
    assert len(sizes) > 1


def test_sparse_has_about_n_degree_over_two_edges_and_no_loops():
    graph = generate("mds-sparse", "s", 1, {"n": 100_000, "degree": 6.0}).instance
    assert graph.n == 100_000 and 0.99 * 300_000 <= graph.m <= 300_000
    assert np.all(graph.edges[:, 0] < graph.edges[:, 1])
