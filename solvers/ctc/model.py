"""The CTC network: two modalities of a MILP (after "Constraint Matters: Multi-Modal Representation for
Reducing Mixed-Integer Linear Programming", ICLR 2026; written here from the paper's description).

- Instance modality: the bipartite graph of ``features.Graph``; half convolutions (variables -> constraints,
  then constraints -> variables; Gasse et al. 2019) built on PyTorch Geometric's ``MessagePassing``. The
  message is either a two-layer MLP of [source, edge weight] per edge (``message="mlp"``, checkpoints up to
  2026-12) or ``ReLU(W source + w * u)`` with ``W source`` computed once per node (``message="linear"``: per
  edge only a gather, an add and a ReLU; a forward pass on set cover 2000 x 1000, 106k edges, one thread:
  0.44 s with the MLP, 0.14 s linear).
- Abstract modality: one token per variable type and constraint type present in the formulation (a learned
  embedding per type plus the log of its count), mixed by self-attention across types.
- Fusion, between instance layers: every node attends over the type tokens (separate cross-attention for
  variables and constraints) and a learned sigmoid gate decides how much of it enters the node.
- Heads: a marginal logit per variable, a CTC logit per constraint.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch_geometric.nn import MessagePassing

from .constraints import TYPES, VARIABLE_TYPES
from .features import CONSTRAINT_FEATURES, VARIABLE_FEATURES, Graph

TYPE_TOKENS = len(VARIABLE_TYPES) + len(TYPES) + 1  # variable types, constraint types, the objective


@dataclass(frozen=True)
class ModelConfig:
    dim: int = 64
    layers: int = 2
    heads: int = 4
    abstract: bool = True  # False: the instance modality alone (an ablation)
    message: str = "mlp"  # "mlp" or "linear" (``HalfConv``)

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def mlp(inputs: int, dim: int, outputs: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(inputs, dim), nn.ReLU(), nn.Linear(dim, outputs))


class HalfConv(MessagePassing):
    """dst <- LayerNorm(dst + MLP([dst, mean over edges of message(src, weight)])); the message is
    MLP([src, weight]) per edge (``"mlp"``) or ReLU(W src + weight * u) with W src per node (``"linear"``)."""

    def __init__(self, dim: int, message: str = "mlp"):
        super().__init__(aggr="mean")
        if message not in ("mlp", "linear"):
            raise ValueError(f"message must be mlp or linear, not {message!r}")
        self.linear = message == "linear"
        if self.linear:
            self.source = nn.Linear(dim, dim)
            self.edge = nn.Linear(1, dim, bias=False)
        else:
            self.message_mlp = mlp(dim + 1, dim, dim)
        self.update_mlp = mlp(2 * dim, dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, source: torch.Tensor, target: torch.Tensor, edges: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
        projected = self.source(source) if self.linear else source
        gathered = self.propagate(edges, x=(projected, target), weight=weights, size=(source.shape[0], target.shape[0]))
        return self.norm(target + self.update_mlp(torch.cat([target, gathered], -1)))

    def message(self, x_j: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        if self.linear:
            return torch.relu(x_j + weight[:, None] * self.edge.weight[:, 0])
        return self.message_mlp(torch.cat([x_j, weight[:, None]], -1))


class TypeTokens(nn.Module):
    """The abstract modality: a token per type present, self-attention across them."""

    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.embedding = nn.Embedding(TYPE_TOKENS, dim)
        self.count = nn.Linear(1, dim)
        self.mix = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True)

    def forward(self, graph: Graph) -> torch.Tensor:
        ids = torch.cat([graph.variable_type, graph.constraint_type + len(VARIABLE_TYPES)])
        counts = torch.bincount(ids, minlength=TYPE_TOKENS).float()
        present = torch.nonzero(counts).squeeze(-1)
        tokens = self.embedding(present) + self.count(torch.log1p(counts[present])[:, None])
        return self.mix(tokens[None])[0]


class Fusion(nn.Module):
    """node <- node + gate * cross-attention(node -> type tokens)."""

    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.attention = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.gate = nn.Linear(2 * dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, nodes: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        attended, _ = self.attention(nodes[None], tokens[None], tokens[None], need_weights=False)
        attended = attended[0]
        gate = torch.sigmoid(self.gate(torch.cat([nodes, attended], -1)))
        return self.norm(nodes + gate * attended)


class CTCNet(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        d = config.dim
        self.variable_in = mlp(VARIABLE_FEATURES, d, d)
        self.constraint_in = mlp(CONSTRAINT_FEATURES, d, d)
        self.to_constraints = nn.ModuleList(HalfConv(d, config.message) for _ in range(config.layers))
        self.to_variables = nn.ModuleList(HalfConv(d, config.message) for _ in range(config.layers))
        self.tokens = TypeTokens(d, config.heads) if config.abstract else None
        self.fuse_variables = nn.ModuleList(Fusion(d, config.heads) for _ in range(config.layers)) if config.abstract else None
        self.fuse_constraints = nn.ModuleList(Fusion(d, config.heads) for _ in range(config.layers)) if config.abstract else None
        self.variable_head = mlp(d, d, 1)
        self.constraint_head = mlp(d, d, 1)

    def forward(self, graph: Graph) -> tuple[torch.Tensor, torch.Tensor]:
        """(marginal logits per variable, CTC logits per constraint row incl. the objective node)."""
        variables, constraints = self.variable_in(graph.variables), self.constraint_in(graph.constraints)
        forward_edges, backward_edges = graph.edges, graph.edges.flip(0)
        tokens = self.tokens(graph) if self.tokens is not None else None
        for layer in range(self.config.layers):
            constraints = self.to_constraints[layer](variables, constraints, forward_edges, graph.weights)
            variables = self.to_variables[layer](constraints, variables, backward_edges, graph.weights)
            if tokens is not None:
                assert self.fuse_variables is not None and self.fuse_constraints is not None
                variables = self.fuse_variables[layer](variables, tokens)
                constraints = self.fuse_constraints[layer](constraints, tokens)
        return self.variable_head(variables).squeeze(-1), self.constraint_head(constraints).squeeze(-1)


def focal_loss(logits: torch.Tensor, targets: torch.Tensor, gamma: float = 2.0, alpha: float = 0.75) -> torch.Tensor:
    """Binary focal loss (Lin et al. 2017): rare positive CTC rows weigh ``alpha``, easy examples little."""
    probability = torch.sigmoid(logits)
    bce = nn.functional.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_true = probability * targets + (1 - probability) * (1 - targets)
    weight = alpha * targets + (1 - alpha) * (1 - targets)
    return (weight * (1 - p_true) ** gamma * bce).mean()


def loss(
    net_out: tuple[torch.Tensor, torch.Tensor], graph: Graph, marginals: torch.Tensor, ctc: torch.Tensor, ctc_weight: float = 1.0
) -> torch.Tensor:
    variable_logits, constraint_logits = net_out
    terms = []
    if bool(graph.binary.any()):
        terms.append(nn.functional.binary_cross_entropy_with_logits(variable_logits[graph.binary], marginals[graph.binary]))
    if bool(graph.inequality.any()):
        terms.append(ctc_weight * focal_loss(constraint_logits[graph.inequality], ctc[graph.inequality].float()))
    return torch.stack(terms).sum()
