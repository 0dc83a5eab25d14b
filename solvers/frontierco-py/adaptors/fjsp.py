"""FJSP: FrontierCO's ``load_data`` gives ``num_jobs``, ``num_machines`` and ``jobs``: per job, per operation, the
(machine, time) pairs with machines numbered from 1 as in the file; ``solve`` yields ``{'machine_assignments':
[1-based machine per operation], 'start_times': [...], 'makespan': ...}``, operations numbered globally, job by job.
The makespan is recomputed by the checker; the yielded one is ignored."""

from __future__ import annotations

from typing import Any

import numpy as np

from frontierco.problems import FJSPInstance, FJSPSolution

from . import Malformed, field, integers

FORM = "{'machine_assignments': [1, 3, ...], 'start_times': [0, 4, ...]} (machines numbered from 1)"


def kwargs(instance: FJSPInstance) -> dict[str, Any]:
    machines, times, option_ptr = instance.machines.tolist(), instance.times.tolist(), instance.option_ptr.tolist()
    operations = [[(machines[k] + 1, times[k]) for k in range(option_ptr[o], option_ptr[o + 1])] for o in range(instance.num_operations)]
    job_ptr = instance.job_ptr.tolist()
    jobs = [operations[job_ptr[j] : job_ptr[j + 1]] for j in range(instance.num_jobs)]
    return {"num_jobs": instance.num_jobs, "num_machines": instance.num_machines, "jobs": jobs}


def solution(instance: FJSPInstance, data: object) -> FJSPSolution:
    machines = integers(field(data, "machine_assignments", FORM), "'machine_assignments'") - 1
    starts = field(data, "start_times", FORM)
    if not isinstance(starts, list | tuple | np.ndarray):
        raise Malformed(f"'start_times' must be a list of numbers, got a {type(starts).__name__}")
    try:
        values = np.asarray(starts, dtype=np.float64)
    except (TypeError, ValueError):
        raise Malformed(f"'start_times' must be a flat list of numbers, got {str(starts)[:60]}") from None
    if values.ndim != 1:
        raise Malformed("'start_times' must be a flat list of numbers")
    return FJSPSolution(machines, values)
