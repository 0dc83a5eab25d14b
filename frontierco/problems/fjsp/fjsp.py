"""Flexible job shop scheduling: jobs of ordered operations, each processed on one of its eligible machines
(with that machine's time), no two operations at once on a machine, no preemption; minimise the makespan.

Operations are numbered globally, job by job and in order within a job (as FrontierCO numbers them); machines
and operations are 0-based here and 1-based in files and messages, as in .fjs files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import as_index_array
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import fields, real, whole

MAX_TIME = 2**53  # the makespan and every start are float64 in solutions: exact only up to 2^53


@dataclass(frozen=True, eq=False)
class FJSPInstance:
    """``num_machines`` machines; job j's operations are ``job_ptr[j]:job_ptr[j + 1]``; operation o may run on
    ``machines[option_ptr[o]:option_ptr[o + 1]]`` taking the matching ``times`` (integers >= 0)."""

    name: str
    num_machines: int
    job_ptr: np.ndarray
    option_ptr: np.ndarray
    machines: np.ndarray
    times: np.ndarray

    def __post_init__(self) -> None:
        if self.num_machines < 1:
            raise ValueError("a flexible job shop needs at least one machine")
        if self.job_ptr.ndim != 1 or len(self.job_ptr) < 2 or self.job_ptr[0] != 0 or np.any(np.diff(self.job_ptr) < 1):
            raise ValueError("every job needs at least one operation (job_ptr must start at 0 and increase)")
        if len(self.option_ptr) != self.job_ptr[-1] + 1 or self.option_ptr[0] != 0:
            raise ValueError("option_ptr needs one entry per operation plus one, starting at 0")
        counts = np.diff(self.option_ptr)
        if np.any(counts < 1):
            job, op = self.locate(int(np.flatnonzero(counts < 1)[0]))
            raise ValueError(f"operation {op + 1} of job {job + 1} has no eligible machine")
        if self.machines.shape != self.times.shape or len(self.machines) != self.option_ptr[-1]:
            raise ValueError("machines and times need one entry per (operation, eligible machine)")
        if np.any((self.machines < 0) | (self.machines >= self.num_machines)):
            raise ValueError(f"machine outside 1..{self.num_machines}")
        if np.any(self.times < 0):
            job, op = self.locate(int(np.searchsorted(self.option_ptr, np.flatnonzero(self.times < 0)[0], side="right") - 1))
            raise ValueError(f"operation {op + 1} of job {job + 1} has a negative processing time")
        for o in range(self.num_operations):
            options = self.machines[self.option_ptr[o] : self.option_ptr[o + 1]]
            if len(np.unique(options)) != len(options):
                job, op = self.locate(o)
                raise ValueError(f"operation {op + 1} of job {job + 1} lists a machine twice")

    @classmethod
    def from_lists(cls, name: str, num_machines: int, jobs: Sequence[Sequence[Sequence[tuple[int, int]]]]) -> FJSPInstance:
        """From jobs as lists of operations, each a list of (0-based machine, time) pairs."""
        ops = [op for job in jobs for op in job]
        pairs = [pair for op in ops for pair in op]
        return cls(
            name,
            num_machines,
            np.concatenate([[0], np.cumsum([len(job) for job in jobs])]).astype(np.int64),
            np.concatenate([[0], np.cumsum([len(op) for op in ops])]).astype(np.int64),
            np.array([m for m, _ in pairs], dtype=np.int64),
            np.array([t for _, t in pairs], dtype=np.int64),
        )

    @property
    def num_jobs(self) -> int:
        return len(self.job_ptr) - 1

    @property
    def num_operations(self) -> int:
        return int(self.job_ptr[-1])

    @cached_property
    def job_of(self) -> np.ndarray:
        """The job of each operation."""
        return np.repeat(np.arange(self.num_jobs), np.diff(self.job_ptr))

    def locate(self, operation: int) -> tuple[int, int]:
        """(job, position within the job) of a global operation index."""
        job = int(self.job_of[operation])
        return job, operation - int(self.job_ptr[job])

    def options(self, operation: int) -> tuple[np.ndarray, np.ndarray]:
        """(eligible machines, their processing times) of one operation."""
        span = slice(self.option_ptr[operation], self.option_ptr[operation + 1])
        return self.machines[span], self.times[span]

    def lists(self) -> list[list[list[tuple[int, int]]]]:
        """Jobs as lists of operations, each a list of (0-based machine, time) pairs (for solvers)."""
        return [
            [list(zip(*(a.tolist() for a in self.options(o)), strict=True)) for o in range(self.job_ptr[j], self.job_ptr[j + 1])]
            for j in range(self.num_jobs)
        ]


@dataclass(frozen=True, eq=False)
class FJSPSolution:
    """The machine (0-based) and start time of every operation, in global operation order."""

    machines: np.ndarray
    starts: np.ndarray


def _number(value: float) -> str:
    """A time as written: whole numbers without a decimal point, others in full."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _name(instance: FJSPInstance, operation: int) -> str:
    job, op = instance.locate(operation)
    return f"operation {op + 1} of job {job + 1}"


