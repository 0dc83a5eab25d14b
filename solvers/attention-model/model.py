"""The Attention Model of Kool, van Hoof and Welling (*Attention, Learn to Solve Routing Problems!*, ICLR 2019)
for TSP and CVRP, written here from the paper; module and parameter names follow the authors' released state dicts so
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
ATTENTION_BLOCK = 1 << 25  # compatibilities the encoder holds at once (128 MB; n x n x 8 heads: 11 GB at 18,512 nodes)


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
        """(B, N, D) -> (B, N, D): self-attention, each head's output projected and summed; the queries in blocks
        of rows so that at most ``ATTENTION_BLOCK`` compatibilities exist at once (one block up to 2,048 nodes)."""
        q, k, v = (torch.einsum("bnd,hdk->hbnk", h, w) for w in (self.W_query, self.W_key, self.W_val))
        heads, b, n, _ = q.shape
        rows = max(1, ATTENTION_BLOCK // (heads * b * n))
        keys, scale = k.transpose(-2, -1), math.sqrt(q.shape[-1])
        attended = torch.cat([torch.softmax(q[:, :, i : i + rows] @ keys / scale, -1) @ v for i in range(0, n, rows)], 2)
        return torch.einsum("hbnk,hkd->bnd", attended, self.W_out)


class SkipConnection(nn.Module):
    def __init__(self, module: nn.Module):
        super().__init__()
        self.module = module

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.module(x)


class FrozenBatchNorm(nn.Module):
    """Batch normalisation with fixed statistics (the published running mean and variance): inference only."""

    running_mean: torch.Tensor  # buffers (registered below, saved in the state dict)
    running_var: torch.Tensor

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


class AttentionModel(nn.Module):
    """The encoder and the decoder's projections shared by the TSP and CVRP networks."""

    def __init__(self, step_context: int) -> None:
        super().__init__()
        self.embedder = GraphAttentionEncoder()
        self.project_node_embeddings = nn.Linear(DIM, 3 * DIM, bias=False)
        self.project_fixed_context = nn.Linear(DIM, DIM, bias=False)
        self.project_step_context = nn.Linear(step_context, DIM, bias=False)
        self.project_out = nn.Linear(DIM, DIM, bias=False)

    def prepare(self, h: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Encoded nodes -> (fixed context, glimpse keys (B, H, K, N) and values (B, H, N, K) per head, logit keys
        (B, D, N)), the keys laid out once as every decoding step multiplies them."""
        b, n, _ = h.shape
        fixed = self.project_fixed_context(h.mean(1))[:, None, :]
        glimpse_key, glimpse_value, logit_key = self.project_node_embeddings(h).chunk(3, -1)
        heads = lambda t: t.reshape(b, n, HEADS, DIM // HEADS).transpose(1, 2)  # noqa: E731  (B, H, N, K)
        keys = heads(glimpse_key).transpose(-2, -1).contiguous()
        return fixed, keys, heads(glimpse_value).contiguous(), logit_key.transpose(-2, -1).contiguous()

    def logits(self, prepared: tuple[torch.Tensor, ...], context: torch.Tensor, masked: torch.Tensor) -> torch.Tensor:
        """(B, N) clipped logits of the next node; ``masked`` (B, N) True where a node is not allowed."""
        fixed, glimpse_key, glimpse_value, logit_key = prepared
        b = context.shape[0]
        query = fixed + self.project_step_context(context)[:, None, :]  # (B, 1, D)
        q = query.reshape(b, 1, HEADS, DIM // HEADS).transpose(1, 2)  # (B, H, 1, K)
        compat = shared_matmul(q, glimpse_key) / math.sqrt(DIM // HEADS)
        compat = compat.masked_fill(masked[:, None, None, :], float("-inf"))
        glimpse = shared_matmul(torch.softmax(compat, -1), glimpse_value).transpose(1, 2).reshape(b, 1, DIM)
        logits = shared_matmul(self.project_out(glimpse), logit_key).squeeze(1) / math.sqrt(DIM)
        return (CLIP * torch.tanh(logits)).masked_fill(masked, float("-inf"))


def shared_matmul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x @ y, batched over the first axis, where ``y`` may hold one instance's matrices for every row of ``x``
    (first axis 1): torch.matmul would copy them once per row (at 18,000 nodes, 128 rollouts: 1.5 GB a step)."""
    if y.shape[0] == 1 and x.shape[0] > 1:
        return torch.einsum("b...ik,...kj->b...ij", x, y[0])
    return x @ y


def choose(logits: torch.Tensor, sample: bool, generator: torch.Generator | None) -> torch.Tensor:
    if sample:
        return torch.multinomial(torch.softmax(logits, -1), 1, generator=generator).squeeze(1)
    return logits.argmax(-1)


class AttentionModelTSP(AttentionModel):
    def __init__(self) -> None:
        super().__init__(2 * DIM)
        self.W_placeholder = nn.Parameter(torch.empty(2 * DIM).uniform_(-1, 1))
        self.init_embed = nn.Linear(2, DIM)

    def encode(self, coords: torch.Tensor) -> torch.Tensor:
        """(B, N, 2) points in the unit square -> (B, N, D) node embeddings."""
        return self.embedder(self.init_embed(coords))

    def decode(self, coords: torch.Tensor, sample: bool = False, generator: torch.Generator | None = None) -> torch.Tensor:
        """(B, N, 2) points in the unit square -> (B, N) tours: greedy, or sampled from the policy."""
        return self.rollout(self.encode(coords), len(coords), sample, generator)

    def rollout(self, h: torch.Tensor, count: int, sample: bool = False, generator: torch.Generator | None = None) -> torch.Tensor:
        """``count`` tours (count, N) from node embeddings ``h`` (count or 1, N, D; one instance's embeddings are
        shared by all its rollouts, so the encoder runs once per instance). The context is the first and the
        current node (a learned placeholder at the first step)."""
        n = h.shape[1]
        prepared = self.prepare(h)
        nodes = h.expand(count, -1, -1)
        device = h.device
        rows = torch.arange(count, device=device)
        visited = torch.zeros(count, n, dtype=torch.bool, device=device)
        tour = torch.zeros(count, n, dtype=torch.long, device=device)
        context = self.W_placeholder.expand(count, 2 * DIM)
        for step in range(n):
            chosen = choose(self.logits(prepared, context, visited), sample, generator)
            tour[:, step] = chosen
            visited[rows, chosen] = True
            context = torch.cat([nodes[rows, tour[:, 0]], nodes[rows, chosen]], -1)
        return tour


class AttentionModelCVRP(AttentionModel):
    def __init__(self) -> None:
        super().__init__(DIM + 1)
        self.init_embed_depot = nn.Linear(2, DIM)
        self.init_embed = nn.Linear(3, DIM)

    def encode(self, coords: torch.Tensor, demand: torch.Tensor) -> torch.Tensor:
        """(B, N, 2) points (node 0 the depot) and (B, N) demands as fractions of the capacity -> (B, N, D)."""
        customers = self.init_embed(torch.cat([coords[:, 1:], demand[:, 1:, None]], -1))
        return self.embedder(torch.cat([self.init_embed_depot(coords[:, :1]), customers], 1))

    def decode(
        self, coords: torch.Tensor, demand: torch.Tensor, sample: bool = False, generator: torch.Generator | None = None
    ) -> torch.Tensor:
        """(B, N, 2) points and (B, N) demands -> (B, T) visits (0 = back at the depot)."""
        return self.rollout(self.encode(coords, demand), demand, sample, generator)

    def rollout(
        self, h: torch.Tensor, demand: torch.Tensor, sample: bool = False, generator: torch.Generator | None = None
    ) -> torch.Tensor:
        """One rollout per row of ``demand`` (B, N) from node embeddings ``h`` (B or 1, N, D): (B, T) visits
        (0 = back at the depot; finished rollouts stay there). The context is the current node and the
        remaining capacity; a customer is allowed when unvisited and fitting, the depot unless the vehicle is
        there while some customer is still allowed."""
        b, n = demand.shape
        prepared = self.prepare(h)
        nodes = h.expand(b, -1, -1)
        device = h.device
        rows = torch.arange(b, device=device)
        visited = torch.zeros(b, n, dtype=torch.bool, device=device)
        visited[:, 0] = True
        current = torch.zeros(b, dtype=torch.long, device=device)
        used = torch.zeros(b, device=device)
        visits = []
        for _ in range(2 * n):
            if bool(visited.all()) and bool((current == 0).all()):
                break
            masked = visited | (demand > (1.0 - used)[:, None] + 1e-9)
            stuck_at_depot = (current == 0) & ~masked[:, 1:].all(-1)
            masked[:, 0] = stuck_at_depot
            context = torch.cat([nodes[rows, current], (1.0 - used)[:, None]], -1)
            chosen = choose(self.logits(prepared, context, masked), sample, generator)
            used = torch.where(chosen == 0, torch.zeros_like(used), used + demand[rows, chosen])
            visited[rows, chosen] = True
            visited[:, 0] = True
            current = chosen
            visits.append(chosen)
        return torch.stack(visits, 1)
