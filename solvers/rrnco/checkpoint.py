"""RRNCO checkpoints: the shipped ones (weights + config, a JSON card beside each holding its sha256 and how it
was trained) and which one serves an instance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from frontierco.checkpoints import MissingCheckpoint, load_checkpoint, save_checkpoint

from .model import RRNCO, ModelConfig

SHIPPED = Path(__file__).resolve().parent / "checkpoints"


def export(model: RRNCO, path: Path, card: dict[str, Any]) -> dict[str, Any]:
    return save_checkpoint(path, model.config.as_dict(), model.state_dict(), card)


def load(path: Path, device: str = "cpu") -> RRNCO:
    config, weights = load_checkpoint(path, device)
    model = RRNCO(ModelConfig(**config))
    model.load_state_dict(weights)
    return model.eval()


def checkpoint_name(problem: str, asymmetric: bool) -> str:
    """The shipped checkpoint that serves an instance: atsp serves every tsp (trained on road and Euclidean
    matrices), cvrp the symmetric CVRP, acvrp the asymmetric one, acvrptw every cvrptw."""
    if problem == "tsp":
        return "atsp"
    if problem == "cvrp":
        return "acvrp" if asymmetric else "cvrp"
    if problem == "cvrptw":
        return "acvrptw"
    raise MissingCheckpoint(f"rrnco has no checkpoint for {problem}")
