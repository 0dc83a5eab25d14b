"""DeepACO's heuristic network for TSP with neural local search (Ye, Wang, Cao, Liang, Li, *DeepACO:
Neural-enhanced Ant Systems for Combinatorial Optimization*, NeurIPS 2023), written here from the paper; names
follow the authors' released state dicts (``pretrained/tsp_nls/tsp{100,500,1000}.pt``) so that they load with
``strict=True``.

12 edge-gated layers of 32 units (SiLU, mean aggregation, ``frontierco/kit/heatmap_gnn.py``) on the graph of each
node's n/10 nearest neighbours; node input: 1 for the ants' start node, 0 elsewhere; edge input: the edge's
length in the unit square; an edge MLP ending in a sigmoid gives each edge its heuristic desirability eta.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from frontierco.kit.heatmap_gnn import EdgeGatedGNN, EdgeMLP


class HeuristicNetwork(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb_net = EdgeGatedGNN(depth=12, node_features=1, units=32, activation=F.silu, aggregation="mean")
        self.par_net_heu = EdgeMLP(depth=3, units=32, sigmoid=True)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor, edge_attr: torch.Tensor) -> torch.Tensor:
        """Start-node indicator (n, 1), edges (2, m), edge lengths (m, 1) -> eta (m,) in (0, 1)."""
        return self.par_net_heu(self.emb_net(x, edge_index, edge_attr))
