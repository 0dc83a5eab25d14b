"""The network's input: what each vertex of a graph shows the GNN, the same function in training and at inference.

The layout is pinned by name (``LAYOUT``, recorded in each checkpoint's card; loading refuses another): per
vertex, a constant 1, its degree over the graph's mean degree, log(1 + degree) over log(1 + the largest degree),
its neighbours' mean degree over the graph's mean degree, and a uniform random number in [0, 1). Every
structural feature is a ratio, so graphs of any size and density reach the network on one scale. The random
column breaks the symmetry between vertices that look alike (in RB graphs almost all do), as the random seed
vertex does in Erdos Goes Neural; a new draw gives a new heatmap, which is how the solver samples.
"""

from __future__ import annotations

import numpy as np

from frontierco.problems.graphs.mis import SimpleGraph

LAYOUT = "one, degree/mean, log1p(degree)/log1p(max degree), neighbour mean degree/mean, uniform random"
FEATURES = 5


def vertex_features(graph: SimpleGraph, rng: np.random.Generator) -> np.ndarray:
    """(n, FEATURES) float32, in ``LAYOUT``'s order; the random column drawn from ``rng``."""
    degree = np.bincount(graph.edges.ravel(), minlength=graph.n).astype(np.float64)
    mean = max(float(degree.mean()), 1e-9) if graph.n else 1.0
    top = max(float(degree.max()), 1.0) if graph.n else 1.0
    around = np.zeros(graph.n)
    np.add.at(around, graph.edges[:, 0], degree[graph.edges[:, 1]])
    np.add.at(around, graph.edges[:, 1], degree[graph.edges[:, 0]])
    around = around / np.maximum(degree, 1.0)
    columns = [np.ones(graph.n), degree / mean, np.log1p(degree) / np.log1p(top), around / mean, rng.random(graph.n)]
    return np.stack(columns, axis=1).astype(np.float32)


def directed_edges(graph: SimpleGraph) -> np.ndarray:
    """(2, 2m) int64: every edge in both directions, sources in row 0, as the network's messages run."""
    u, v = graph.edges[:, 0], graph.edges[:, 1]
    return np.stack([np.concatenate([u, v]), np.concatenate([v, u])]).astype(np.int64)
