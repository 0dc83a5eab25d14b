"""One adaptor module per problem: ``kwargs(instance)`` builds what FrontierCO's ``load_data`` gives that problem's
``solve`` (one case of the list it returns), ``solution(instance, data)`` turns one yielded dict back into the
suite's solution, raising ``Malformed`` with a one-line reason when the dict is not one.

A problem is added with a module here and a line in ``ADAPTORS`` (and its name in ``problems`` of solver.py).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np

ADAPTORS: dict[str, str] = {  # problem -> module of this package
    "tsp": "tsp",
    "cvrp": "cvrp",
    "mis": "mis",
    "mds": "mds",
    "fjsp": "fjsp",
    "stp": "stp",
    "cflp": "cflp",
    "cpmp": "cpmp",
}


class Malformed(ValueError):
    """A yielded dict that is not a solution dict of the problem."""


def adaptor(problem: str) -> ModuleType:
    if problem not in ADAPTORS:
        raise ValueError(f"frontierco-py has no adaptor for {problem}; it has {', '.join(ADAPTORS)}")
    return importlib.import_module(f"{__package__}.{ADAPTORS[problem]}")


def field(data: object, key: str, form: str) -> Any:
    """``data[key]`` of a yielded dict; ``form`` says what FrontierCO's solution dict looks like."""
    if not isinstance(data, dict):
        raise Malformed(f"yielded a {type(data).__name__}, not a dict like {form}")
    if key not in data:
        raise Malformed(f"yielded dict has no {key!r} (keys: {', '.join(map(repr, data)) or 'none'}); expected {form}")
    return data[key]


def integers(value: object, what: str) -> np.ndarray:
    """A list of whole numbers as an int64 array (a number that is not whole, or a non-list, is Malformed)."""
    if not isinstance(value, list | tuple | np.ndarray):
        raise Malformed(f"{what} must be a list of integers, got a {type(value).__name__}")
    try:
        array = np.asarray(value)
    except ValueError:
        raise Malformed(f"{what} must be a flat list of integers") from None
    if array.ndim != 1 or (array.size and not np.issubdtype(array.dtype, np.integer)):
        raise Malformed(f"{what} must be a flat list of integers, got {str(value)[:60]}")
    return array.astype(np.int64)
