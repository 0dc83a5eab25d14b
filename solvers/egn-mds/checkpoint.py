"""egn-mds checkpoints: weights and config in ``checkpoints/mds.pt``, a card beside it (sha256, input layout, how
it was trained); a checkpoint whose card records another input layout than ``vertex_gnn.LAYOUT`` is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from frontierco.errors import FrontiercoError
from frontierco.kit.checkpoints import load_checkpoint, read_card, save_checkpoint
from frontierco.kit.vertex_gnn import LAYOUT, ModelConfig, VertexGNN

SHIPPED = Path(__file__).resolve().parent / "checkpoints"


def export(model: VertexGNN, path: Path, card: dict[str, Any]) -> dict[str, Any]:
    return save_checkpoint(path, model.config.as_dict(), model.state_dict(), {**card, "input": {"layout": LAYOUT}})


def load(path: Path) -> VertexGNN:
    layout = read_card(path).get("input", {}).get("layout")
    if layout != LAYOUT:
        raise FrontiercoError(f"{path.with_suffix('.json')} records input layout {layout!r}; this code feeds {LAYOUT!r}")
    config, weights = load_checkpoint(path)
    model = VertexGNN(ModelConfig(**config))
    model.load_state_dict(weights)
    return model.eval()
