"""The network's input, the same function in training and at inference: ``frontierco.kit.vertex_gnn``'s layout
(pinned by name in each checkpoint's card; loading refuses another), shared with egn-mds."""

from frontierco.kit.vertex_gnn import FEATURES, LAYOUT, directed_edges, vertex_features

__all__ = ["FEATURES", "LAYOUT", "directed_edges", "vertex_features"]
