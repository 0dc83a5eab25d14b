"""The anisotropic edge-gated graph network that DIMES (Qiu, Sun, Yang, NeurIPS 2022) and DeepACO (Ye et al.,
NeurIPS 2023) use to turn a routing instance into one score per edge (a "heatmap"), written here from the
papers; module and parameter names follow the authors' released state dicts so that their weights load
with ``strict=True``.

Each layer updates node features h and edge features e (edge (i, j) from node i to candidate j):

    h_i <- h_i + act(BN(A h_i + agg_{j} sigmoid(e_ij) * (B h_j)))
    e_ij <- e_ij + act(BN(C e_ij + U h_i + V h_j))

with ``agg`` the mean (or max) over i's outgoing edges. Inference only: batch normalisation uses the
published running statistics.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from frontierco.kit.tour_search import nearest_neighbours


class NodeBatchNorm(nn.Module):
    """Batch normalisation over the rows of a feature matrix, stored as ``module.*`` like PyG's BatchNorm."""

    def __init__(self, units: int):
        super().__init__()
        self.module = nn.BatchNorm1d(units)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.module(x)


def aggregate(messages: torch.Tensor, source: torch.Tensor, n: int, how: str) -> torch.Tensor:
    """Per source node, the mean or max of the messages on its outgoing edges (nodes without edges: 0)."""
    out = torch.zeros((n, messages.shape[1]), dtype=messages.dtype, device=messages.device)
    index = source[:, None].expand(-1, messages.shape[1])
    return out.scatter_reduce(0, index, messages, reduce="mean" if how == "mean" else "amax", include_self=False)


class EdgeGatedGNN(nn.Module):
    """The stack of edge-gated layers; returns the final edge features, one row per edge."""

    v_lins1: nn.ModuleList
    v_lins2: nn.ModuleList
    v_lins3: nn.ModuleList
    v_lins4: nn.ModuleList

    def __init__(
        self,
        depth: int,
        node_features: int,
        units: int,
        activation: Callable[[torch.Tensor], torch.Tensor] = F.silu,
        aggregation: str = "mean",
        edge_layers: str = "e_lins0",
    ):
        super().__init__()
        self.depth, self.activation, self.aggregation, self.edge_layers = depth, activation, aggregation, edge_layers
        self.v_lin0 = nn.Linear(node_features, units)
        for name in ("v_lins1", "v_lins2", "v_lins3", "v_lins4"):
            setattr(self, name, nn.ModuleList(nn.Linear(units, units) for _ in range(depth)))
        self.v_bns = nn.ModuleList(NodeBatchNorm(units) for _ in range(depth))
        self.e_lin0 = nn.Linear(1, units)
        setattr(self, edge_layers, nn.ModuleList(nn.Linear(units, units) for _ in range(depth)))
        self.e_bns = nn.ModuleList(NodeBatchNorm(units) for _ in range(depth))

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor, edge_attr: torch.Tensor) -> torch.Tensor:
        source, target = edge_index
        act = self.activation
        h = act(self.v_lin0(x))
        e = act(self.e_lin0(edge_attr))
        edge_linears: nn.ModuleList = getattr(self, self.edge_layers)
        for i in range(self.depth):
            a, b = self.v_lins1[i](h), self.v_lins2[i](h)
            u, v = self.v_lins3[i](h), self.v_lins4[i](h)
            gated = aggregate(torch.sigmoid(e) * b[target], source, len(h), self.aggregation)
            h_next = h + act(self.v_bns[i](a + gated))
            e = e + act(self.e_bns[i](edge_linears[i](e) + u[source] + v[target]))
            h = h_next
        return e


class EdgeMLP(nn.Module):
    """Edge features to one score per edge: linear layers with SiLU between them; DeepACO's ends in a sigmoid."""

    def __init__(self, depth: int = 3, units: int = 32, sigmoid: bool = False):
        super().__init__()
        self._dummy = nn.Parameter(torch.empty(0), requires_grad=False)  # in the released state dicts
        self.lins = nn.ModuleList(nn.Linear(units, 1 if i == depth - 1 else units) for i in range(depth))
        self.sigmoid = sigmoid

    def forward(self, e: torch.Tensor) -> torch.Tensor:
        for i, linear in enumerate(self.lins):
            e = linear(e)
            if i < len(self.lins) - 1:
                e = F.silu(e)
        return (torch.sigmoid(e) if self.sigmoid else e).squeeze(-1)


def knn_edges(points: np.ndarray, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Edges from each point to its k nearest others (nearest first) and their Euclidean lengths, shaped as the
    networks read them: edge_index (2, n k) sorted by source, edge_attr (n k, 1)."""
    neighbours = nearest_neighbours(points, k)
    source = np.repeat(np.arange(len(points)), neighbours.shape[1])
    target = neighbours.ravel()
    length = np.linalg.norm(points[source] - points[target], axis=1)
    edge_index = torch.from_numpy(np.stack([source, target])).long()
    return edge_index, torch.from_numpy(length).float()[:, None]


def complete_edges(points: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """All ordered pairs (i, j), i != j, row by row, with their Euclidean lengths."""
    n = len(points)
    source, target = np.nonzero(~np.eye(n, dtype=bool))
    length = np.linalg.norm(points[source] - points[target], axis=1)
    return torch.from_numpy(np.stack([source, target])).long(), torch.from_numpy(length).float()[:, None]
