"""The Attention Model of Kool, van Hoof and Welling (*Attention, Learn to Solve Routing Problems!*, ICLR 2019)
for TSP, written here from the paper; module and parameter names follow the authors' released state dicts so
that their weights load with ``strict=True``.

Encoder: a linear embedding of the coordinates, then 3 layers of multi-head attention (8 heads) and a
feed-forward block (512), each with a skip connection and batch normalisation (inference only: the running
statistics of the published weights). Decoder: the context is the graph embedding (mean of the nodes) plus a
projection of the first and the current node's embeddings (a learned placeholder at the first step); one
masked 8-head glimpse, then compatibilities with every node, tanh clipping at 10, visited nodes masked.
"""

from __future__ import annotations

import math

import torch
from torch import nn

DIM = 128
HEADS = 8
FEED_FORWARD = 512
LAYERS = 3
CLIP = 10.0


class MultiHeadAttention(nn.Module):
    def __init__(self, heads: int = HEADS, dim: int = DIM):
        super().__init__()
        key = dim // heads
        self.W_query = nn.Parameter(torch.empty(heads, dim, key))
        self.W_key = nn.Parameter(torch.empty(heads, dim, key))
        self.W_val = nn.Parameter(torch.empty(heads, dim, key))
        self.W_out = nn.Parameter(torch.empty(heads, key, dim))
        for weight in (self.W_query, self.W_key, self.W_val, self.W_out):
            nn.init.uniform_(weight, -1.0 / math.sqrt(weight.shape[-1]), 1.0 / math.sqrt(weight.shape[-1]))

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        """(B, N, D) -> (B, N, D): self-attention, each head's output projected and summed."""
        q, k, v = (torch.einsum("bnd,hdk->hbnk", h, w) for w in (self.W_query, self.W_key, self.W_val))
        attention = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), -1)
        return torch.einsum("hbnk,hkd->bnd", attention @ v, self.W_out)


class SkipConnection(nn.Module):
    def __init__(self, module: nn.Module):
        super().__init__()
        self.module = module

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.module(x)


class FrozenBatchNorm(nn.Module):
    """Batch normalisation with fixed statistics (the published running mean and variance): inference only."""

    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x - self.running_mean) / torch.sqrt(self.running_var + self.eps) * self.weight + self.bias


class Normalization(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.normalizer = FrozenBatchNorm(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.normalizer(x)


def attention_layer(dim: int = DIM) -> nn.Sequential:
    feed_forward = nn.Sequential(nn.Linear(dim, FEED_FORWARD), nn.ReLU(), nn.Linear(FEED_FORWARD, dim))
    return nn.Sequential(SkipConnection(MultiHeadAttention()), Normalization(dim), SkipConnection(feed_forward), Normalization(dim))


class GraphAttentionEncoder(nn.Module):
    def __init__(self, layers: int = LAYERS):
        super().__init__()
        self.layers = nn.Sequential(*(attention_layer() for _ in range(layers)))

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return self.layers(h)


class AttentionModelTSP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.W_placeholder = nn.Parameter(torch.empty(2 * DIM).uniform_(-1, 1))
        self.init_embed = nn.Linear(2, DIM)
        self.embedder = GraphAttentionEncoder()
        self.project_node_embeddings = nn.Linear(DIM, 3 * DIM, bias=False)
        self.project_fixed_context = nn.Linear(DIM, DIM, bias=False)
        self.project_step_context = nn.Linear(2 * DIM, DIM, bias=False)
        self.project_out = nn.Linear(DIM, DIM, bias=False)

    def decode(self, coords: torch.Tensor, sample: bool = False, generator: torch.Generator | None = None) -> torch.Tensor:
        """(B, N, 2) points in the unit square -> (B, N) tours: greedy, or sampled from the policy."""
        b, n, _ = coords.shape
        h = self.embedder(self.init_embed(coords))
        fixed = self.project_fixed_context(h.mean(1))[:, None, :]
        glimpse_key, glimpse_value, logit_key = self.project_node_embeddings(h).chunk(3, -1)
        heads = lambda t: t.reshape(b, n, HEADS, DIM // HEADS).transpose(1, 2)  # noqa: E731  (B, H, N, K)
        glimpse_key, glimpse_value = heads(glimpse_key), heads(glimpse_value)
        rows = torch.arange(b)
        visited = torch.zeros(b, n, dtype=torch.bool)
        tour = torch.zeros(b, n, dtype=torch.long)
        context = self.W_placeholder.expand(b, 2 * DIM)
        for step in range(n):
            query = fixed + self.project_step_context(context)[:, None, :]  # (B, 1, D)
            q = query.reshape(b, 1, HEADS, DIM // HEADS).transpose(1, 2)  # (B, H, 1, K)
            compat = (q @ glimpse_key.transpose(-2, -1)) / math.sqrt(DIM // HEADS)
            compat = compat.masked_fill(visited[:, None, None, :], float("-inf"))
            glimpse = (torch.softmax(compat, -1) @ glimpse_value).transpose(1, 2).reshape(b, 1, DIM)
            logits = (self.project_out(glimpse) @ logit_key.transpose(-2, -1)).squeeze(1) / math.sqrt(DIM)
            logits = (CLIP * torch.tanh(logits)).masked_fill(visited, float("-inf"))
            if sample:
                chosen = torch.multinomial(torch.softmax(logits, -1), 1, generator=generator).squeeze(1)
            else:
                chosen = logits.argmax(-1)
            tour[:, step] = chosen
            visited[rows, chosen] = True
            context = torch.cat([h[rows, tour[:, 0]], h[rows, chosen]], -1)
        return tour
