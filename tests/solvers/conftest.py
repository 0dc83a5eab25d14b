"""Shared fixtures of the solver tests: the published weights read from the offline mirror."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontierco.filestore import FileStore


@pytest.fixture
def store(mirror: Path) -> FileStore:
    """Weights and instances resolved from the offline mirror (tests using it skip without the mirror)."""
    return FileStore(mirror=mirror)
