"""CTC checkpoints, one per MILP family, and the choice of the one that fits an instance: the family whose
training formulations' type signature (shares of row and column types) is nearest in L1 distance, if
within ``MATCH_DISTANCE``; otherwise no model applies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from frontierco.kit.checkpoints import load_checkpoint, read_card, save_checkpoint

from .model import CTCNet, ModelConfig

SHIPPED = Path(__file__).resolve().parent / "checkpoints"
MATCH_DISTANCE = 0.25


def shown(folder: Path) -> str:
    """How a card names a folder of runs: relative to the working directory when inside it (no machine's
    absolute path in a shipped card)."""
    resolved = folder.resolve()
    return str(resolved.relative_to(Path.cwd())) if resolved.is_relative_to(Path.cwd()) else str(folder)


def export(net: CTCNet, path: Path, card: dict[str, Any]) -> dict[str, Any]:
    return save_checkpoint(path, net.config.as_dict(), net.state_dict(), card)


def load(path: Path) -> tuple[CTCNet, dict[str, Any]]:
    config, weights = load_checkpoint(path)
    net = CTCNet(ModelConfig(**config))
    net.load_state_dict(weights)
    return net.eval(), read_card(path)


def nearest(models: dict[str, tuple[CTCNet, dict[str, Any]]], instance_signature: np.ndarray) -> tuple[CTCNet, dict[str, Any]] | None:
    best, distance = None, MATCH_DISTANCE
    for net, card in models.values():
        gap = float(np.abs(np.asarray(card["signature"]) - instance_signature).sum())
        if gap <= distance:
            best, distance = (net, card), gap
    return best
