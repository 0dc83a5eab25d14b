"""The leaderboard is a function of the records and the manifests (issue 39): it imports nothing of the harness,
and it takes a row's solver from the records rather than parsing the row's label."""

from __future__ import annotations

import ast
from pathlib import Path

import frontierco

LEADERBOARD = Path(frontierco.__file__).parent / "leaderboard"


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_leaderboard_imports_nothing_of_the_harness():
    found = {path.name: sorted(m for m in _imported(path) if m.startswith("frontierco.harness")) for path in LEADERBOARD.glob("*.py")}
    assert not {name: modules for name, modules in found.items() if modules}


def test_the_leaderboard_does_not_parse_row_labels_back():
    for path in LEADERBOARD.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert '.split("@")' not in text and '.split("{")' not in text, path.name
