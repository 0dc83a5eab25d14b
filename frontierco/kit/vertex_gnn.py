"""A vertex-scoring message-passing network of the Erdos Goes Neural kind (Karalias and Loukas, NeurIPS 2020) and
its input, for the learned graph solvers (egn-mis and egn-mds: a sandboxed solver
cannot import another solver's folder, so the one network lives here).

Input (``LAYOUT``, recorded in a checkpoint's card): per vertex, a constant 1, its degree over the graph's mean
degree, log(1 + degree) over log(1 + the largest degree), its neighbours' mean degree over the graph's mean
degree, and a uniform random number in [0, 1) (breaks the symmetry between vertices that look alike, the role of
the paper's random seed vertex; a new draw gives a new score vector). Every structural column is a ratio, so
graphs of any size reach the network on one scale.

Each layer: h <- h + ReLU(LayerNorm(A h + B [mean_{u ~ v} h_u, max_{u ~ v} h_u])); a last linear layer gives one
logit per vertex.

With ``ModelConfig.offset`` = beta > 0 every logit is shifted by -log(beta x mean degree - 1), so that a network
output of zero is the MIS loss's uniform stationary heatmap p = 1 / (beta x mean degree) of this graph
(solvers/egn/loss.py): the features are ratios to the mean degree, so without the shift the network cannot tell a
graph's density. 0 (the default): no shift.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn

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
    """(2, 2m) int64: every edge in both directions, sources in row 0, as the messages run."""
    u, v = graph.edges[:, 0], graph.edges[:, 1]
    return np.stack([np.concatenate([u, v]), np.concatenate([v, u])]).astype(np.int64)


@dataclass(frozen=True)
class ModelConfig:
    hidden: int = 32
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


class VertexGNN(nn.Module):
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


def vertex_logits(model: VertexGNN, graph: SimpleGraph, rng: np.random.Generator) -> np.ndarray:
    """The network's logit for every vertex (no gradient), the random column drawn from ``rng``."""
    with torch.no_grad():
        features = torch.from_numpy(vertex_features(graph, rng))
        return model(features, torch.from_numpy(directed_edges(graph))).numpy().astype(np.float64)
