"""RRNCO checkpoints: the shipped ones (model weights + config, with a JSON card holding their sha256) and the
training state that ``--resume`` continues from."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import torch

from frontierco.errors import FrontiercoError

from .model import RRNCO, ModelConfig

SHIPPED = Path(__file__).resolve().parent / "checkpoints"


class MissingCheckpoint(FrontiercoError):
    """No shipped checkpoint for the asked problem."""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def export(model: RRNCO, path: Path, card: dict[str, Any]) -> dict[str, Any]:
    """Write the weights (float32) and config to ``path`` and the card (sha256 included) beside it as .json."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"config": model.config.as_dict(), "model": model.state_dict()}, path)
    card = {**card, "file": path.name, "sha256": sha256(path), "config": model.config.as_dict()}
    path.with_suffix(".json").write_text(json.dumps(card, indent=2) + "\n")
    return card


def load(path: Path, device: str = "cpu") -> RRNCO:
    """A model from a checkpoint whose sha256 matches its card."""
    card_path = path.with_suffix(".json")
    if not path.is_file() or not card_path.is_file():
        raise MissingCheckpoint(f"no RRNCO checkpoint {path} (with its card {card_path.name}); train one with `frontierco train rrnco`")
    card = json.loads(card_path.read_text())
    if sha256(path) != card["sha256"]:
        raise FrontiercoError(f"checkpoint {path} does not match the sha256 in {card_path.name}")
    saved = torch.load(path, map_location=device, weights_only=True)
    model = RRNCO(ModelConfig(**saved["config"]))
    model.load_state_dict(saved["model"])
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
