"""Small checks shared by the problem checkers (and by what reads numbers from a solver or a downloaded file)."""

from __future__ import annotations

import math

import numpy as np


def finite_number(value: object) -> float | None:
    """A JSON or Python-literal number as a finite float; None for anything else (a bool, text, NaN, an integer past
    float64, which ``math.isfinite`` meets with an OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def as_index_array(values: object, what: str) -> tuple[np.ndarray | None, str]:
    """Integer array of ``values`` (``values`` itself when it already is one: callers only read it) or
    (None, reason) when they are not whole numbers."""
    array = np.asarray(values)
    if array.ndim != 1:
        return None, f"{what} must be a flat list of indices"
    if array.size == 0:
        return array.astype(np.int64), ""
    if not np.issubdtype(array.dtype, np.integer):
        if not np.issubdtype(array.dtype, np.floating) or not np.all(np.isfinite(array)):
            return None, f"{what} contains entries that are not integers"
        if np.any(array != np.round(array)):
            return None, f"{what} contains entries that are not integers"
    return array.astype(np.int64, copy=False), ""


def first_out_of_range(indices: np.ndarray, low: int, high: int) -> int | None:
    """The first index outside [low, high], or None."""
    bad = np.flatnonzero((indices < low) | (indices > high))
    return int(indices[bad[0]]) if bad.size else None


def first_repeated(indices: np.ndarray, size: int) -> tuple[int, int] | None:
    """(value, count) of the first value occurring more than once among ``indices`` in [0, size)."""
    counts = np.bincount(indices, minlength=size)
    repeated = np.flatnonzero(counts > 1)
    return (int(repeated[0]), int(counts[repeated[0]])) if repeated.size else None


def times(count: int) -> str:
    return "twice" if count == 2 else f"{count} times"
