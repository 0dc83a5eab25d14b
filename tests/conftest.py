"""Shared fixtures: the offline mirror of real instances, and small seeded helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontierco.registry import default_mirror

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The offline mirror (FRONTIERCO_MIRROR or ../shared/data); tests of real files need it."""
    path = default_mirror()
    if path is None or not path.is_dir():
        pytest.skip("no offline mirror of real instances (set FRONTIERCO_MIRROR)")
    return path
