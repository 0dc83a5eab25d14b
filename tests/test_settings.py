"""The settings travel on the Context, not through the environment (issue 39): only ``Context.discover`` (with
``workspace.read_settings``) and the CLI read ``FRONTIERCO_*``; below them nothing touches ``os.environ`` but the
worker's own plumbing (an explicit allow-list, each with its reason), checked from the source by ``ast``; the
environment's settings still reach a run through ``Context.discover``, and the sandbox through the run's job."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from frontierco import workspace
from frontierco.harness.plan import plan_file
from frontierco.harness.request import RunRequest, plan_request, run
from frontierco.solver import Budget, get_solver
from frontierco.workspace import Context
from tests.helpers import DATA

PACKAGE = Path(workspace.__file__).parent
READERS = ("cli/", "workspace.py")  # where FRONTIERCO_* may be read: the program's start

# the modules below the CLI that may touch os.environ at all, and why (the worker's plumbing, never a setting)
PLUMBING = {
    "workspace.py": "Context.discover reads FRONTIERCO_ROOT and the settings (read_settings)",
    "harness/worker.py": "the run's TMPDIR (its writable scratch folder) and NUMBA_CACHE_DIR (numba's folder per solver)",
    "harness/devices.py": "CUDA_VISIBLE_DEVICES: the GPUs this process may hand to its runs",
    "harness/runner.py": "the environment of the worker it starts (thread variables, TMPDIR, CUDA_VISIBLE_DEVICES)",
    "harness/zygote.py": "the forked worker takes the environment the runner made for it",
}


def _modules() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(PACKAGE)), ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(PACKAGE.rglob("*.py"))]


def _frontierco_names(modules: list[tuple[str, ast.Module]]) -> set[str]:
    """Names bound anywhere in the package to a string starting with FRONTIERCO_ (``ROOT_VARIABLE``)."""
    names = set()
    for _, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and str(node.value.value).startswith("FRONTIERCO_"):
                names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


class _Environment(ast.NodeVisitor):
    """Every environment access of a module, with the innermost function around it ("<module>" for none) and its
    key when it names one: ``os.environ[key]`` (read or written), ``os.environ.get(key)`` and the other methods,
    ``os.getenv(key)`` / ``os.putenv``, ``environ`` imported from os, and ``os.environ`` passed whole (key None)."""

    def __init__(self) -> None:
        self.function = "<module>"
        self.found: list[tuple[str, ast.expr | None]] = []
        self._keyed: set[int] = set()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer, self.function = self.function, node.name
        self.generic_visit(node)
        self.function = outer

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module == "os" and any(alias.name in ("environ", "getenv", "putenv") for alias in node.names):
            self.found.append((self.function, None))

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if _is_environ(node.value):
            self.found.append((self.function, node.slice))
            self._keyed.add(id(node.value))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and _is_environ(func.value):
            self.found.append((self.function, node.args[0] if node.args else None))
            self._keyed.add(id(func.value))
        elif ast.unparse(func) in ("os.getenv", "getenv", "os.putenv", "putenv"):
            self.found.append((self.function, node.args[0] if node.args else None))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if _is_environ(node) and id(node) not in self._keyed:
            self.found.append((self.function, None))  # the whole environment (dict(os.environ), passed on)
        self.generic_visit(node)


def _is_environ(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (isinstance(node, ast.Name) and node.id == "environ")


def _accesses() -> dict[str, list[tuple[str, ast.expr | None]]]:
    found = {}
    for name, tree in _modules():
        visitor = _Environment()
        visitor.visit(tree)
        if visitor.found:
            found[name] = visitor.found
    return found


def _names_a_setting(key: ast.expr | None, names: set[str]) -> bool:
    return (
        (isinstance(key, ast.Constant) and str(key.value).startswith("FRONTIERCO_"))
        or (isinstance(key, ast.Name) and key.id in names)
        or (isinstance(key, ast.Attribute) and key.attr in names)
        or (isinstance(key, ast.JoinedStr) and ast.unparse(key).startswith("f'FRONTIERCO_"))
    )


def test_only_the_context_and_the_cli_read_frontierco_settings() -> None:
    names = _frontierco_names(_modules())
    readers = {
        f"{module}:{function}"
        for module, accesses in _accesses().items()
        for function, key in accesses
        if _names_a_setting(key, names) and not module.startswith(READERS)
    }
    assert readers == set(), f"read FRONTIERCO_* from the Context instead: {sorted(readers)}"


def test_below_the_cli_only_the_workers_plumbing_touches_the_environment() -> None:
    touching = {module for module in _accesses() if not module.startswith("cli/")}
    assert touching - set(PLUMBING) == set(), "pass a setting down on the Context (or add the module to PLUMBING, with why)"
    assert set(PLUMBING) - touching == set(), "a PLUMBING entry that no longer touches the environment"


def test_only_discover_reads_frontierco_root_and_the_plumbing_reads_no_setting() -> None:
    """FRONTIERCO_ROOT in ``Context.discover`` alone (the CLI hands its --root down in the context); the settings in
    ``read_settings``; and the plumbing modules read only their own variables."""
    names = _frontierco_names(_modules())
    accesses = _accesses()
    root = {
        f"{module}:{function}"
        for module, found in accesses.items()
        for function, key in found
        if (isinstance(key, ast.Name) and key.id == "ROOT_VARIABLE") or (isinstance(key, ast.Constant) and key.value == "FRONTIERCO_ROOT")
    }
    assert root == {"workspace.py:discover"}
    settings = {f"{module}:{function}" for module, found in accesses.items() for function, key in found if _names_a_setting(key, names)}
    assert settings <= {"workspace.py:discover", "workspace.py:read_settings", "workspace.py:_number"}


def test_discover_reads_every_setting_from_the_environment(tmp_path, monkeypatch):
    values = {
        "FRONTIERCO_SANDBOX": "bubblewrap",
        "FRONTIERCO_MIRROR": str(tmp_path / "mirror"),
        "FRONTIERCO_CACHE": str(tmp_path / "cache"),
        "FRONTIERCO_OFFLINE": "1",
        "FRONTIERCO_SOLUTIONS": os.pathsep.join([str(tmp_path / "a"), str(tmp_path / "b")]),
        "FRONTIERCO_SOLUTION_LIMIT": "1234",
        "FRONTIERCO_FIGURE_CACHE": str(tmp_path / "figures"),
        "FRONTIERCO_FIGURE_JOBS": "3",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    context = Context.discover(tmp_path)
    assert (context.files.mirror, context.files.cache, context.files.offline) == (tmp_path / "mirror", tmp_path / "cache", True)
    assert (context.sandbox, context.solution_limit, context.figure_jobs) == ("bubblewrap", 1234, 3)
    assert context.solution_folders == (tmp_path / "a", tmp_path / "b") and context.solution_cache == tmp_path / "cache" / "solutions"
    assert context.figures() == tmp_path / "figures"
    monkeypatch.setenv("FRONTIERCO_FIGURE_CACHE", "off")
    assert Context.discover(tmp_path).figures() is None
    for name in values:
        monkeypatch.delenv(name)
    plain = Context.discover(tmp_path)
    assert plain == Context(tmp_path) and plain.files.mirror is None and plain.figures() == plain.files.cache / "figures"
    monkeypatch.setenv("FRONTIERCO_SOLUTION_LIMIT", "big")
    with pytest.raises(workspace.UsageError, match="FRONTIERCO_SOLUTION_LIMIT must be a whole number"):
        Context.discover(tmp_path)


def test_the_job_carries_the_contexts_sandbox_and_the_worker_takes_it_from_there(tmp_path, monkeypatch):
    """A context that wants no sandbox gives its run an unsandboxed worker, whatever the environment says."""
    monkeypatch.setenv("FRONTIERCO_SANDBOX", "landlock")  # read by Context.discover only: not by this context nor the worker
    context = Context(sandbox="0")
    request = RunRequest("nn-2opt", DATA / "upper_row.tsp", Budget(5.0))
    (spec,) = plan_request(context, request).specs
    assert spec.job()["sandbox"] == "0" and spec.files is context.files
    assert (
        plan_file(get_solver("nn-2opt"), DATA / "upper_row.tsp", Budget(5.0)).specs[0].job()["sandbox"] == ""
    )  # planned alone: the default
    (record,) = run(context, request, context.records(tmp_path / "runs")).records
    assert record.provenance["sandbox"] == "unsandboxed" and record.status in ("feasible", "optimal")
