"""The edge-gated network's pieces: aggregation by source node, k-nearest-neighbour edges as the networks read them."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from frontierco.kit.heatmap_gnn import aggregate, complete_edges, knn_edges  # noqa: E402


def test_aggregate_takes_mean_and_max_over_each_sources_edges() -> None:
    messages = torch.tensor([[1.0], [3.0], [-2.0], [5.0]])
    source = torch.tensor([0, 0, 1, 1])
    assert aggregate(messages, source, 3, "mean").squeeze(1).tolist() == [2.0, 1.5, 0.0]
    assert aggregate(messages, source, 3, "max").squeeze(1).tolist() == [3.0, 5.0, 0.0]


def test_knn_edges_are_sorted_by_source_nearest_first() -> None:
    points = np.random.default_rng(0).random((30, 2))
    edge_index, edge_attr = knn_edges(points, 5)
    assert edge_index.shape == (2, 150) and edge_attr.shape == (150, 1)
    assert edge_index[0].tolist() == np.repeat(np.arange(30), 5).tolist()
    lengths = edge_attr.view(30, 5)
    assert bool((lengths[:, 1:] >= lengths[:, :-1]).all()) and bool((edge_index[0] != edge_index[1]).all())
    full_index, full_attr = complete_edges(points)
    assert full_index.shape == (2, 30 * 29) and float(full_attr.min()) > 0
