"""RRNCO checkpoints: the shipped ones (weights + config, a JSON card beside each holding its sha256 and how it
was trained) and which one serves an instance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from frontierco.errors import FrontiercoError
from frontierco.kit.checkpoints import MissingCheckpoint, load_checkpoint, read_card, save_checkpoint

from .data import TRAINING_ORDER
from .model import RRNCO, ModelConfig

SHIPPED = Path(__file__).resolve().parent / "checkpoints"


def export(model: RRNCO, path: Path, card: dict[str, Any]) -> dict[str, Any]:
    return save_checkpoint(path, model.config.as_dict(), model.state_dict(), card)


def load(path: Path, device: str = "cpu") -> RRNCO:
    """The checkpoint's network; one trained on another coordinate layout than ``data.model_coords`` is refused."""
    order = read_card(path).get("input", {}).get("coordinates")
    if order != TRAINING_ORDER:
        raise FrontiercoError(
            f"{path.with_suffix('.json')} records coordinate order {order!r} (input.coordinates); this code feeds {TRAINING_ORDER!r}"
        )
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
