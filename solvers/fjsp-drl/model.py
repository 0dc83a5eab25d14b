"""The heterogeneous graph network and PPO actor of Song, Chen, Li & Cao, "Flexible Job-Shop Scheduling via
Graph Neural Network and Deep Reinforcement Learning" (IEEE TII 19(2), 2023), written from the paper.

Two rounds of message passing over operation nodes and machine nodes: a machine first attends over the
operations it may process (each message is the operation's projection plus the projection of the edge's
processing time) and over itself; an operation then combines four MLP messages (the sum of its eligible
machines' embeddings, its successor and predecessor in the job, itself) through a fifth MLP. The actor scores
each (job, machine) pair from the job's next operation, the machine, and the mean of all operation and all
machine embeddings. Module and parameter names follow the authors' released state dicts (``get_machines``,
``get_operations``, ``actor``, ``critic``) so that they load with ``strict=True``.

Shapes: a batch of B states of one instance with O operations, M machines, J jobs.
"""

from __future__ import annotations

from functools import cached_property
from typing import cast

import torch
from torch import nn
from torch.nn import functional as F

OPERATION_FEATURES = 6  # scheduled, eligible machines, processing time, operations left in the job, job end, start
MACHINE_FEATURES = 3  # eligible operations, available time, utilisation
EMBEDDING = 8  # both node embeddings (out_size_ma, out_size_ope of the authors' config.json)
HIDDEN = 128  # the operation MLPs' hidden width (hidden_size_ope)
ACTOR_HIDDEN = 64  # n_latent_actor / n_latent_critic
LAYERS = 2  # rounds of message passing (len(num_heads))


class MachineAttention(nn.Module):
    """Machine embedding: attention of each machine over its eligible operations (with their edges) and itself.

    The edge's score uses the operation's attention vector ``attn_l``, as the released networks were trained
    (their ``attn_e`` is held but unused); the machine's own score is LeakyReLU(2 a_r . W nu)."""

    def __init__(self, operation_size: int, machine_size: int) -> None:
        super().__init__()
        self.attn_l = nn.Parameter(torch.zeros(1, 1, EMBEDDING))
        self.attn_r = nn.Parameter(torch.zeros(1, 1, EMBEDDING))
        self.attn_e = nn.Parameter(torch.zeros(1, 1, EMBEDDING))
        self.fc_src = nn.Linear(operation_size, EMBEDDING, bias=False)
        self.fc_dst = nn.Linear(machine_size, EMBEDDING, bias=False)
        self.fc_edge = nn.Linear(1, EMBEDDING, bias=False)

    def forward(self, operations: torch.Tensor, machines: torch.Tensor, edges: torch.Tensor, adjacent: torch.Tensor) -> torch.Tensor:
        """operations [B, O, d_o], machines [B, M, d_m], edges [B, O, M] (normalised times), adjacent [B, O, M]
        (bool) -> machine embeddings [B, M, 8]."""
        source = self.fc_src(operations)  # [B, O, 8]
        target = self.fc_dst(machines)  # [B, M, 8]
        edge = self.fc_edge(edges.unsqueeze(-1))  # [B, O, M, 8]
        attend_l, attend_r = self.attn_l.view(-1), self.attn_r.view(-1)
        score_source = source @ attend_l  # [B, O]
        score_target = target @ attend_r  # [B, M]
        score_edge = edge @ attend_l  # [B, O, M]
        scores = F.leaky_relu(score_source.unsqueeze(-1) + score_edge + score_target.unsqueeze(-2), 0.2)
        scores = scores.masked_fill(~adjacent, float("-inf"))
        own = F.leaky_relu(2 * score_target, 0.2).unsqueeze(-2)  # [B, 1, M]
        alpha = torch.softmax(torch.cat((scores, own), dim=-2), dim=-2)  # over the operations and the machine itself
        messages = edge + source.unsqueeze(-2)  # [B, O, M, 8]
        received = (messages * alpha[:, :-1, :, None]).sum(dim=-3)  # [B, M, 8]
        return torch.sigmoid(received + target * alpha[:, -1, :, None])


