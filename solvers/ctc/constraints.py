"""Constraint types (the MIPLIB 2017 classification) and the information gain of making a row tight.

Every row side is read as ``a.x <= b`` (a ``>=`` side is negated; a ranged row contributes its upper side, or
its lower side when only that one is finite); equality rows are their own kind. Types, first match wins:

    empty, free, singleton; aggregation (2 variables, equality); precedence (2 variables of one type,
    a x - a y <= b); variable_bound (2 variables, one binary); all binary with equal coefficients:
    set_partitioning (= 1), set_packing (<= 1), set_covering (>= 1), cardinality (= k), invariant_knapsack
    (<= k or >= k); all binary with integer coefficients: equation_knapsack (=), bin_packing (the right-hand
    side equals one positive coefficient, all positive), knapsack (positive coefficients, <=); all integer:
    integer_knapsack; binary and continuous: mixed_binary; otherwise general.

Information gain (the "Constraint Matters" rule): the fixed-constraint strength of a row is
rho = |{x : a.x = b}| / |{x : a.x <= b}| over the row's own variables, and the gain of knowing the row is
tight is -log rho. Counting: binary variables take {0, 1}, integer ones their values (at most 16 from the
lower bound), continuous ones their two bounds (the vertices an LP optimum sits on; an infinite bound is
replaced by the other bound +- 1). Closed forms serve the unit-coefficient binary types (binomial counts);
other rows are counted exactly by a distribution over the integer-scaled activity when its support is small
(<= 200,000 values) and by a normal approximation otherwise. Equality rows are always tight: gain 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

TYPES = (
    "empty",
    "free",
    "singleton",
    "aggregation",
    "precedence",
    "variable_bound",
    "set_partitioning",
    "set_packing",
    "set_covering",
    "cardinality",
    "invariant_knapsack",
    "equation_knapsack",
    "bin_packing",
    "knapsack",
    "integer_knapsack",
    "mixed_binary",
    "general",
)
VARIABLE_TYPES = ("binary", "integer", "continuous")
MAX_GAIN = 50.0
MAX_SUPPORT = 200_000
MAX_INTEGER_VALUES = 16


@dataclass(frozen=True)
class Rows:
    """Every row of a MILP in ``a.x <= b`` form (equalities keep ``a.x = b``), with its type and gain."""

    matrix: sp.csr_matrix  # rows in <= form
    rhs: np.ndarray
    equality: np.ndarray  # bool
    types: np.ndarray  # index into TYPES
    gain: np.ndarray
    variable_types: np.ndarray  # index into VARIABLE_TYPES, per column

    @property
    def inequality(self) -> np.ndarray:
        return ~self.equality & np.isfinite(self.rhs)


def variable_types(integrality: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    binary = integrality & (lower >= 0) & (upper <= 1)
    return np.where(binary, 0, np.where(integrality, 1, 2))


def less_equal_form(matrix: sp.csr_matrix, row_lower: np.ndarray, row_upper: np.ndarray) -> tuple[sp.csr_matrix, np.ndarray, np.ndarray]:
    """Rows as a.x <= b: the upper side when finite, else the negated lower side; equalities flagged."""
    equality = np.isfinite(row_lower) & (row_lower == row_upper)
    flip = ~np.isfinite(row_upper) & np.isfinite(row_lower)
    sign = np.where(flip, -1.0, 1.0)
    rhs = np.where(flip, -row_lower, row_upper)
    return sp.diags(sign) @ matrix.tocsr(), rhs.astype(np.float64), equality


def _integral(values: np.ndarray) -> bool:
    return bool(np.all(np.abs(values - np.round(values)) < 1e-9))


def classify_row(coefs: np.ndarray, kinds: np.ndarray, rhs: float, equality: bool) -> str:
    k = len(coefs)
    if k == 0:
        return "empty"
    if not np.isfinite(rhs):
        return "free"
    if k == 1:
        return "singleton"
    binary = bool(np.all(kinds == 0))
    if k == 2:
        if equality:
            return "aggregation"
        if kinds[0] == kinds[1] and coefs[0] == -coefs[1]:
            return "precedence"
        if np.any(kinds == 0):
            return "variable_bound"
    if binary and np.all(np.abs(coefs) == abs(coefs[0])):
        unit = abs(coefs[0])
        scaled = rhs / unit
        if equality and np.all(coefs > 0):
            return "set_partitioning" if scaled == 1 else "cardinality"
        if np.all(coefs > 0) and not equality:
            return "set_packing" if scaled == 1 else "invariant_knapsack"
        if np.all(coefs < 0) and not equality:
            return "set_covering" if scaled == -1 else "invariant_knapsack"
    if binary and _integral(coefs) and _integral(np.array([rhs])):
        if equality:
            return "equation_knapsack"
        if np.all(coefs > 0) and rhs > 0 and np.any(coefs == rhs):
            return "bin_packing"
        if np.all(coefs > 0):
            return "knapsack"
    if np.all(kinds <= 1) and _integral(coefs) and not equality:
        return "integer_knapsack"
    if np.all((kinds == 0) | (kinds == 2)) and np.any(kinds == 0) and np.any(kinds == 2):
        return "mixed_binary"
    return "general"


def _unit_binary_log_rho(k: int, bound: int, covering: bool) -> float:
    """log rho for sum x <= bound (or sum x >= bound when ``covering``) over k binaries, from binomials."""
    counts = np.array([math.lgamma(k + 1) - math.lgamma(i + 1) - math.lgamma(k - i + 1) for i in range(k + 1)])
    allowed = counts[bound:] if covering else counts[: bound + 1]
    if len(allowed) == 0 or bound < 0 or bound > k:
        return 0.0
    return float(counts[bound] - np.logaddexp.reduce(allowed))


_BINARY = np.array([0.0, 1.0])
_BINARY.flags.writeable = False


def _values(kind: int, low: float, high: float) -> np.ndarray:
    if kind == 0:
        return _BINARY
    if not np.isfinite(low) and not np.isfinite(high):
        low, high = -1.0, 1.0
    low = low if np.isfinite(low) else high - 1.0
    high = high if np.isfinite(high) else low + 1.0
    if kind == 1:
        return np.arange(math.ceil(low), min(math.floor(high), math.ceil(low) + MAX_INTEGER_VALUES - 1) + 1, dtype=np.float64)
    return np.array([low]) if low == high else np.array([min(low, high), max(low, high)])


def _scale(values: list[np.ndarray], rhs: float) -> int | None:
    """A factor that makes every contribution and the right-hand side integral, if a small one does."""
    flat = np.concatenate([*values, [rhs]])
    for factor in (1, 2, 4, 5, 10, 20, 100, 1000):
        if _integral(flat * factor):
            return factor
    return None


def _add_uniform(distribution: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The distribution of a sum after adding a variable uniform over ``offsets`` (non-negative integers,
    a repeated one weighing twice): a shifted, weighted copy per offset, so a two-valued variable costs two
    passes over the distribution whatever the gap between its values (a dense convolution would cost that gap)."""
    weight = 1.0 / len(offsets)
    result = np.zeros(len(distribution) + int(offsets.max()))
    for value in offsets.tolist():
        result[value : value + len(distribution)] += distribution * weight
    return result


