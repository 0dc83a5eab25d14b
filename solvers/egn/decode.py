"""From vertex scores to independent sets: the greedy decoding of the heatmap family (DIMES, DIFUSCO: vertices by
decreasing score, each taken while none of its neighbours is)."""

from __future__ import annotations

import numpy as np

from frontierco.kit.solverkit import greedy_independent_set
from frontierco.problems import MISInstance


def decode(instance: MISInstance, scores: np.ndarray) -> np.ndarray:
    """The greedy independent set by decreasing score (ties by vertex number)."""
    return greedy_independent_set(instance, np.argsort(-scores, kind="stable"))


def degree_scores(instance: MISInstance) -> np.ndarray:
    """The scores of the minimum-degree greedy: lower degree first."""
    return -instance.adjacency.degrees.astype(np.float64)
