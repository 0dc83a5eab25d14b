"""The probabilistic penalty losses of Erdos Goes Neural: the expected cost of a random set that takes each vertex
independently with the network's probability, plus beta times the expected number of violated constraints, so
that a low loss certifies that the distribution holds a good feasible set (the paper's Theorem 1).

- maximum independent set: E[-|S|] + beta E[edges inside S] = -sum p_v + beta sum_{uv in E} p_u p_v.

Divided by the number of vertices, so that graphs of any size weigh alike. ``uniform_scale`` gives the factor
2 beta d (d the mean degree) that turns this into units of the uniform heatmap's loss: the uniform stationary point
p = 1 / (beta d) has loss -1 / (2 beta d) per vertex, so that graphs of any density weigh alike too.

``mean_entropy`` is the term of annealed training (Sun, Guha and Dai, *Annealed Training for Combinatorial
Optimization on Graphs*, 2022): minimising loss - T x mean entropy (a free energy) at a temperature T lowered to 0
keeps the heatmap soft early, where each vertex's probability follows the mean-field rule sigmoid((1 - beta x its
neighbours' probability) / T), instead of committing at once to an arbitrary maximal independent set (every one
is a local minimum of the loss at T = 0).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

BETA = 1.5  # above 1: a vertex never pays for a violated edge (the paper's condition for the derandomisation)


def independent_set_loss(probability: torch.Tensor, edges: torch.Tensor, beta: float = BETA) -> torch.Tensor:
    """``edges`` (2, m): each undirected edge once."""
    expected_size = probability.sum()
    expected_violations = (probability[edges[0]] * probability[edges[1]]).sum()
    return (beta * expected_violations - expected_size) / probability.shape[0]


def uniform_scale(vertices: int, edges: int, beta: float = BETA) -> float:
    """2 beta x mean degree: the per-vertex loss times this is -1 at the graph's uniform stationary heatmap."""
    return 2.0 * beta * (2.0 * edges / max(vertices, 1))


def mean_entropy(logits: torch.Tensor) -> torch.Tensor:
    """The mean Bernoulli entropy (nats) of sigmoid(``logits``), computed from the logits (stable at any size)."""
    p = torch.sigmoid(logits)
    return -(p * F.logsigmoid(logits) + (1 - p) * F.logsigmoid(-logits)).mean()