class Messages(nn.Module):
    """One of the four operation MLPs: three linear layers with ELU between (``project``); ``OperationUpdate``
    applies the four together."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.project = nn.Sequential(nn.Linear(size, HIDDEN), nn.ELU(), nn.Linear(HIDDEN, HIDDEN), nn.ELU(), nn.Linear(HIDDEN, EMBEDDING))


class OperationUpdate(nn.Module):
    """Operation embedding: MLPs over the sum of the eligible machines' embeddings, the successor's and the
    predecessor's embedding in the job (zero where there is none) and the operation's own, joined by a fifth MLP."""

    def __init__(self, operation_size: int) -> None:
        super().__init__()
        sizes = (EMBEDDING, operation_size, operation_size, operation_size)
        self.gnn_layers = nn.ModuleList(Messages(size) for size in sizes)
        self.project = nn.Sequential(
            nn.ELU(), nn.Linear(4 * EMBEDDING, HIDDEN), nn.ELU(), nn.Linear(HIDDEN, HIDDEN), nn.ELU(), nn.Linear(HIDDEN, EMBEDDING)
        )

    def forward(
        self, operations: torch.Tensor, machines: torch.Tensor, adjacent: torch.Tensor, successor: torch.Tensor, predecessor: torch.Tensor
    ) -> torch.Tensor:
        """successor / predecessor [O]: the neighbouring operation in the job, or O (a zero row) where none."""
        padded = F.pad(operations, (0, 0, 0, 1))  # row O is zero
        inputs = (adjacent.to(machines.dtype) @ machines, padded[:, successor], padded[:, predecessor], operations)
        width = max(x.shape[-1] for x in inputs)
        stacked = torch.stack([F.pad(x, (0, width - x.shape[-1])) for x in inputs])  # [4, B, O, width]
        for depth, (weights, biases) in enumerate(self.stacked):  # the four MLPs at once (the same sums as each alone)
            stacked = torch.baddbmm(biases[:, None, :], stacked.flatten(1, 2), weights).view(4, *stacked.shape[1:3], -1)
            if depth < 2:
                stacked = F.elu(stacked)
        return self.project(stacked.permute(1, 2, 0, 3).flatten(2))  # each operation's four messages side by side

    @cached_property
    def stacked(self) -> list[tuple[torch.Tensor, torch.Tensor]]:
        """The four MLPs' weights ([4, in, out], inputs zero-padded to the widest) and biases ([4, out]), layer
        by layer; read once the weights are loaded."""
        layers = []
        for position in (0, 2, 4):
            linears = [cast(nn.Linear, cast(nn.Sequential, layer.project)[position]) for layer in self.gnn_layers]
            width = max(linear.weight.shape[1] for linear in linears)
            weights = torch.stack([F.pad(linear.weight.detach().t(), (0, 0, 0, width - linear.weight.shape[1])) for linear in linears])
            layers.append((weights, torch.stack([linear.bias.detach() for linear in linears])))
        return layers


class Head(nn.Module):
    """The actor's and the critic's MLP: three linear layers with tanh between (``linears``)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.linears = nn.ModuleList((nn.Linear(size, ACTOR_HIDDEN), nn.Linear(ACTOR_HIDDEN, ACTOR_HIDDEN), nn.Linear(ACTOR_HIDDEN, 1)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.linears[:-1]:
            x = torch.tanh(layer(x))
        return self.linears[-1](x)


class SchedulingPolicy(nn.Module):
    """The network of the released state dicts; ``scores`` gives the actor's logits of every (machine, job) pair.
    The critic is kept so that the published files load strictly; decoding never uses it."""

    def __init__(self) -> None:
        super().__init__()
        self.get_machines = nn.ModuleList(
            MachineAttention(OPERATION_FEATURES if i == 0 else EMBEDDING, MACHINE_FEATURES if i == 0 else EMBEDDING) for i in range(LAYERS)
        )
        self.get_operations = nn.ModuleList(OperationUpdate(OPERATION_FEATURES if i == 0 else EMBEDDING) for i in range(LAYERS))
        self.actor = Head(4 * EMBEDDING)
        self.critic = Head(2 * EMBEDDING)

    def scores(
        self,
        operations: torch.Tensor,
        machines: torch.Tensor,
        edges: torch.Tensor,
        adjacent: torch.Tensor,
        successor: torch.Tensor,
        predecessor: torch.Tensor,
        next_operation: torch.Tensor,
    ) -> torch.Tensor:
        """Normalised features (operations [B, O, 6], machines [B, M, 3], edges [B, O, M]), the current
        operation-machine adjacency [B, O, M] and each job's next operation [B, J] -> logits [B, M * J],
        machine-major (pair (m, j) at m * J + j) as the authors' action index."""
        for attend, update in zip(self.get_machines, self.get_operations, strict=True):
            machines_out = attend(operations, machines, edges, adjacent)
            operations = update(operations, machines_out, adjacent, successor, predecessor)
            machines = machines_out
        jobs = operations.gather(1, next_operation.unsqueeze(-1).expand(-1, -1, EMBEDDING))  # [B, J, 8]
        count_m, count_j = machines.shape[1], jobs.shape[1]
        pooled = torch.cat((operations.mean(dim=1), machines.mean(dim=1)), dim=-1)  # [B, 16]
        pairs = torch.cat(
            (
                jobs.unsqueeze(1).expand(-1, count_m, -1, -1),
                machines.unsqueeze(2).expand(-1, -1, count_j, -1),
                pooled[:, None, None, :].expand(-1, count_m, count_j, -1),
            ),
            dim=-1,
        )  # [B, M, J, 32]
        return self.actor(pairs).flatten(1)
