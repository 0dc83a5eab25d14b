"""From vertex scores to independent sets.

- ``decode``: the greedy decoding of the heatmap family (DIMES, DIFUSCO: vertices by decreasing score, each taken
  while none of its neighbours is).
- ``expectation_decode``: Erdos Goes Neural's derandomisation, the method of conditional expectation (Karalias
  and Loukas, NeurIPS 2020, section 3.3): vertices by decreasing probability, each fixed to in or out, whichever
  gives the lower expected loss -sum p + beta sum_E p_u p_v given the vertices fixed so far (the others still
  random with their probabilities); then, as the paper's rounding may leave free vertices, the free ones taken
  greedily in the same order.
"""

from __future__ import annotations

import numpy as np

from frontierco.kit.solverkit import greedy_independent_set
from frontierco.problems import MISInstance

from .loss import BETA


def decode(instance: MISInstance, scores: np.ndarray) -> np.ndarray:
    """The greedy independent set by decreasing score (ties by vertex number)."""
    return greedy_independent_set(instance, np.argsort(-scores, kind="stable"))


def expectation_decode(instance: MISInstance, probability: np.ndarray, beta: float = BETA) -> np.ndarray:
    """The conditional-expectation rounding of ``probability`` for the loss with penalty ``beta`` (> 1, so that a
    vertex with a neighbour in the set always stays out), completed greedily to a maximal set; sorted."""
    adjacency = instance.adjacency
    order = np.argsort(-probability, kind="stable")
    fixed = probability.astype(np.float64).copy()
    for v in order:
        # expected loss with v in minus with v out: -1 + beta x the neighbours' (fixed or random) probabilities
        fixed[v] = 1.0 if beta * fixed[adjacency.neighbours(v)].sum() < 1.0 else 0.0
    blocked = np.zeros(instance.n, dtype=bool)
    chosen = np.flatnonzero(fixed == 1.0)
    for v in chosen:
        blocked[adjacency.neighbours(int(v))] = True
    blocked[chosen] = True
    rest = greedy_independent_set(instance, order[~blocked[order]])
    return np.sort(np.concatenate([chosen, rest]))


def degree_scores(instance: MISInstance) -> np.ndarray:
    """The scores of the minimum-degree greedy: lower degree first."""
    return -instance.adjacency.degrees.astype(np.float64)
