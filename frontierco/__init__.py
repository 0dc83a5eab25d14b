"""frontierco: a benchmark suite for combinatorial optimisation.

The public API, for solver authors and analysts (imported on first use, so that ``import frontierco`` and
the harness's worker processes stay fast):

    from frontierco import Solver, Budget, Proven, Bound          # write a solver
    from frontierco import read_instance, read_solution, evaluate # check a solution independently
    from frontierco import Registry, ResultStore, RunRecord       # instances and stored runs
    from frontierco import Context                                # the workspace: Context.discover(), Registry.of(context)
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any

_EXPORTS = {
    "Solver": "frontierco.solver",
    "Budget": "frontierco.solver",
    "Proven": "frontierco.solver",
    "Bound": "frontierco.solver",
    "get_solver": "frontierco.solver",
    "evaluate": "frontierco.problems",
    "get_problem": "frontierco.problems",
    "Evaluation": "frontierco.problems",
    "read_instance": "frontierco.formats",
    "read_solution": "frontierco.formats",
    "write_instance": "frontierco.formats",
    "write_solution": "frontierco.formats",
    "Registry": "frontierco.registry",
    "ResultStore": "frontierco.results",
    "RunRecord": "frontierco.results",
    "FrontiercoError": "frontierco.errors",
    "Context": "frontierco.workspace",
}
__all__ = ["__version__", *_EXPORTS]


# the solver toolkit moved to frontierco.kit; solvers outside the repository may import the old names, which keep
# working for one release (until 0.2) with a DeprecationWarning naming the new module
_MOVED = {
    f"frontierco.{name}": f"frontierco.kit.{name}"
    for name in ("solverkit", "tour_search", "route_search", "heatmap_gnn", "formulations", "checkpoints", "steiner_search")
}


def _moved(old: str) -> ModuleType:
    """The module ``old`` now lives in, with a DeprecationWarning at the importer: two frames up, from
    ``__getattr__`` or from ``exec_module`` (the warnings module skips importlib's own frames)."""
    warnings.warn(f"{old} is deprecated: import {_MOVED[old]} instead", DeprecationWarning, stacklevel=3)
    return importlib.import_module(_MOVED[old])


class _MovedFinder:  # a meta path finder and its loader (not importlib.abc: 9 ms at import)
    """Finds a moved module under its old name; loading it puts the new module in sys.modules under both names."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(fullname, self) if fullname in _MOVED else None  # type: ignore[arg-type]

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the default module, replaced in exec_module

    def exec_module(self, module: ModuleType) -> None:
        # the import system returns what sys.modules holds under the name after this call: the new module
        sys.modules[module.__name__] = _moved(module.__name__)


if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
    sys.meta_path.insert(0, _MovedFinder())  # before the path finders: an editable install maps the old folder


def _version() -> str:
    """The installed version (single source: pyproject.toml); importlib.metadata costs 35 ms, so only on use."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("frontierco")
    except PackageNotFoundError:  # a checkout that is not installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        return _version()
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    if f"frontierco.{name}" in _MOVED:  # frontierco.solverkit as an attribute: the moved module, with the warning
        return _moved(f"frontierco.{name}")
    raise AttributeError(f"module 'frontierco' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
