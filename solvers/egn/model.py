"""The vertex-scoring GNN of Erdos Goes Neural (Karalias and Loukas, NeurIPS 2020), written here from the paper:
a message-passing network over the graph that gives each vertex the probability of belonging to the set.

Each layer: h <- h + ReLU(LayerNorm(A h + B [mean_{u ~ v} h_u, max_{u ~ v} h_u])), so the network reads its
neighbourhood to ``layers`` hops; the maximum lets a vertex compare itself with its neighbours (lowest degree,
largest random draw around it) in one layer. The last linear layer gives one logit per vertex (the probability is
its sigmoid).

With ``ModelConfig.offset`` = beta > 0 every logit is shifted by -log(beta x mean degree - 1), so that a network
output of zero is the loss's uniform stationary heatmap p = 1 / (beta x mean degree) of this graph (``loss.py``):
the features are ratios to the mean degree, so without the shift the network cannot tell a graph's density and
has to spend its weights on one compromise level for every graph. 0 (the default): no shift.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn

from .features import FEATURES


@dataclass(frozen=True)
class ModelConfig:
    hidden: int = 64
    layers: int = 6
    offset: float = 0.0  # beta of the loss the logits are centred for (see the module's docstring); 0: none

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


class Layer(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.own = nn.Linear(hidden, hidden)
        self.around = nn.Linear(2 * hidden, hidden, bias=False)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, h: torch.Tensor, edges: torch.Tensor, inverse_degree: torch.Tensor) -> torch.Tensor:
        messages = h[edges[0]]
        total = torch.zeros_like(h).index_add_(0, edges[1], messages)
        index = edges[1][:, None].expand_as(messages)
        largest = torch.zeros_like(h).scatter_reduce(0, index, messages, reduce="amax", include_self=False)
        return h + torch.relu(self.norm(self.own(h) + self.around(torch.cat([total * inverse_degree, largest], dim=1))))


class EGN(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.embed = nn.Linear(FEATURES, config.hidden)
        self.stack = nn.ModuleList(Layer(config.hidden) for _ in range(config.layers))
        self.head = nn.Linear(config.hidden, 1)

    def forward(self, features: torch.Tensor, edges: torch.Tensor) -> torch.Tensor:
        """One logit per vertex; ``edges`` (2, E) holds both directions of every edge."""
        n = features.shape[0]
        degree = torch.zeros(n, dtype=features.dtype).index_add_(0, edges[1], torch.ones(edges.shape[1], dtype=features.dtype))
        inverse_degree = (1.0 / degree.clamp(min=1.0))[:, None]
        h = torch.relu(self.embed(features))
        for layer in self.stack:
            h = layer(h, edges, inverse_degree)
        logits = self.head(h).squeeze(-1)
        if self.config.offset > 0:
            logits = logits + uniform_logit(degree, self.config.offset)
        return logits


def uniform_logit(degree: torch.Tensor, beta: float) -> torch.Tensor:
    """log(p / (1 - p)) for p = 1 / (beta x mean degree), the stationary uniform heatmap of the MIS loss."""
    excess = (beta * degree.mean()).clamp(min=2.0) - 1.0
    return -torch.log(excess)
