"""The RRNCO network (Son et al., "RRNCO: Towards Real-World Routing with Neural Combinatorial Optimization",
ICLR 2026), written here from the paper's description.

- ANE (adaptive node embedding): each node draws k neighbours with probability proportional to inverse
  distance; its sorted outgoing and incoming distances to them are embedded and mixed by a learned gate with
  the embedding of its (scaled) coordinates, separately for the row (origin) and column (destination) role,
  as MatNet keeps row and column embeddings of a matrix.
- NAB (neural adaptive bias): per pair (i, j), embeddings of the scaled distance, the angle and (time
  windows) the scaled duration, mixed by learned softmax gates into one scalar attention bias.
- Encoder: attention-free (AFT, Zhai et al. 2021) cross layers; rows attend over columns with the bias,
  columns over rows with its transpose; each followed by a feed-forward block, residuals and layer norms.
- Decoder: autoregressive; context = current node, first node, mean embedding and the state (remaining
  capacity, time); one masked multi-head glimpse over the columns, then compatibilities minus a learned
  multiple of the scaled distance (and duration) from the current node, tanh clipping, masking.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import cast

import torch
from torch import nn

from .data import RoutingBatch, angles, horizon, scaled_distance
from .env import RoutingEnv

NODE_FEATURES = {"tsp": 0, "cvrp": 2, "cvrptw": 5}
STATE_FEATURES = {"tsp": 0, "cvrp": 1, "cvrptw": 2}
# decoding checks whether every rollout has finished only every this many steps: each check is a device -> host
# sync; finished rollouts stay where they are at no cost, so the extra steps change nothing
DONE_CHECK_EVERY = 8


def inverse_softplus(value: float) -> float:
    return float(math.log(math.expm1(value)))


def one_hot(index: torch.Tensor, nodes: int) -> torch.Tensor:
    """(..., nodes) True at ``index``; unlike ``nn.functional.one_hot`` it never reads the index on the host."""
    return torch.arange(nodes, device=index.device) == index[..., None]


def gumbel_sample(logits: torch.Tensor, generator: torch.Generator | None) -> torch.Tensor:
    """A draw from softmax(logits) along the last axis by the Gumbel-max trick (``torch.multinomial`` checks its
    input on the host at every call on a CPU)."""
    uniform = torch.rand(logits.shape, generator=generator, device=logits.device, dtype=logits.dtype)
    noise = -torch.log(-torch.log(uniform.clamp(1e-12, 1.0 - 1e-7)))
    return (logits + noise).argmax(-1)


@dataclass(frozen=True)
class ModelConfig:
    kind: str
    dim: int = 128
    layers: int = 3
    heads: int = 8
    ffn: int = 512
    neighbours: int = 16
    bias_dim: int = 16
    clip: float = 10.0
    # the weight of -d(current, j) (and of the duration) on the logits at initialisation: with distances scaled
    # by the instance's largest one, near and median candidates differ by ~0.25, so a weight of ~0.7 (softplus(0))
    # lets the decoder ignore road distance; 5 makes distance matter from the first step
    prior_init: float = 5.0
    # the paper's choices (Son et al.), each available; the defaults are what the shipped checkpoints use
    norm: str = "layer"  # "layer" (LayerNorm per node) or "instance" (per feature over the nodes, the paper's)
    aft_bias: str = "exp"  # AFT pair weight e^(w_ij) ("exp") or e^(softmax_j(w_ij)) ("exp_softmax", the paper's)
    decoder_ffn: bool = False  # the glimpse followed by a residual feed-forward block (the paper's)

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


class AdaptiveNodeEmbedding(nn.Module):
    def __init__(self, dim: int, neighbours: int):
        super().__init__()
        self.k = neighbours
        self.coord_row, self.coord_col = nn.Linear(2, dim), nn.Linear(2, dim)
        self.out_dist, self.in_dist = nn.Linear(neighbours, dim), nn.Linear(neighbours, dim)
        self.gate_row, self.gate_col = nn.Linear(2 * dim, dim), nn.Linear(2 * dim, dim)

    def neighbours(self, distance: torch.Tensor, generator: torch.Generator | None) -> torch.Tensor:
        """(B, N, k') indices drawn without replacement, weight 1/d, never the node itself (k' = min(k, N-1))."""
        b, n, _ = distance.shape
        k = min(self.k, n - 1)
        if k <= 0:
            return distance.new_zeros(b, n, 0, dtype=torch.long)
        weight = 1.0 / (distance + 1e-6)
        weight = weight.masked_fill(torch.eye(n, dtype=torch.bool, device=distance.device), 0.0)
        drawn = torch.multinomial(weight.reshape(b * n, n), k, replacement=False, generator=generator)
        return drawn.reshape(b, n, k)

    def forward(self, coords: torch.Tensor, distance: torch.Tensor, generator: torch.Generator | None) -> tuple[torch.Tensor, ...]:
        chosen = self.neighbours(distance, generator)
        outgoing = torch.gather(distance, 2, chosen).sort(-1).values
        incoming = torch.gather(distance.transpose(1, 2), 2, chosen).sort(-1).values
        pad = self.k - chosen.shape[-1]
        if pad:
            outgoing, incoming = nn.functional.pad(outgoing, (0, pad)), nn.functional.pad(incoming, (0, pad))
        row_c, col_c = self.coord_row(coords), self.coord_col(coords)
        row_d, col_d = self.out_dist(outgoing), self.in_dist(incoming)
        g_row = torch.sigmoid(self.gate_row(torch.cat([row_c, row_d], -1)))
        g_col = torch.sigmoid(self.gate_col(torch.cat([col_c, col_d], -1)))
        return g_row * row_c + (1 - g_row) * row_d, g_col * col_c + (1 - g_col) * col_d


class NeuralAdaptiveBias(nn.Module):
    def __init__(self, features: int, dim: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features, dim) / math.sqrt(dim))
        self.offset = nn.Parameter(torch.zeros(features, dim))
        self.gate = nn.Linear(features, features)
        self.out = nn.Linear(dim, 1)

    def forward(self, pairs: torch.Tensor) -> torch.Tensor:
        """``pairs`` (B, N, N, F) -> (B, N, N) bias."""
        embedded = torch.relu(pairs[..., None] * self.weight + self.offset)  # (B, N, N, F, D)
        gates = torch.softmax(self.gate(pairs), -1)[..., None]
        return self.out((gates * embedded).sum(-2)).squeeze(-1)


class AFTCross(nn.Module):
    """Attention-free mixing of ``target`` from ``source``: sigmoid(Q) * sum_j e^(K_j + w_ij) V_j / sum_j e^(K_j + w_ij),
    with w_ij the bias, or its softmax over j (``softmax_bias``)."""

    def __init__(self, dim: int, softmax_bias: bool = False):
        super().__init__()
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))
        self.softmax_bias = softmax_bias

    def forward(self, target: torch.Tensor, source: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        key = self.k(source)
        key = torch.exp(key - key.amax(1, keepdim=True))
        weight = torch.exp(torch.softmax(bias, -1)) if self.softmax_bias else torch.exp(bias - bias.amax(-1, keepdim=True))
        mixed = torch.bmm(weight, key * self.v(source)) / torch.bmm(weight, key).clamp_min(1e-20)
        return self.o(torch.sigmoid(self.q(target)) * mixed)


class InstanceNorm(nn.Module):
    """Each feature normalised over the nodes of its instance, with a learned scale and shift."""

    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.InstanceNorm1d(dim, affine=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x.transpose(1, 2)).transpose(1, 2)


def norm_layer(kind: str, dim: int) -> nn.Module:
    if kind not in ("layer", "instance"):
        raise ValueError(f"norm must be 'layer' or 'instance', not {kind!r}")
    return nn.LayerNorm(dim) if kind == "layer" else InstanceNorm(dim)


class EncoderLayer(nn.Module):
    def __init__(self, dim: int, ffn: int, norm: str = "layer", softmax_bias: bool = False):
        super().__init__()
        self.row_mix, self.col_mix = AFTCross(dim, softmax_bias), AFTCross(dim, softmax_bias)
        self.row_ffn = nn.Sequential(nn.Linear(dim, ffn), nn.ReLU(), nn.Linear(ffn, dim))
        self.col_ffn = nn.Sequential(nn.Linear(dim, ffn), nn.ReLU(), nn.Linear(ffn, dim))
        self.norms = nn.ModuleList(norm_layer(norm, dim) for _ in range(4))
        self.bias_scale = nn.Parameter(torch.ones(1))

    def forward(self, row: torch.Tensor, col: torch.Tensor, bias: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        scaled = self.bias_scale * bias
        new_row = self.norms[0](row + self.row_mix(row, col, scaled))
        new_col = self.norms[1](col + self.col_mix(col, row, scaled.transpose(1, 2)))
        return self.norms[2](new_row + self.row_ffn(new_row)), self.norms[3](new_col + self.col_ffn(new_col))


@dataclass
class Encoded:
    row: torch.Tensor  # (B, N, D)
    col: torch.Tensor  # (B, N, D)
    glimpse_key: torch.Tensor  # (B, H, N, D/H)
    glimpse_value: torch.Tensor  # (B, H, N, D/H)
    logit_key: torch.Tensor  # (B, N, D)
    mean: torch.Tensor  # (B, D)
    distance: torch.Tensor  # (B, N, N) scaled
    duration: torch.Tensor | None  # (B, N, N) scaled by the horizon


class RRNCO(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        d, kind = config.dim, config.kind
        self.node_embedding = AdaptiveNodeEmbedding(d, config.neighbours)
        self.node_features = nn.Linear(NODE_FEATURES[kind], d) if NODE_FEATURES[kind] else None
        self.bias = NeuralAdaptiveBias(3 if kind == "cvrptw" else 2, config.bias_dim)
        if config.aft_bias not in ("exp", "exp_softmax"):
            raise ValueError(f"aft_bias must be 'exp' or 'exp_softmax', not {config.aft_bias!r}")
        softmax_bias = config.aft_bias == "exp_softmax"
        self.layers = nn.ModuleList(EncoderLayer(d, config.ffn, config.norm, softmax_bias) for _ in range(config.layers))
        self.glimpse_kv = nn.Linear(d, 2 * d, bias=False)
        self.logit_k = nn.Linear(d, d, bias=False)
        self.context = nn.Linear(3 * d + STATE_FEATURES[kind], d, bias=False)
        self.glimpse_out = nn.Linear(d, d, bias=False)
        self.decoder_ffn = nn.Sequential(nn.Linear(d, config.ffn), nn.ReLU(), nn.Linear(config.ffn, d)) if config.decoder_ffn else None
        self.prior = nn.Parameter(torch.full((2 if kind == "cvrptw" else 1,), inverse_softplus(config.prior_init)))

    def scalars(self) -> list[nn.Parameter]:
        """The learned scalars (distance prior, encoder bias scales): a few numbers whose useful values are far
        from where a shared learning rate would move them in a short run; training gives them their own rate."""
        return [self.prior, *(cast(nn.Parameter, layer.bias_scale) for layer in self.layers)]

    def _node_features(self, batch: RoutingBatch) -> torch.Tensor | None:
        if batch.kind == "tsp":
            return None
        assert batch.demand is not None and batch.capacity is not None
        depot = torch.zeros_like(batch.demand)
        depot[:, 0] = 1.0
        features = [depot, batch.demand / batch.capacity[:, None]]
        if batch.kind == "cvrptw":
            assert batch.windows is not None and batch.service is not None
            h = horizon(batch)[:, None]
            features += [batch.windows[..., 0] / h, batch.windows[..., 1] / h, batch.service / h]
        return torch.stack(features, -1)

    def encode(self, batch: RoutingBatch, generator: torch.Generator | None = None) -> Encoded:
        distance = scaled_distance(batch)
        duration = None
        pairs = [distance, angles(batch.coords)]
        if batch.kind == "cvrptw":
            assert batch.duration is not None
            duration = batch.duration / horizon(batch)[:, None, None]
            pairs.append(duration)
        row, col = self.node_embedding(batch.coords, distance, generator)
        features = self._node_features(batch)
        if features is not None and self.node_features is not None:
            extra = self.node_features(features)
            row, col = row + extra, col + extra
        bias = self.bias(torch.stack(pairs, -1))
        for layer in self.layers:
            row, col = layer(row, col, bias)
        b, n, d = col.shape
        h = self.config.heads
        key, value = self.glimpse_kv(col).chunk(2, -1)
        split = lambda t: t.reshape(b, n, h, d // h).transpose(1, 2)  # noqa: E731
        return Encoded(row, col, split(key), split(value), self.logit_k(col), row.mean(1), distance, duration)

    def logits(self, encoded: Encoded, env: RoutingEnv, mask: torch.Tensor) -> torch.Tensor:
        """(B, P, N) clipped, masked logits of the next node."""
        rows = env.rows
        current, first = encoded.row[rows, env.current], encoded.row[rows, env.first]
        mean = encoded.mean[:, None, :].expand_as(current)
        query = self.context(torch.cat([current, first, mean, env.state_features().to(current.dtype)], -1))
        b, p, d = query.shape
        h = self.config.heads
        q = query.reshape(b, p, h, d // h).transpose(1, 2)  # (B, H, P, D/H)
        glimpse = nn.functional.scaled_dot_product_attention(q, encoded.glimpse_key, encoded.glimpse_value, attn_mask=mask[:, None])
        glimpse = self.glimpse_out(glimpse.transpose(1, 2).reshape(b, p, d))
        if self.decoder_ffn is not None:
            glimpse = query + glimpse
            glimpse = glimpse + self.decoder_ffn(glimpse)
        score = torch.bmm(glimpse, encoded.logit_key.transpose(1, 2)) / math.sqrt(d)
        prior = nn.functional.softplus(self.prior)
        score = score - prior[0] * encoded.distance[rows, env.current]
        if encoded.duration is not None:
            score = score - prior[1] * encoded.duration[rows, env.current]
        score = self.config.clip * torch.tanh(score)
        return score.masked_fill(~mask, float("-inf"))


@dataclass
class Rollout:
    cost: torch.Tensor  # (B, P) in the batch's units; inf where a rollout got stuck
    actions: torch.Tensor  # (B, P, T)
    log_prob: torch.Tensor  # (B, P) summed over steps (only tracked when sampling with gradients)


def default_starts(kind: str, nodes: int, pomo: int) -> torch.Tensor:
    """POMO's first nodes: 0.. for tsp, customers 1.. for the vehicle kinds, at most ``pomo`` of them."""
    if kind == "tsp":
        return torch.arange(min(pomo, nodes))
    return torch.arange(1, 1 + min(pomo, nodes - 1))


