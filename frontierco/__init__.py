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
    "read_instance": "frontierco.problems.files",
    "read_solution": "frontierco.problems.files",
    "write_instance": "frontierco.problems.files",
    "write_solution": "frontierco.problems.files",
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
    """The module ``old`` now lives in, with a DeprecationWarning at the importer: two frames up, from a
    module ``__getattr__`` (``from old import name`` looks the name up from the importing frame)."""
    warnings.warn(f"{old} is deprecated: import {_MOVED[old]} instead", DeprecationWarning, stacklevel=3)
    module = importlib.import_module(_MOVED[old])
    sys.modules[old] = module  # later uses of the old name get the new module itself, without a warning
    setattr(sys.modules[__name__], old.rpartition(".")[2], module)
    return module


class _Moved(ModuleType):
    """An old module name held in sys.modules: the import system finds it there (no finder on sys.meta_path),
    and its first attribute lookup imports the new module, warns and puts the new module in its place."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_moved(self.__name__), name)


for _old in _MOVED:
    sys.modules.setdefault(_old, _Moved(_old))


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
