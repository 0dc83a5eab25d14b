"""Flexible job shop files: the standard .fjs form (Brandimarte 1993; Behnke & Geiger 2012 use it) and
Naderi's text form (Naderi, Ruiz & Roshanaei 2023, ``.txt``), both read into one FJSPInstance.

.fjs: line 1 ``jobs machines [average machines per operation]``; then one line per job: its number of
operations, and for each operation the number k of eligible machines followed by k pairs ``machine time``
(machines 1-based).

Naderi: line 1 the number of jobs, line 2 the number of machines, line 3 the number of operations of each
job; then one row per operation (job by job, in order) with a processing time per machine, 0 meaning the
machine is not eligible.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.text import check_declared, read_text
from frontierco.problems.common.tokens import fields, wholes
from frontierco.problems.fjsp.fjsp import MAX_TIME, FJSPInstance


def _lines(path: Path) -> tuple[list[tuple[int, list[str]]], int]:
    """(line number, tokens) of every non-blank line, and the length of the file's text."""
    text = read_text(path)
    return [(number, fields(line)) for number, line in enumerate(text.splitlines(), start=1) if line.strip()], len(text)


def _at_most_max_time(path: Path, number: int, where: str, times: list[int]) -> None:
    """Refuse a processing time over ``MAX_TIME`` (int64 holds it, a float start time exactly)."""
    if max(times) > MAX_TIME:
        raise FormatError(path, number, f"{where}: processing times of at most 2^53 (exact as start times), got {max(times)}")


def _instance(path: Path, machines: int, jobs: list[list[list[tuple[int, int]]]]) -> FJSPInstance:
    """The instance, once its longest schedule (every operation on its slowest machine, one after another) is
    exact in float64: no start or makespan of any schedule without idle time then loses a unit."""
    if sum(max(time for _, time in op) for job in jobs for op in job) > MAX_TIME:
        raise FormatError(path, 0, "processing times whose sum over the operations (each at its longest) is at most 2^53")
    return FJSPInstance.from_lists(path.name.split(".")[0], machines, jobs)


def _header(path: Path, lines: list[tuple[int, list[str]]], size: int) -> tuple[int, int]:
    if not lines:
        raise FormatError(path, 0, "a first line 'jobs machines [average machines per operation]'")
    number, tokens = lines[0]
    if len(tokens) not in (2, 3):
        raise FormatError(path, number, "a first line 'jobs machines [average machines per operation]'")
    jobs, machines = wholes(tokens[:2], path, number, "whole numbers of jobs and machines on the first line")
    if jobs < 1 or machines < 1:
        raise FormatError(path, number, f"at least one job and one machine, got {jobs} jobs and {machines} machines")
    check_declared(path, number, machines, "machines", size)
    return jobs, machines


def _fjs_job(path: Path, number: int, values: list[int], machines: int, job: int) -> list[list[tuple[int, int]]]:
    if not values or values[0] < 1:
        raise FormatError(path, number, f"job {job}: a number of operations >= 1 first")
    operations, at = [], 1
    for op in range(1, values[0] + 1):
        if at >= len(values):
            raise FormatError(path, number, f"job {job}: {values[0]} operations, but the line ends in operation {op}")
        k = values[at]
        if k < 1:
            raise FormatError(path, number, f"job {job}, operation {op}: at least one eligible machine, got {k}")
        pairs = values[at + 1 : at + 1 + 2 * k]
        if len(pairs) != 2 * k:
            raise FormatError(path, number, f"job {job}, operation {op}: {k} 'machine time' pairs, but the line ends")
        options = list(zip(pairs[0::2], pairs[1::2], strict=True))
        for machine, time in options:
            if not 1 <= machine <= machines:
                raise FormatError(path, number, f"job {job}, operation {op}: machine {machine} is not in 1..{machines}")
            if time < 0:
                raise FormatError(path, number, f"job {job}, operation {op}: processing time {time} is negative")
        _at_most_max_time(path, number, f"job {job}, operation {op}", pairs[1::2])
        if len({m for m, _ in options}) != k:
            raise FormatError(path, number, f"job {job}, operation {op}: a machine listed twice")
        operations.append([(machine - 1, time) for machine, time in options])
        at += 1 + 2 * k
    if at != len(values):
        raise FormatError(path, number, f"job {job}: {values[0]} operations, then {len(values) - at} numbers too many")
    return operations


