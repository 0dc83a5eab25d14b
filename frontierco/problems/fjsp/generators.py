"""Seeded flexible job shop instances in the sizes of FrontierCO's FJSP generator (its SD2 scheme,
after Song et al. 2023).

``fjsp-random``: ``jobs`` jobs of ``operations`` operations each (0: as many as machines) on ``machines``
machines; each operation draws how many machines are eligible, uniformly in ``min_eligible..max_eligible``
(default 1..machines), then which ones uniformly, and a processing time per eligible machine uniformly in
``low..high`` (default 1..99). FrontierCO's defaults are 20 jobs and 10 machines; its README example uses
30 operations per job.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from frontierco.problems.common.generator import Generated, Range
from frontierco.problems.fjsp.fjsp import FJSPInstance


def fjsp_random(
    name: str,
    seed: int,
    jobs: Annotated[int, Range(1, 100_000)] = 20,
    machines: Annotated[int, Range(1, 10_000)] = 10,
    operations: Annotated[int, Range(0, 10_000)] = 0,
    low: Annotated[int, Range(0, 10**9)] = 1,
    high: Annotated[int, Range(0, 10**9)] = 99,
    min_eligible: Annotated[int, Range(1, 10_000)] = 1,
    max_eligible: Annotated[int | None, Range(1, 10_000)] = None,
) -> Generated:
    rng = np.random.default_rng(seed)
    per_job = operations or machines
    most = machines if max_eligible is None else max_eligible
    if not 1 <= min_eligible <= most <= machines or not 0 <= low <= high:
        raise ValueError(
            f"need 1 <= min_eligible <= max_eligible <= machines and 0 <= low <= high, got {min_eligible}, {most}, {low}, {high}"
        )
    lists = []
    for _ in range(jobs):
        job = []
        for _ in range(per_job):
            count = int(rng.integers(min_eligible, most + 1))
            chosen = np.sort(rng.permutation(machines)[:count])
            times = rng.integers(low, high + 1, size=count)
            job.append(list(zip(chosen.tolist(), times.tolist(), strict=True)))
        lists.append(job)
    return Generated(FJSPInstance.from_lists(name, machines, lists))
