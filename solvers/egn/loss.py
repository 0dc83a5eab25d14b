"""The probabilistic penalty losses of Erdos Goes Neural: the expected cost of a random set that takes each vertex
independently with the network's probability, plus beta times the expected number of violated constraints, so
that a low loss certifies that the distribution holds a good feasible set (the paper's Theorem 1).

- maximum independent set: E[-|S|] + beta E[edges inside S] = -sum p_v + beta sum_{uv in E} p_u p_v.

Divided by the number of vertices, so that graphs of any size weigh alike. ``uniform_scale`` gives the factor
2 beta d (d the mean degree) that turns this into units of the uniform heatmap's loss: the uniform stationary point
p = 1 / (beta d) has loss -1 / (2 beta d) per vertex, so that graphs of any density weigh alike too.
"""

from __future__ import annotations

import torch

BETA = 1.5  # above 1: a vertex never pays for a violated edge (the paper's condition for the derandomisation)


def independent_set_loss(probability: torch.Tensor, edges: torch.Tensor, beta: float = BETA) -> torch.Tensor:
    """``edges`` (2, m): each undirected edge once."""
    expected_size = probability.sum()
    expected_violations = (probability[edges[0]] * probability[edges[1]]).sum()
    return (beta * expected_violations - expected_size) / probability.shape[0]


def uniform_scale(vertices: int, edges: int, beta: float = BETA) -> float:
    """2 beta x mean degree: the per-vertex loss times this is -1 at the graph's uniform stationary heatmap."""
    return 2.0 * beta * (2.0 * edges / max(vertices, 1))
