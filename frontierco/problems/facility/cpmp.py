"""Capacitated p-median, as FrontierCO evaluates it.

Points 0..n-1 in the plane, each with a capacity (used only if it becomes a median) and a demand. A solution
picks exactly p distinct medians among the points and assigns every point to one median; the demand assigned
to a median may not exceed its capacity (tolerance 1e-6). A median need not serve itself (FrontierCO's
``eval_func`` does not ask it to). The cost of a point is the Euclidean distance to its median **rounded down**
(``math.floor(math.sqrt(dx * dx + dy * dy))``, as FrontierCO's ``data/CPMP/config.py``); the objective is the sum.
FrontierCO's published reference values for its test files carry decimals, i.e. they were computed with
unrounded distances, so they are not values of this objective.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import as_index_array, first_out_of_range, first_repeated, times
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import fields, whole

CAP_TOL = 1e-6


def floor_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """floor of the Euclidean distance between the rows of ``a`` and ``b`` (broadcast), as FrontierCO rounds it."""
    delta = a - b
    return np.floor(np.sqrt(delta[..., 0] * delta[..., 0] + delta[..., 1] * delta[..., 1]))


@dataclass(frozen=True, eq=False)
class CPMPInstance:
    """n points (coordinates (n, 2), capacity, demand) and the number p of medians."""

    name: str
    p: int
    coords: np.ndarray
    capacity: np.ndarray
    demand: np.ndarray

    def __post_init__(self) -> None:
        if self.coords.ndim != 2 or self.coords.shape[1] != 2 or len(self.coords) < 1:
            raise ValueError("coordinates must have shape (n, 2) with n >= 1")
        n = len(self.coords)
        if self.capacity.shape != (n,) or self.demand.shape != (n,):
            raise ValueError(f"capacity and demand must have one entry per point ({n})")
        if not (np.all(np.isfinite(self.coords)) and np.all(np.isfinite(self.capacity)) and np.all(np.isfinite(self.demand))):
            raise ValueError("coordinates, capacities and demands must be finite")
        if np.any(self.capacity < 0) or np.any(self.demand < 0):
            raise ValueError("capacities and demands must be non-negative")
        if isinstance(self.p, bool) or not isinstance(self.p, int | np.integer):
            raise ValueError(f"p must be a whole number of medians, got {self.p!r}")
        if not 1 <= self.p <= n:
            raise ValueError(f"p must be in 1..{n}, got {self.p}")

    @property
    def n(self) -> int:
        return int(len(self.coords))

    def distances_to(self, medians: np.ndarray) -> np.ndarray:
        """(n, len(medians)) rounded-down distances from every point to each of ``medians``."""
        return floor_distance(self.coords[:, None, :], self.coords[None, np.asarray(medians), :])


@dataclass(frozen=True, eq=False)
class CPMPSolution:
    """The p medians and, for every point, the median it is assigned to (point indices)."""

    medians: np.ndarray
    assignment: np.ndarray


def evaluate(instance: CPMPInstance, solution: CPMPSolution) -> Evaluation:
    """Exactly p distinct medians, every point assigned to one of them, capacities respected; the objective is
    recomputed: the sum of rounded-down distances (points numbered from 1)."""
    n = instance.n
    medians, problem = as_index_array(solution.medians, "medians")
    if medians is None:
        return Evaluation.infeasible(problem)
    bad = first_out_of_range(medians, 0, n - 1)
    if bad is not None:
        return Evaluation.infeasible(f"median {bad + 1} is not a point in 1..{n} (numbered from 1)")
    repeated = first_repeated(medians, n)
    if repeated is not None:
        return Evaluation.infeasible(f"median {repeated[0] + 1} listed {times(repeated[1])}")
    if medians.size != instance.p:
        return Evaluation.infeasible(f"{medians.size} medians, but the instance asks for exactly p = {instance.p}")
    assignment, problem = as_index_array(solution.assignment, "assignment")
    if assignment is None:
        return Evaluation.infeasible(problem)
    if assignment.size != n:
        return Evaluation.infeasible(f"the assignment names {assignment.size} medians, one per point is {n}")
    bad = first_out_of_range(assignment, 0, n - 1)
    if bad is not None:
        return Evaluation.infeasible(f"a point is assigned to {bad + 1}, not a point in 1..{n}")
    is_median = np.zeros(n, dtype=bool)
    is_median[medians] = True
    stray = np.flatnonzero(~is_median[assignment])
    if stray.size:
        i = stray[0]
        return Evaluation.infeasible(f"point {i + 1} is assigned to {assignment[i] + 1}, which is not a median")
    load = np.bincount(assignment, weights=instance.demand, minlength=n)
    over = np.flatnonzero(load > instance.capacity + CAP_TOL)
    if over.size:
        j = over[0]
        return Evaluation.infeasible(f"median {j + 1} serves demand {load[j]:.9g}, over its capacity {instance.capacity[j]:.9g}")
    return Evaluation.ok(float(floor_distance(instance.coords, instance.coords[assignment]).sum()))


def write_solution_file(path: Path, instance: CPMPInstance, solution: CPMPSolution, objective: float | None) -> None:
    """'medians j1 ... jp', then one line per point: the median it is assigned to (numbered from 1)."""
    lines = ["medians " + " ".join(str(int(j) + 1) for j in np.sort(solution.medians))]
    lines += [str(int(j) + 1) for j in solution.assignment]
    path.write_text("\n".join(lines) + "\n")


def read_solution_file(path: Path, instance: CPMPInstance) -> CPMPSolution:
    lines = [(k, fields(raw)) for k, raw in enumerate(read_text(path).splitlines(), start=1) if raw.strip()]
    if not lines or lines[0][1][0] != "medians":
        raise FormatError(path, lines[0][0] if lines else 0, "a first line 'medians POINT ...' (numbered from 1)")
    values = []
    for number, tokens in lines:
        try:
            values.append([whole(t) - 1 for t in (tokens[1:] if number == lines[0][0] else tokens)])
        except ValueError:
            raise FormatError(path, number, "point numbers (integers from 1)") from None
        if number != lines[0][0] and len(tokens) != 1:
            raise FormatError(path, number, "one median number per line")
    return CPMPSolution(np.array(values[0], dtype=np.int64), np.array([v[0] for v in values[1:]], dtype=np.int64))


PROBLEM = Problem(
    name="cpmp",
    sense="min",
    instance_type=CPMPInstance,
    solution_type=CPMPSolution,
    evaluate=evaluate,
    description="capacitated p-median; sum of rounded-down Euclidean distances to the medians, minimise",
    to_data=lambda s: {"medians": np.asarray(s.medians).tolist(), "assignment": np.asarray(s.assignment).tolist()},
    from_data=lambda d: CPMPSolution(np.asarray(d["medians"]), np.asarray(d["assignment"])),
    size=lambda instance: instance.n,
    describe=lambda instance: f"{instance.n} points, p = {instance.p}",
    default_collection="cpmp-easy",
    reference_solver="cpmp-ls",
    baseline="highs",
    time_shift=1.0,
    solution_suffix=".txt",
    cases="frontierco.problems.facility.cases:cpmp_cases",
    frontierco_folder="CPMP",
)