def log_rho(coefs: np.ndarray, kinds: np.ndarray, lower: np.ndarray, upper: np.ndarray, rhs: float) -> float:
    """log P(a.x = b) - log P(a.x <= b) with the row's variables uniform over their counted values."""
    contributions = [coef * _values(int(kind), lo, hi) for coef, kind, lo, hi in zip(coefs, kinds, lower, upper, strict=True)]
    factor = _scale(contributions, rhs)
    if factor is not None:
        ints = [np.round(c * factor).astype(np.int64) for c in contributions]
        low = sum(int(c.min()) for c in ints)
        high = sum(int(c.max()) for c in ints)
        target = int(round(rhs * factor))
        if high - low + 1 <= MAX_SUPPORT:
            if target < low:
                return 0.0  # infeasible row: nothing to learn from it
            distribution = np.ones(1)
            for c in ints:
                distribution = _add_uniform(distribution, c - c.min())
            index = min(target, high) - low
            at_most = float(distribution[: index + 1].sum())
            exactly = float(distribution[index]) if target <= high else 0.0
            return math.log(max(exactly, 1e-300)) - math.log(max(at_most, 1e-300))
    means = np.array([c.mean() for c in contributions])
    variances = np.array([c.var() for c in contributions])
    mu, sigma = float(means.sum()), math.sqrt(max(float(variances.sum()), 1e-12))
    z = (rhs - mu) / sigma
    at_most = 0.5 * math.erfc(-z / math.sqrt(2.0))
    density = math.exp(-0.5 * z * z) / (sigma * math.sqrt(2.0 * math.pi))
    width = 1.0 / factor if factor is not None else 1e-6 * max(1.0, abs(rhs))
    return math.log(max(density * width, 1e-300)) - math.log(max(at_most, 1e-300))


def row_gain(row_type: str, coefs: np.ndarray, kinds: np.ndarray, lower: np.ndarray, upper: np.ndarray, rhs: float) -> float:
    if row_type in ("empty", "free"):
        return 0.0
    if row_type in ("set_packing", "set_covering", "invariant_knapsack") and np.all(kinds == 0):
        covering = bool(coefs[0] < 0)
        bound = int(round(abs(rhs / coefs[0])))
        value = _unit_binary_log_rho(len(coefs), bound, covering)
    else:
        value = log_rho(coefs, kinds, lower, upper, rhs)
    return float(min(MAX_GAIN, max(0.0, -value)))


