"""kit/checkpoints.py: a learned solver's weights with a card that pins them; a file that does not match is refused."""

import json

import pytest
import torch

from frontierco.errors import FrontiercoError
from frontierco.kit.checkpoints import (
    MissingCheckpoint,
    load_checkpoint,
    load_training_state,
    read_card,
    save_checkpoint,
    save_training_state,
)
from frontierco.problems.common.fingerprint import file_sha256


def test_a_saved_checkpoint_loads_back_with_its_card(tmp_path):
    weights = {"layer.weight": torch.arange(6.0).reshape(2, 3)}
    card = save_checkpoint(tmp_path / "m" / "tsp-50.pt", {"hidden": 3}, weights, {"trained": "by hand"})
    path = tmp_path / "m" / "tsp-50.pt"
    assert card == {"trained": "by hand", "file": "tsp-50.pt", "sha256": file_sha256(str(path)), "config": {"hidden": 3}}
    assert read_card(path) == card == json.loads(path.with_suffix(".json").read_text())
    config, loaded = load_checkpoint(path)
    assert config == {"hidden": 3} and torch.equal(loaded["layer.weight"], weights["layer.weight"])


def test_a_checkpoint_that_differs_from_its_card_is_refused(tmp_path):
    path = tmp_path / "m.pt"
    save_checkpoint(path, {}, {"w": torch.zeros(2)}, {})
    torch.save({"config": {}, "model": {"w": torch.ones(2)}}, path)  # the weights changed, the card did not
    with pytest.raises(FrontiercoError, match="does not match the sha256 in m.json"):
        load_checkpoint(path)


def test_a_checkpoint_without_its_card_or_file_is_missing(tmp_path):
    path = tmp_path / "m.pt"
    with pytest.raises(MissingCheckpoint, match="no checkpoint"):
        read_card(path)
    save_checkpoint(path, {}, {"w": torch.zeros(1)}, {})
    path.with_suffix(".json").unlink()
    with pytest.raises(MissingCheckpoint, match=r"with its card m.json"):
        load_checkpoint(path)


def test_a_saved_training_state_loads_back_weights_optimiser_and_progress(tmp_path):
    """The resumable trainers' state (egn-mis, egn-mds): saved and loaded back whole."""
    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    model(torch.ones(2, 3)).sum().backward()
    optimizer.step()
    path = tmp_path / "run" / "state.pt"
    save_training_state(path, model, optimizer, {"step": 7, "seconds": 1.5, "history": [0.3], "best": None})
    assert path.is_file() and not path.with_suffix(".tmp").exists()
    again = torch.nn.Linear(3, 1)
    again_optimizer = torch.optim.Adam(again.parameters(), lr=0.01)
    progress = load_training_state(path, again, again_optimizer)
    assert progress == {"step": 7, "seconds": 1.5, "history": [0.3], "best": None}
    assert torch.equal(again.weight, model.weight) and torch.equal(again.bias, model.bias)
    assert again_optimizer.state_dict()["state"][0]["step"] == optimizer.state_dict()["state"][0]["step"]
