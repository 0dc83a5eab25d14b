"""CHILS (concurrent hybrid iterated local search) for maximum independent set."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock, static_greedy_independent_set
from frontierco.problems import MISInstance, MISSolution
from frontierco.solver import Budget, Solver


class CHILS(Solver):
    name = "chils"
    problems = ("mis",)
    version = "1"
    requires = {"chils": "chils>=1.0"}

    def solve(self, instance: MISInstance, budget: Budget) -> Iterator[MISSolution]:
        import chils

        clock = Clock(budget.time_limit, margin=0.1)
        yield MISSolution(static_greedy_independent_set(instance))
        if instance.m == 0:
            return
        solver = chils.CHILS()
        for _ in range(instance.n):
            solver.add_vertex(1)
        for u, v in instance.edges.tolist():
            solver.add_edge(u, v)
        solver.run_full(clock.left(), int(self.params["concurrent"]), budget.seed)
        yield MISSolution(np.array([v for v in range(instance.n) if solver.get_solution_vertex_configuration(v)], dtype=np.int64))
