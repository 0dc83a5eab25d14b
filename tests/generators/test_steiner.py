"""generators/steiner.py: SteinLib's hypercubes and connected random Steiner instances."""

import networkx as nx
import numpy as np
import pytest

from frontierco.problems.steiner.generators import stp_hypercube, stp_random


@pytest.mark.parametrize("dimension", [1, 3, 6])
def test_the_hypercube_has_its_edges_and_the_even_vertices_as_terminals(dimension):
    instance = stp_hypercube("hc", 0, dimension).instance
    n = 2**dimension
    assert instance.n == n and len(instance.edges) == dimension * n // 2
    assert all(bin(int(u) ^ int(v)).count("1") == 1 for u, v in instance.edges)  # neighbours differ in one bit
    assert instance.terminals.tolist() == [v for v in range(n) if bin(v).count("1") % 2 == 0]
    assert set(instance.weights.tolist()) == {1}


def test_a_perturbed_hypercube_draws_weights_in_100_to_110_by_its_seed():
    first, again, other = (stp_hypercube("hc", seed, 5, perturbed=True).instance for seed in (1, 1, 2))
    assert np.array_equal(first.weights, again.weights) and not np.array_equal(first.weights, other.weights)
    assert first.weights.min() >= 100 and first.weights.max() <= 110


def test_a_random_instance_is_connected_with_its_counts_and_weights_and_repeats_by_seed():
    instance = stp_random("r", 7, n=30, m=60, terminals=8, low=3, high=9).instance
    graph = nx.Graph([tuple(edge) for edge in instance.edges.tolist()])
    assert instance.n == 30 and len(instance.edges) == 60 and len(set(instance.terminals.tolist())) == 8
    assert graph.number_of_nodes() == 30 and nx.is_connected(graph)
    assert instance.weights.min() >= 3 and instance.weights.max() <= 9
    again = stp_random("r", 7, n=30, m=60, terminals=8, low=3, high=9).instance
    assert np.array_equal(again.edges, instance.edges) and np.array_equal(again.weights, instance.weights)


def test_a_tree_and_a_complete_graph_are_the_extremes_of_m():
    assert len(stp_random("t", 1, n=10, m=9, terminals=2).instance.edges) == 9
    assert len(stp_random("k", 1, n=6, m=15, terminals=6).instance.edges) == 15


@pytest.mark.parametrize(
    "call",
    [
        lambda: stp_hypercube("h", 0, 0),
        lambda: stp_hypercube("h", 0, 25),
        lambda: stp_random("r", 0, n=5, m=3, terminals=2),
        lambda: stp_random("r", 0, n=5, m=11, terminals=2),
        lambda: stp_random("r", 0, n=5, m=6, terminals=6),
        lambda: stp_random("r", 0, n=5, m=6, terminals=2, low=5, high=4),
    ],
)
def test_impossible_parameters_are_refused(call):
    with pytest.raises(ValueError):
        call()
