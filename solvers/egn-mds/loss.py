"""The probabilistic penalty loss of Erdos Goes Neural (Karalias and Loukas, NeurIPS 2020) for minimum dominating
set: the random set that takes each vertex v independently with probability p_v has expected size sum_v p_v, and
vertex v is left undominated with probability prod_{u in N[v]} (1 - p_u) (N[v]: v and its neighbours), so

    loss = sum_v p_v + beta * sum_v prod_{u in N[v]} (1 - p_u),

the expected cost plus beta times the expected number of violated constraints, EGN's recipe for a constrained
problem. It is DiffUCO's MDS energy (Sanokowski, Hochreiter and Lehner, ICML 2024, "A Diffusion Model Framework
for Unsupervised Neural Combinatorial Optimization"; their penalty weight B = 1.2, taken here) evaluated at the
network's probabilities. beta > 1: adding a vertex costs 1 and dominates at least the vertex it leaves
uncovered, so no feasible repair is penalised away. The products run in log space (log(1 - p) = logsigmoid(-logit)).
Divided by the number of vertices, so that graphs of any size weigh alike.
"""

from __future__ import annotations

import torch
from torch.nn import functional as F

BETA = 1.2  # DiffUCO's MDS penalty weight


def dominating_set_loss(logits: torch.Tensor, edges: torch.Tensor, beta: float = BETA) -> torch.Tensor:
    """``logits`` one per vertex; ``edges`` (2, 2m): every edge in both directions."""
    log_out = F.logsigmoid(-logits)  # log(1 - p_v)
    log_undominated = log_out.clone().index_add_(0, edges[1], log_out[edges[0]])
    expected_size = torch.sigmoid(logits).sum()
    expected_undominated = torch.exp(log_undominated).sum()
    return (expected_size + beta * expected_undominated) / logits.shape[0]
