"""HiGHS branch-and-cut for MILP, and for MIS through its clique-cover MILP."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from frontierco.kit.formulations import as_milp
from frontierco.kit.solverkit import Clock, stream
from frontierco.problems import CFLPInstance, CPMPInstance, MDSInstance, MILPInstance, MISInstance
from frontierco.problems.milp.mps import to_highs
from frontierco.solver import Budget, Proven, Solver


class HiGHS(Solver):
    name = "highs"
    problems = ("milp", "mis", "mds", "cflp", "cpmp")
    version = "1"
    deterministic = True
    requires = {"highspy": "highspy>=1.7"}

    def solve(self, instance: MILPInstance | MISInstance | MDSInstance | CFLPInstance | CPMPInstance, budget: Budget) -> Iterator[object]:
        import highspy

        clock = Clock(budget.time_limit, margin=0.05)
        model, wrap = as_milp(instance)
        highs = to_highs(model)
        highs.setOptionValue("time_limit", clock.left())
        highs.setOptionValue("random_seed", budget.seed)
        highs.setOptionValue("threads", budget.threads)
        status: list[Any] = []

        def run(emit: Callable[[Any], None]) -> None:
            highs.cbMipImprovingSolution.subscribe(lambda event: emit(np.array(event.data_out.mip_solution, dtype=np.float64)))
            highs.run()
            status.append(highs.getModelStatus())
            if status[0] == highspy.HighsModelStatus.kOptimal:
                emit(("optimal", np.array(highs.getSolution().col_value, dtype=np.float64)))

        for item in stream(run):
            if isinstance(item, tuple):
                yield Proven(wrap(item[1]))
            else:
                yield wrap(item)