def classify_rows(less: sp.csr_matrix, rhs: np.ndarray, equality: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """``classify_row`` for every row at once (index into TYPES), from per-row counts over the sparse entries."""
    m = less.shape[0]
    nnz = np.diff(less.indptr)
    row = np.repeat(np.arange(m), nnz)
    coef, kind = less.data, kinds[less.indices]

    def every(entry: np.ndarray) -> np.ndarray:
        return np.bincount(row, weights=entry.astype(np.float64), minlength=m) == nnz

    def some(entry: np.ndarray) -> np.ndarray:
        return np.bincount(row, weights=entry.astype(np.float64), minlength=m) > 0

    has, two = nnz > 0, nnz == 2
    first, c0, c1 = np.ones(m), np.zeros(m), np.zeros(m)
    k0, k1 = np.zeros(m, dtype=kind.dtype), np.zeros(m, dtype=kind.dtype)
    first[has] = coef[less.indptr[:-1][has]]
    c0[two], c1[two] = coef[less.indptr[:-1][two]], coef[less.indptr[:-1][two] + 1]
    k0[two], k1[two] = kind[less.indptr[:-1][two]], kind[less.indptr[:-1][two] + 1]
    unit = np.abs(first)
    finite = np.isfinite(rhs)
    scaled = np.where(finite, rhs, 0.0) / np.where(unit > 0, unit, 1.0)
    rhs_integral = finite & (np.abs(rhs - np.round(np.where(finite, rhs, 0.0))) < 1e-9)
    binary, positive, negative = every(kind == 0), every(coef > 0), every(coef < 0)
    equal_unit = every(np.abs(coef) == unit[row])
    integral = every(np.abs(coef - np.round(coef)) < 1e-9)
    unit_binary = binary & equal_unit
    knapsack_like = binary & integral & rhs_integral
    rules = [
        (nnz == 0, "empty"),
        (~finite, "free"),
        (nnz == 1, "singleton"),
        (two & equality, "aggregation"),
        (two & (k0 == k1) & (c0 == -c1), "precedence"),
        (two & ((k0 == 0) | (k1 == 0)), "variable_bound"),
        (unit_binary & equality & positive & (scaled == 1), "set_partitioning"),
        (unit_binary & equality & positive, "cardinality"),
        (unit_binary & positive & ~equality & (scaled == 1), "set_packing"),
        (unit_binary & positive & ~equality, "invariant_knapsack"),
        (unit_binary & negative & ~equality & (scaled == -1), "set_covering"),
        (unit_binary & negative & ~equality, "invariant_knapsack"),
        (knapsack_like & equality, "equation_knapsack"),
        (knapsack_like & positive & (rhs > 0) & some(coef == rhs[row]), "bin_packing"),
        (knapsack_like & positive, "knapsack"),
        (every(kind <= 1) & integral & ~equality, "integer_knapsack"),
        (every((kind == 0) | (kind == 2)) & some(kind == 0) & some(kind == 2), "mixed_binary"),
    ]
    return np.select([mask for mask, _ in rules], [TYPES.index(name) for _, name in rules], TYPES.index("general"))


def _alike(less: sp.csr_matrix, keys: np.ndarray, rows: np.ndarray, entries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ``rows``: one representative of each group of rows with equal ``keys`` and equal entries up to
    order (entries as ids), and each row's group."""
    nnz = np.diff(less.indptr)
    representatives, groups = np.zeros(0, dtype=np.int64), np.zeros(len(rows), dtype=np.int64)
    for length in np.unique(nnz[rows]):
        chosen = np.flatnonzero(nnz[rows] == length)
        ids = np.sort(entries[less.indptr[rows[chosen]][:, None] + np.arange(length)], axis=1)
        table = np.column_stack([keys[rows[chosen]], ids.astype(np.float64)])
        _, first, inverse = np.unique(table, axis=0, return_index=True, return_inverse=True)
        groups[chosen] = len(representatives) + inverse.ravel()
        representatives = np.concatenate([representatives, rows[chosen][first]])
    return representatives, groups


def analyse(
    matrix: sp.csr_matrix,
    row_lower: np.ndarray,
    row_upper: np.ndarray,
    col_lower: np.ndarray,
    col_upper: np.ndarray,
    integrality: np.ndarray,
) -> Rows:
    """Type and gain of every row; rows alike in type, right-hand side, coefficients and bounds share one count."""
    less, rhs, equality = less_equal_form(matrix, row_lower, row_upper)
    less = less.tocsr()
    less.sort_indices()
    kinds = variable_types(np.asarray(integrality, dtype=bool), col_lower, col_upper)
    types = classify_rows(less, rhs, equality, kinds)
    gains = np.zeros(less.shape[0])
    counted = np.flatnonzero(~equality & ~np.isin(types, [TYPES.index("empty"), TYPES.index("free")]))
    if len(counted):
        cols = less.indices
        entries = np.column_stack([less.data, kinds[cols], col_lower[cols], col_upper[cols]])
        _, entry_ids = np.unique(entries, axis=0, return_inverse=True)
        keys = np.column_stack([types, np.where(np.isfinite(rhs), rhs, 0.0)])
        representatives, groups = _alike(less, keys, counted, entry_ids.ravel())
        values = np.zeros(len(representatives))
        for g, i in enumerate(representatives):
            start, end = less.indptr[i], less.indptr[i + 1]
            c = less.indices[start:end]
            values[g] = row_gain(TYPES[types[i]], less.data[start:end], kinds[c], col_lower[c], col_upper[c], float(rhs[i]))
        gains[counted] = values[groups]
    return Rows(less, rhs, equality, types, gains, kinds)
