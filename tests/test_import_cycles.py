"""No import circle in frontierco/ or in any solver folder, found statically: every ``import`` of a module of the
same package counts, at the top of a file or inside a function (a lazy import is still an import); an import
under ``if TYPE_CHECKING:`` does not (it never runs)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import frontierco
from frontierco.workspace import SUITE

PACKAGE = Path(frontierco.__file__).parent
SOLVER_FOLDERS = sorted(path for path in (SUITE / "solvers").iterdir() if path.is_dir() and any(path.glob("*.py")))


def modules(root: Path, package: str) -> dict[str, Path]:
    """The modules under ``root`` by dotted name, ``package`` being the name of ``root`` itself."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if "_suite" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join([package, *parts])] = path
    return found


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that can run: everywhere but the body of ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                found += _runtime_imports(child) if not isinstance(child, ast.Import | ast.ImportFrom) else [child]
        else:
            found += _runtime_imports(node)
    return found


def _nearest(name: str, known: dict[str, Path]) -> str | None:
    """The module ``name`` names, or the nearest package above it that is one of ``known``."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imported(name: str, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports (``from pkg import sub`` counts as ``pkg.sub``)."""
    path = known[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str | None] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {_nearest(alias.name, known) for alias in node.names}
            continue
        base = package[: len(package) - node.level + 1] if node.level else []
        source = ".".join([*base, node.module] if node.module else base)
        found |= {f"{source}.{a.name}" if f"{source}.{a.name}" in known else _nearest(source, known) for a in node.names}
    return {module for module in found if module is not None and module != name}


def circles(known: dict[str, Path]) -> list[list[str]]:
    """The import circles among ``known``: each strongly connected group of more than one module."""
    return _strongly_connected({name: imported(name, known) for name in known})


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_finder_finds_a_circle_through_a_lazy_import_and_ignores_type_checking(tmp_path):
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("from pkg import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import x\n")
    (tmp_path / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import y\nelse:\n    import os\n")
    (tmp_path / "d.py").write_text("import pkg.c\n")
    assert circles(modules(tmp_path, "pkg")) == [["pkg.a", "pkg.b"]]
    (tmp_path / "a.py").write_text("import pkg.c\n")
    (tmp_path / "c.py").write_text("if True:\n    from . import d\n")
    assert circles(modules(tmp_path, "pkg")) == [["pkg.c", "pkg.d"]]


def test_no_import_circle_in_the_framework():
    assert circles(modules(PACKAGE, "frontierco")) == []


def folder_of(name: str, known: dict[str, Path]) -> str:
    """The folder a module counts in: a package's own name for its ``__init__`` and its modules (so a subfolder is
    its own folder), each top-level module of ``frontierco`` on its own (they are small, one job each)."""
    if known[name].name == "__init__.py" or name.count(".") == 1:
        return name
    return name.rpartition(".")[0]


def folder_circles(known: dict[str, Path]) -> list[list[str]]:
    """The import circles among folders: ``circles`` over the graph whose nodes are folders (``folder_of``)."""
    folders: dict[str, set[str]] = {}
    for name in known:
        folders.setdefault(folder_of(name, known), set()).update(folder_of(other, known) for other in imported(name, known))
    graph = {folder: imports - {folder} for folder, imports in folders.items()}
    return _strongly_connected(graph)


def test_the_folder_finder_finds_a_circle_between_folders_whose_modules_do_not_circle(tmp_path):
    for folder in ("pkg", "pkg/a", "pkg/b"):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "pkg/a/x.py").write_text("import pkg.b.y\n")
    (tmp_path / "pkg/b/y.py").write_text("")
    (tmp_path / "pkg/b/z.py").write_text("import pkg.a.w\n")
    (tmp_path / "pkg/a/w.py").write_text("")
    known = modules(tmp_path / "pkg", "pkg")
    assert circles(known) == []
    assert folder_circles(known) == [["pkg.a", "pkg.b"]]


def test_no_import_circle_between_the_framework_s_folders():
    """A family's folder imports ``problems/common`` and the suite's base modules, never the registry above it."""
    assert folder_circles(modules(PACKAGE, "frontierco")) == []


@pytest.mark.parametrize("folder", SOLVER_FOLDERS, ids=[folder.name for folder in SOLVER_FOLDERS])
def test_no_import_circle_in_a_solver_folder(folder):
    assert circles(modules(folder, "solver")) == []