def read_fjs(path: str | Path) -> FJSPInstance:
    """A standard .fjs file; anything that does not follow the form is a FormatError with its line."""
    path = Path(path)
    lines, size = _lines(path)
    jobs, machines = _header(path, lines, size)
    if len(lines) != jobs + 1:
        at = lines[jobs + 1][0] if len(lines) > jobs + 1 else 0
        raise FormatError(path, at, f"one line per job after the first: {jobs} jobs, found {len(lines) - 1} lines")
    expected = "whole numbers: operations, then per operation k and k 'machine time' pairs"
    return _instance(
        path,
        machines,
        [_fjs_job(path, number, wholes(tokens, path, number, expected), machines, j) for j, (number, tokens) in enumerate(lines[1:], 1)],
    )


def read_naderi(path: str | Path) -> FJSPInstance:
    """Naderi's text form (``.txt``); anything else, or lying numbers, is a FormatError with its line."""
    path = Path(path)
    lines, _ = _lines(path)
    form = "Naderi's flexible job shop text form: jobs, machines, operations per job, then a row of machine times per operation"
    if len(lines) < 3 or len(lines[0][1]) != 1 or len(lines[1][1]) != 1:
        raise FormatError(path, lines[0][0] if lines else 0, form)
    jobs = wholes(lines[0][1], path, lines[0][0], form)[0]
    machines = wholes(lines[1][1], path, lines[1][0], form)[0]
    if jobs < 1 or machines < 1:
        raise FormatError(path, lines[0][0], f"at least one job and one machine, got {jobs} jobs and {machines} machines")
    number, tokens = lines[2]
    counts = wholes(tokens, path, number, "the number of operations of each job (whole numbers)")
    if len(counts) != jobs or min(counts) < 1:
        raise FormatError(path, number, f"{jobs} numbers of operations (each >= 1), got {len(counts)}: {' '.join(tokens[:5])} ...")
    rows = lines[3:]
    if len(rows) != sum(counts):
        at = rows[sum(counts)][0] if len(rows) > sum(counts) else 0
        raise FormatError(path, at, f"one row per operation: {sum(counts)} operations, found {len(rows)} rows")
    operations = []
    for k, (number, tokens) in enumerate(rows):
        times = wholes(tokens, path, number, f"{machines} whole processing times (0: machine not eligible)")
        if len(times) != machines:
            raise FormatError(path, number, f"{machines} processing times (one per machine), got {len(times)}")
        if min(times) < 0:
            raise FormatError(path, number, f"processing times >= 0 (0: not eligible), got {min(times)}")
        _at_most_max_time(path, number, f"operation row {k + 1}", times)
        if max(times) == 0:
            raise FormatError(path, number, f"operation row {k + 1}: at least one eligible machine (a time > 0)")
        operations.append([(m, t) for m, t in enumerate(times) if t > 0])
    ends = np.cumsum(counts)
    return _instance(path, machines, [operations[end - count : end] for count, end in zip(counts, ends.tolist(), strict=True)])


def fjs_suffix(instance: FJSPInstance) -> str:
    return ".fjs"


def write_fjs(path: str | Path, instance: FJSPInstance) -> None:
    """The standard .fjs form (the third number of line 1 is the average number of eligible machines)."""
    average = len(instance.machines) / instance.num_operations
    lines = [f"{instance.num_jobs} {instance.num_machines} {average:.4g}"]
    for job in instance.lists():
        parts = [str(len(job))]
        for op in job:
            parts.append(str(len(op)))
            parts.extend(f"{machine + 1} {time}" for machine, time in op)
        lines.append(" ".join(parts))
    Path(path).write_text("\n".join(lines) + "\n")
