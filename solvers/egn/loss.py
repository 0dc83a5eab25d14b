"""The probabilistic penalty losses of Erdos Goes Neural: the expected cost of a random set that takes each vertex
independently with the network's probability, plus beta times the expected number of violated constraints, so
that a low loss certifies that the distribution holds a good feasible set (the paper's Theorem 1).

- maximum independent set: E[-|S|] + beta E[edges inside S] = -sum p_v + beta sum_{uv in E} p_u p_v.

Divided by the number of vertices, so that graphs of any size weigh alike.
"""

from __future__ import annotations

import torch

BETA = 1.5  # above 1: a vertex never pays for a violated edge (the paper's condition for the derandomisation)


def independent_set_loss(probability: torch.Tensor, edges: torch.Tensor, beta: float = BETA) -> torch.Tensor:
    """``edges`` (2, m): each undirected edge once."""
    expected_size = probability.sum()
    expected_violations = (probability[edges[0]] * probability[edges[1]]).sum()
    return (beta * expected_violations - expected_size) / probability.shape[0]
