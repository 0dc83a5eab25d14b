"""DIMES's heatmap networks (Qiu, Sun, Yang, *DIMES: A Differentiable Meta Solver for Combinatorial
Optimization Problems*, NeurIPS 2022), written here from the paper; names follow the authors' released state
dicts so that their weights load with ``strict=True``.

- ``KnnNetwork`` (TSP-500/1000/10000): 12 edge-gated layers of 32 units (SiLU, mean aggregation) on the
  50-nearest-neighbour graph of the points, node input = the coordinates, edge input = the edge's length; an
  edge MLP (3 layers) turns each edge's features into its score theta.
- ``FullNetwork`` (TSP-100): 3 layers of 64 units (leaky ReLU, max aggregation) on the complete graph, with
  a final linear map of each edge's features to theta. Trained on integer points in [0, 100) divided by 100,
  i.e. the unit square, as the other networks.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from frontierco.kit.heatmap_gnn import EdgeGatedGNN, EdgeMLP


class KnnNetwork(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb_net = EdgeGatedGNN(depth=12, node_features=2, units=32, activation=F.silu, aggregation="mean")
        self.par_net = EdgeMLP(depth=3, units=32)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor, edge_attr: torch.Tensor) -> torch.Tensor:
        """Node coordinates (n, 2), edges (2, m), edge lengths (m, 1) -> theta (m,)."""
        return self.par_net(self.emb_net(x, edge_index, edge_attr))


class FullNetwork(EdgeGatedGNN):
    def __init__(self) -> None:
        super().__init__(depth=3, node_features=2, units=64, activation=F.leaky_relu, aggregation="max", edge_layers="e_lins")
        self.e_lin1 = nn.Linear(64, 1)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor, edge_attr: torch.Tensor) -> torch.Tensor:
        return self.e_lin1(super().forward(x, edge_index, edge_attr)).squeeze(-1)
