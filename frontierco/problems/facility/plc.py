"""Capacitated facility location files: FrontierCO's text form (``.plc``, the Avella-Boccia files' layout, which
FrontierCO's generator also writes) and OR-Library's ``cap`` files (``.cap``).

``.plc`` (FrontierCO's ``load_data`` in ``data/CFLP/config.py``): whitespace-separated numbers
``n m``, then n pairs ``capacity fixed_cost``, then m customer demands, then n rows of m costs (row i: the cost of
serving all of each customer's demand from facility i).

``.cap`` (Beasley, OR-Library ``capinfo``): ``m n`` (m warehouses, n customers), then m pairs ``capacity
fixed_cost``, then per customer its demand followed by its m costs (again for all of its demand).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import fields, real
from frontierco.problems.facility.cflp import CFLPInstance


def _token_line(text: str, index: int) -> int:
    """The line of the index-th whitespace-separated token (the last line when there are fewer)."""
    seen = 0
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        seen += len(fields(raw))
        if seen > index:
            return number
    return number


def numbers(path: Path, text: str) -> np.ndarray:
    """Every whitespace-separated token of ``text`` as a float; a token that is not a number is a FormatError
    naming its line."""
    tokens = text.split() if text.isascii() else [token for raw in text.splitlines() for token in fields(raw)]
    if "_" not in text and text.isascii():  # numpy's conversion is float()'s, '1_000' included: only for plain text
        try:
            return np.array(tokens, dtype=np.float64)
        except ValueError:
            pass
    for k, token in enumerate(tokens):
        try:
            real(token)
        except ValueError:
            hint = ""
            if token.lower() == "capacity":
                hint = " (OR-Library's capa/capb/capc leave the capacity as the word 'capacity': put one of capinfo's values there)"
            raise FormatError(path, _token_line(text, k), f"a number, got {token[:20]!r}{hint}") from None
    return np.array(tokens, dtype=np.float64)  # every token is a number as real() reads it


def _sizes(path: Path, text: str, values: np.ndarray, what: str) -> tuple[int, int]:
    if len(values) < 2 or not np.all(np.isfinite(values[:2])) or np.any(values[:2] != np.round(values[:2])) or np.any(values[:2] < 1):
        raise FormatError(path, 1, f"a header '{what}' of two positive integers")
    return int(values[0]), int(values[1])


def _exact_length(path: Path, text: str, values: np.ndarray, expected: int, layout: str) -> None:
    if len(values) < expected:
        raise FormatError(path, _token_line(text, len(values)), f"{expected} numbers ({layout}), the file ends after {len(values)}")
    if len(values) > expected:
        raise FormatError(path, _token_line(text, expected), f"nothing after the {expected} numbers of {layout}")


def _nonnegative(path: Path, text: str, values: np.ndarray, start: int, what: str) -> None:
    negative = np.flatnonzero(values < 0)
    if negative.size:
        raise FormatError(path, _token_line(text, start + int(negative[0])), f"a non-negative {what}, got {values[negative[0]]:g}")


def _instance(path: Path, capacity: np.ndarray, fixed: np.ndarray, demand: np.ndarray, cost: np.ndarray) -> CFLPInstance:
    try:
        return CFLPInstance(path.name.split(".")[0], capacity, fixed, demand, cost)
    except ValueError as exc:
        raise FormatError(path, 0, f"a valid facility location instance ({exc})") from None


def read_plc(path: str | Path) -> CFLPInstance:
    """FrontierCO's CFLP text form (the ``.plc`` files of its test sets)."""
    path = Path(path)
    text = read_text(path)
    values = numbers(path, text)
    n, m = _sizes(path, text, values, "FACILITIES CUSTOMERS")
    _exact_length(path, text, values, 2 + 2 * n + m + n * m, f"n = {n} facilities and m = {m} customers: 2 + 2n + m + n*m")
    pairs = values[2 : 2 + 2 * n].reshape(n, 2)
    demand = values[2 + 2 * n : 2 + 2 * n + m]
    _nonnegative(path, text, values[2 : 2 + 2 * n : 2], 2, "capacity")  # every other number of the pairs
    _nonnegative(path, text, demand, 2 + 2 * n, "demand")
    cost = values[2 + 2 * n + m :].reshape(n, m)
    return _instance(path, pairs[:, 0].copy(), pairs[:, 1].copy(), demand.copy(), cost)


def read_orlib_cap(path: str | Path) -> CFLPInstance:
    """An OR-Library capacitated warehouse location file (cap41 ... cap134, capa/capb/capc with the capacity filled in)."""
    path = Path(path)
    text = read_text(path)
    values = numbers(path, text)
    n, m = _sizes(path, text, values, "WAREHOUSES CUSTOMERS")
    _exact_length(path, text, values, 2 + 2 * n + m * (1 + n), f"{n} warehouses and {m} customers: 2 + 2m + n(1 + m) in capinfo's names")
    pairs = values[2 : 2 + 2 * n].reshape(n, 2)
    rows = values[2 + 2 * n :].reshape(m, 1 + n)
    _nonnegative(path, text, values[2 : 2 + 2 * n : 2], 2, "capacity")
    negative = np.flatnonzero(rows[:, 0] < 0)
    if negative.size:
        raise FormatError(path, _token_line(text, 2 + 2 * n + int(negative[0]) * (1 + n)), "a non-negative demand")
    return _instance(path, pairs[:, 0].copy(), pairs[:, 1].copy(), rows[:, 0].copy(), rows[:, 1:].T.copy())


def plc_suffix(instance: CFLPInstance) -> str:
    return ".plc"


def write_plc(path: str | Path, instance: CFLPInstance) -> None:
    """Write FrontierCO's CFLP text form (17 significant digits: every number reads back exactly; integers stay integers)."""
    with open(path, "w") as handle:
        handle.write(f"{instance.n} {instance.m}\n")
        np.savetxt(handle, np.stack([instance.capacity, instance.fixed_cost], axis=1), fmt="%.17g")
        np.savetxt(handle, instance.demand[None, :], fmt="%.17g")
        np.savetxt(handle, instance.cost, fmt="%.17g")
