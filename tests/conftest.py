"""Shared fixtures: the offline mirror of real instances, and small seeded helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# the offline mirror belongs to CI and the tests, not to the library: ../shared/data beside the checkout
_BESIDE = Path(__file__).resolve().parents[2] / "shared" / "data"
if "FRONTIERCO_MIRROR" not in os.environ and _BESIDE.is_dir():
    os.environ["FRONTIERCO_MIRROR"] = str(_BESIDE)

from frontierco.workspace import Context  # noqa: E402


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The offline mirror (FRONTIERCO_MIRROR, set above to ../shared/data when it exists, as ``Context.discover``
    reads it); tests of real files need it."""
    path = Context.discover().files.mirror
    if path is None or not path.is_dir():
        pytest.skip("no offline mirror of real instances (set FRONTIERCO_MIRROR)")
    return path
