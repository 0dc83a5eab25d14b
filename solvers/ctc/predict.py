"""The network's predictions for one instance: variable marginals and CTC probabilities, laid out as in
training (``features.build_graph`` on the instance's analysed rows and its LP relaxation)."""

from __future__ import annotations

import numpy as np
import torch

from frontierco.problems import MILPInstance

from .constraints import Rows
from .features import build_graph, lp_relaxation
from .model import CTCNet


def predict(net: CTCNet, instance: MILPInstance, rows: Rows, lp_time: float, device: str = "cpu") -> tuple[np.ndarray, np.ndarray]:
    """(marginal per column, CTC probability per row) of ``net`` for the instance."""
    graph = build_graph(instance, rows, lp_relaxation(instance, lp_time))
    with torch.no_grad():
        variable_logits, constraint_logits = net.to(device)(graph.to(device))
    return torch.sigmoid(variable_logits).cpu().numpy(), torch.sigmoid(constraint_logits[:-1]).cpu().numpy()