def evaluate(instance: FJSPInstance, solution: FJSPSolution) -> Evaluation:
    """Eligible machine with its time for every operation, job order, no overlap on a machine; the makespan
    is the last completion time, computed here."""
    n = instance.num_operations
    machines, problem = as_index_array(solution.machines, "machine assignment")
    if machines is None:
        return Evaluation.infeasible(problem)
    starts = np.asarray(solution.starts, dtype=np.float64) if np.asarray(solution.starts).ndim == 1 else None
    if starts is None:
        return Evaluation.infeasible("start times must be a flat list of numbers")
    if len(machines) != n or len(starts) != n:
        return Evaluation.infeasible(
            f"{len(machines)} machines and {len(starts)} start times for {n} operations: one of each per operation"
        )
    if not np.all(np.isfinite(starts)) or np.any(starts < 0):
        bad = int(np.flatnonzero(~np.isfinite(starts) | (starts < 0))[0])
        return Evaluation.infeasible(f"{_name(instance, bad)} starts at {starts[bad]:g}, not a time >= 0")
    durations = np.empty(n, dtype=np.float64)
    for o in range(n):
        eligible, times = instance.options(o)
        at = np.flatnonzero(eligible == machines[o])
        if not at.size:
            listed = ", ".join(str(int(m) + 1) for m in eligible)
            return Evaluation.infeasible(f"eligible machine: {_name(instance, o)} is on machine {machines[o] + 1}, not one of {listed}")
        durations[o] = times[at[0]]
    ends = starts + durations
    if np.any(ends > MAX_TIME):  # past 2^53 a float absorbs a processing time: overlaps would pass unseen
        bad = int(np.flatnonzero(ends > MAX_TIME)[0])
        return Evaluation.infeasible(f"{_name(instance, bad)} ends at {ends[bad]:g}, after 2^53 (end times exact as floats)")
    for j in range(instance.num_jobs):
        for o in range(instance.job_ptr[j] + 1, instance.job_ptr[j + 1]):
            if starts[o] < ends[o - 1]:
                return Evaluation.infeasible(
                    f"job precedence: {_name(instance, o)} starts at {_number(starts[o])}, before operation {o - instance.job_ptr[j]} "
                    f"of the same job ends at {_number(ends[o - 1])}"
                )
    busy = np.flatnonzero(durations > 0)  # an operation of length 0 occupies no time
    order = busy[np.lexsort((starts[busy], machines[busy]))]
    for previous, current in zip(order[:-1], order[1:], strict=True):
        if machines[previous] == machines[current] and starts[current] < ends[previous]:
            return Evaluation.infeasible(
                f"no overlap: on machine {machines[current] + 1}, {_name(instance, current)} starts at {_number(starts[current])}, "
                f"before {_name(instance, previous)} ends at {_number(ends[previous])}"
            )
    return Evaluation.ok(float(ends.max()) if n else 0.0)


def write_solution_file(path: Path, instance: FJSPInstance, solution: FJSPSolution, objective: float | None) -> None:
    """One line per operation, 'job operation machine start' (1-based numbers), in global operation order."""
    lines = [f"# {instance.name}" + ("" if objective is None else f" makespan {_number(objective)}"), "# job operation machine start"]
    for o in range(instance.num_operations):
        job, op = instance.locate(o)
        lines.append(f"{job + 1} {op + 1} {int(solution.machines[o]) + 1} {_number(solution.starts[o])}")
    path.write_text("\n".join(lines) + "\n")


def read_solution_file(path: Path, instance: FJSPInstance) -> FJSPSolution:
    machines = np.full(instance.num_operations, -1, dtype=np.int64)
    starts = np.zeros(instance.num_operations, dtype=np.float64)
    expected = "'job operation machine start' (1-based job, operation and machine; start >= 0)"
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        tokens = fields(line.split("#", 1)[0])
        if not tokens:
            continue
        try:
            job, op, machine, start = whole(tokens[0]), whole(tokens[1]), whole(tokens[2]), real(tokens[3])
        except (ValueError, IndexError):
            raise FormatError(path, number, expected) from None
        if len(tokens) != 4 or not 1 <= job <= instance.num_jobs or not 1 <= op <= instance.job_ptr[job] - instance.job_ptr[job - 1]:
            raise FormatError(path, number, f"{expected}, for one of the {instance.num_jobs} jobs and its operations")
        o = int(instance.job_ptr[job - 1]) + op - 1
        if not 1 <= machine <= instance.num_machines:
            raise FormatError(path, number, f"operation {op} of job {job}: machine {machine} is not in 1..{instance.num_machines}")
        if machines[o] != -1:
            raise FormatError(path, number, f"each operation once, but operation {op} of job {job} is listed again")
        machines[o], starts[o] = machine - 1, start
    missing = np.flatnonzero(machines == -1)
    if missing.size:
        raise FormatError(path, 0, f"a line for every operation; {_name(instance, int(missing[0]))} has none")
    return FJSPSolution(machines, starts)


def _data(solution: FJSPSolution) -> dict[str, list[float]]:
    return {"machines": np.asarray(solution.machines).tolist(), "starts": np.asarray(solution.starts).tolist()}


def _from_data(data: dict[str, list[float]]) -> FJSPSolution:
    # the machines as sent (the checker refuses what is not a whole number), never cast: 1.5 would become machine 1
    return FJSPSolution(np.asarray(data["machines"]), np.asarray(data["starts"], dtype=np.float64))


PROBLEM = Problem(
    name="fjsp",
    sense="min",
    instance_type=FJSPInstance,
    solution_type=FJSPSolution,
    evaluate=evaluate,
    description="flexible job shop scheduling; makespan, minimise",
    to_data=_data,
    from_data=_from_data,
    size=lambda instance: instance.num_operations,
    size_unit="operations",
    describe=lambda instance: f"{instance.num_jobs} jobs, {instance.num_machines} machines, {instance.num_operations} operations",
    default_collection="fjsp-random-small",
    reference_solver="fjsp-cpsat",
    baseline="fjsp-dispatch",
    time_shift=1.0,
    solution_suffix=".sol",
    cases="frontierco.problems.fjsp.cases:fjsp_cases",
    frontierco_folder="FJSP",
)
