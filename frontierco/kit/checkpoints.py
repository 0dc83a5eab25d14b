"""Checkpoints of learned solvers: weights plus model config in a ``.pt`` file and a JSON card beside it that
records the file's sha256 and how it was trained; loading refuses a file that does not match its card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from frontierco.errors import FrontiercoError
from frontierco.problems.common.fingerprint import file_sha256


class MissingCheckpoint(FrontiercoError):
    """A learned solver has no checkpoint for what it was asked."""


def save_checkpoint(path: Path, config: dict[str, Any], weights: dict[str, Any], card: dict[str, Any]) -> dict[str, Any]:
    """Write weights and config to ``path`` and the card (file name, sha256 and config added) to ``path.json``."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"config": config, "model": weights}, path)
    card = {**card, "file": path.name, "sha256": file_sha256(str(path)), "config": config}
    path.with_suffix(".json").write_text(json.dumps(card, indent=2) + "\n")
    return card


def read_card(path: Path) -> dict[str, Any]:
    card_path = path.with_suffix(".json")
    if not path.is_file() or not card_path.is_file():
        raise MissingCheckpoint(f"no checkpoint {path} (with its card {card_path.name})")
    return json.loads(card_path.read_text())


def load_checkpoint(path: Path, device: str = "cpu") -> tuple[dict[str, Any], dict[str, Any]]:
    """(config, weights) of a checkpoint whose sha256 matches its card."""
    import torch

    card = read_card(path)
    if file_sha256(str(path)) != card["sha256"]:
        raise FrontiercoError(f"checkpoint {path} does not match the sha256 in {path.with_suffix('.json').name}")
    saved = torch.load(path, map_location=device, weights_only=True)
    return saved["config"], saved["model"]


def save_training_state(path: Path, model: Any, optimizer: Any, progress: dict[str, Any]) -> None:
    """A resumable trainer's state (weights, optimiser, ``progress``: step, seconds, history...), written through a
    temporary file and a rename so that a run stopped mid-write keeps the last whole state."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), **progress}, path.with_suffix(".tmp"))
    path.with_suffix(".tmp").replace(path)


def load_training_state(path: Path, model: Any, optimizer: Any) -> dict[str, Any]:
    """``save_training_state``'s file back into ``model`` and ``optimizer``; the rest of the state returned."""
    import torch

    state = torch.load(path, weights_only=False)
    model.load_state_dict(state.pop("model"))
    optimizer.load_state_dict(state.pop("optimizer"))
    return dict(state)
