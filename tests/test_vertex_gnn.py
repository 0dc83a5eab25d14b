"""The vertex-scoring network's input (pinned column by column) and its messages."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from frontierco.kit.vertex_gnn import FEATURES, ModelConfig, VertexGNN, directed_edges, vertex_features, vertex_logits  # noqa: E402
from frontierco.problems import MDSInstance  # noqa: E402
from frontierco.problems.graphs.mis import canonical_edges  # noqa: E402


def path_and_loner() -> MDSInstance:
    """The path 0-1-2 and an isolated vertex 3."""
    return MDSInstance("p3", 4, canonical_edges(np.array([[0, 1], [1, 2]])))


def test_the_columns_are_the_layout_in_its_order() -> None:
    x = vertex_features(path_and_loner(), np.random.default_rng(7))
    # degrees 1, 2, 1, 0: mean 1, largest 2; neighbours' mean degree 2, 1, 2, 0; then the rng's draws
    expected = [[1, 1, math.log(2) / math.log(3), 2], [1, 2, 1, 1], [1, 1, math.log(2) / math.log(3), 2], [1, 0, 0, 0]]
    assert x.dtype == np.float32 and x.shape == (4, FEATURES)
    np.testing.assert_allclose(x[:, :4], expected, rtol=1e-6)
    np.testing.assert_allclose(x[:, 4], np.random.default_rng(7).random(4), rtol=1e-6)


def test_messages_run_both_ways_along_every_edge() -> None:
    assert sorted(map(tuple, directed_edges(path_and_loner()).T.tolist())) == [(0, 1), (1, 0), (1, 2), (2, 1)]


def test_the_logits_are_one_per_vertex_and_follow_the_random_column() -> None:
    torch.manual_seed(0)
    network = VertexGNN(ModelConfig(hidden=8, layers=2)).eval()
    graph = path_and_loner()
    first = vertex_logits(network, graph, np.random.default_rng(0))
    assert first.shape == (4,) and first.dtype == np.float64
    np.testing.assert_array_equal(first, vertex_logits(network, graph, np.random.default_rng(0)))
    assert not np.array_equal(first, vertex_logits(network, graph, np.random.default_rng(1)))
