"""frontierco: a benchmark suite for combinatorial optimisation.

The public API, for solver authors and analysts (imported on first use, so that ``import frontierco`` and
the harness's worker processes stay fast):

    from frontierco import Solver, Budget, Proven, Bound          # write a solver
    from frontierco import read_instance, read_solution, evaluate # check a solution independently
    from frontierco import Registry, ResultStore, RunRecord       # instances and stored runs
"""

from __future__ import annotations

import importlib
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
}
__all__ = ["__version__", *_EXPORTS]


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
    raise AttributeError(f"module 'frontierco' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
