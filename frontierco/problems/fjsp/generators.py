"""Seeded flexible job shop instances in the sizes of FrontierCO's FJSP generator (its SD2 scheme,
after Song et al. 2023).

``fjsp-random``: ``jobs`` jobs of ``operations`` operations each (0: as many as machines) on ``machines``
machines; each operation draws how many machines are eligible, uniformly in ``min_eligible..max_eligible``
(default 1..machines), then which ones uniformly, and a processing time per eligible machine uniformly in
``low..high`` (default 1..99). FrontierCO's defaults are 20 jobs and 10 machines; its README example uses
30 operations per job.
"""

from __future__ import annotations

import numpy as np

from frontierco.problems.common.generator import Generated
from frontierco.problems.fjsp.fjsp import FJSPInstance


def fjsp_random(
    name: str,
    seed: int,
    jobs: int = 20,
    machines: int = 10,
    operations: int = 0,
    low: int = 1,
    high: int = 99,
    min_eligible: int = 1,
    max_eligible: int | None = None,
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