def rollout(
    model: RRNCO,
    batch: RoutingBatch,
    starts: torch.Tensor,
    *,
    sample: bool = False,
    temperature: float = 1.0,
    encoded: Encoded | None = None,
    cost_batch: RoutingBatch | None = None,
    generator: torch.Generator | None = None,
) -> Rollout:
    """Decode every instance from every start, greedily or by sampling from the policy at ``temperature``.
    ``cost_batch`` (the same instances in float64) keeps the environment's arithmetic exact; the model reads
    ``batch``."""
    encoded = encoded if encoded is not None else model.encode(batch, generator)
    env = RoutingEnv(cost_batch if cost_batch is not None else batch, starts)
    log_prob = torch.zeros(env.cost.shape, device=env.cost.device, dtype=encoded.row.dtype)
    stuck = torch.zeros(env.cost.shape, dtype=torch.bool, device=env.cost.device)
    actions = []
    limit = 2 * batch.nodes + 2
    for step in range(limit):
        done = env.done()
        if step % DONE_CHECK_EVERY == 0 and bool(done.all()):
            break
        mask = env.mask()
        dead = ~mask.any(-1)  # no move allowed: the rollout is stuck; it stays where it is and costs inf
        stuck |= dead
        mask = mask | (dead[..., None] & one_hot(env.current, mask.shape[-1]))
        logits = model.logits(encoded, env, mask)
        if sample:
            action = gumbel_sample(logits / temperature, generator)
            if torch.is_grad_enabled():
                picked = torch.log_softmax(logits / temperature, -1).gather(-1, action[..., None]).squeeze(-1)
                log_prob = log_prob + torch.where(done, torch.zeros_like(picked), picked)
        else:
            action = logits.argmax(-1)
        env.step(action)
        actions.append(action)
    stuck |= ~env.done()
    cost = env.cost.masked_fill(stuck, float("inf"))
    stacked = torch.stack(actions, -1) if actions else env.current.new_zeros(*env.current.shape, 0)
    return Rollout(cost, stacked, log_prob)


def imitation_loss(model: RRNCO, batch: RoutingBatch, first: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
    """Teacher forcing: the mean negative log-likelihood per decision of teacher sequences under the model.
    ``first`` (B, P) is each sequence's first node (as POMO's starts), ``actions`` (B, P, T) the moves after it,
    padded with moves that stay where the sequence ended; the environment follows the teacher."""
    encoded = model.encode(batch)
    env = RoutingEnv(batch, first)
    total = torch.zeros((), device=actions.device)
    decisions = torch.zeros((), device=actions.device)
    for t in range(actions.shape[-1]):
        live = ~env.done()
        target = actions[..., t]
        # a teacher move is never masked out (float32 rounding at a time window's end must not make it -inf)
        mask = env.mask() | one_hot(target, batch.nodes)
        picked = torch.log_softmax(model.logits(encoded, env, mask), -1).gather(-1, target[..., None]).squeeze(-1)
        total = total + torch.where(live, picked, torch.zeros_like(picked)).sum()
        decisions = decisions + live.sum()
        env.step(target)
    return -total / decisions.clamp_min(1)
