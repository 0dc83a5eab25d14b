"""Mixed-integer linear programs: min or max c.x + offset s.t. row_lower <= A x <= row_upper.

Feasibility tolerances (stated once, used everywhere): a bound b is met by a value v when the
violation is at most ``ABS_TOL + REL_TOL * |b|`` (ABS_TOL = 1e-6, REL_TOL = 1e-9); an integer
variable is integral when it is within ``INT_TOL = 1e-6`` of an integer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.base import Evaluation, Problem, Sense
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import fields, real

if TYPE_CHECKING:
    import scipy.sparse as sp

ABS_TOL = 1e-6
REL_TOL = 1e-9
INT_TOL = 1e-6


@dataclass(frozen=True, eq=False)
class MILPInstance:
    """A MILP in row-bounded form; infinite bounds are +-inf; names identify rows and columns."""

    name: str
    sense: Sense
    objective: np.ndarray
    matrix: sp.csr_matrix
    row_lower: np.ndarray
    row_upper: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    integrality: np.ndarray
    col_names: tuple[str, ...]
    row_names: tuple[str, ...]
    offset: float = 0.0

    def __post_init__(self) -> None:
        m, n = self.matrix.shape
        if len(self.objective) != n or len(self.col_lower) != n or len(self.col_upper) != n:
            raise ValueError("objective and column bounds must have one entry per column")
        if len(self.integrality) != n or len(self.col_names) != n:
            raise ValueError("integrality and column names must have one entry per column")
        if len(self.row_lower) != m or len(self.row_upper) != m or len(self.row_names) != m:
            raise ValueError("row bounds and names must have one entry per row")

    @property
    def num_cols(self) -> int:
        return int(self.matrix.shape[1])

    @property
    def num_rows(self) -> int:
        return int(self.matrix.shape[0])


@dataclass(frozen=True, eq=False)
class MILPSolution:
    """A value for every column."""

    x: np.ndarray


def _violation(values: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """How far each value lies outside its tolerance-widened bounds (0 when inside)."""
    with np.errstate(invalid="ignore"):
        below = np.where(np.isfinite(lower), lower - values - (ABS_TOL + REL_TOL * np.abs(lower)), 0.0)
        above = np.where(np.isfinite(upper), values - upper - (ABS_TOL + REL_TOL * np.abs(upper)), 0.0)
    return np.maximum(np.maximum(below, above), 0.0)


def _excess(values: np.ndarray, lower: np.ndarray, upper: np.ndarray, k: int) -> float:
    """The raw amount by which value k misses its bounds."""
    return float(max(lower[k] - values[k], values[k] - upper[k]))


def evaluate(instance: MILPInstance, solution: MILPSolution) -> Evaluation:
    """Column bounds, integrality and rows within the stated tolerances; objective c.x + offset."""
    x = np.asarray(solution.x, dtype=np.float64)
    if x.shape != (instance.num_cols,):
        return Evaluation.infeasible(f"x has {x.size} values for {instance.num_cols} columns")
    if not np.all(np.isfinite(x)):
        k = int(np.flatnonzero(~np.isfinite(x))[0])
        return Evaluation.infeasible(f"column {instance.col_names[k]} has the non-finite value {x[k]}")
    bounds = _violation(x, instance.col_lower, instance.col_upper)
    if np.any(bounds > 0):
        k = int(np.argmax(bounds > 0))
        amount = _excess(x, instance.col_lower, instance.col_upper, k)
        return Evaluation.infeasible(
            f"column {instance.col_names[k]} = {x[k]:g} violates its bounds "
            f"[{instance.col_lower[k]:g}, {instance.col_upper[k]:g}] by {amount:g}"
        )
    fractional = instance.integrality & (np.abs(x - np.round(x)) > INT_TOL)
    if np.any(fractional):
        k = int(np.argmax(fractional))
        return Evaluation.infeasible(f"integer column {instance.col_names[k]} = {x[k]:g} is fractional")
    activity = instance.matrix @ x
    rows = _violation(activity, instance.row_lower, instance.row_upper)
    if np.any(rows > 0):
        k = int(np.argmax(rows > 0))
        amount = _excess(activity, instance.row_lower, instance.row_upper, k)
        return Evaluation.infeasible(
            f"row {instance.row_names[k]} violated by {amount:g} (activity {activity[k]:g}, "
            f"bounds [{instance.row_lower[k]:g}, {instance.row_upper[k]:g}])"
        )
    return Evaluation.ok(float(instance.objective @ x) + instance.offset)


def write_solution_file(path: Path, instance: MILPInstance, solution: MILPSolution, objective: float | None) -> None:
    """'column value' lines."""
    path.write_text("".join(f"{name} {value!r}\n" for name, value in zip(instance.col_names, solution.x.tolist(), strict=True)))


def read_solution_file(path: Path, instance: MILPInstance) -> MILPSolution:
    index = {name: j for j, name in enumerate(instance.col_names)}
    x = np.zeros(instance.num_cols)
    for number, raw in enumerate(read_text(path).splitlines(), start=1):
        tokens = fields(raw)
        if not tokens or tokens[0].startswith("#"):
            continue
        if len(tokens) != 2 or tokens[0] not in index:
            raise FormatError(path, number, "'COLUMN VALUE' with a column of the instance")
        try:
            x[index[tokens[0]]] = real(tokens[1])
        except ValueError:
            raise FormatError(path, number, "a numeric value") from None
    return MILPSolution(x)


PROBLEM = Problem(
    name="milp",
    sense="min",
    instance_type=MILPInstance,
    solution_type=MILPSolution,
    evaluate=evaluate,
    description="mixed-integer linear program (MPS/LP); c.x, minimise or maximise as the model says",
    to_data=lambda solution: {"x": np.asarray(solution.x, dtype=np.float64).tolist()},
    from_data=lambda data: MILPSolution(np.asarray(data["x"], dtype=np.float64)),
    size=lambda instance: instance.num_cols,
    describe=lambda instance: f"{instance.num_rows} rows x {instance.num_cols} columns",
    default_collection="milp-setcover-easy",
    reference_solver="scip",
    baseline="scip",
    time_shift=10.0,
    solution_suffix=".txt",
    cases="frontierco.problems.milp.cases:milp_cases",
    sense_varies=True,
)
