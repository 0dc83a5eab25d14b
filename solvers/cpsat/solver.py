"""OR-Tools CP-SAT for maximum independent set."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from frontierco.kit.solverkit import Clock, cpsat_incumbents
from frontierco.problems import MISInstance, MISSolution
from frontierco.solver import Budget, Proven, Solver


class CPSAT(Solver):
    name = "cpsat"
    problems = ("mis",)
    version = "1"
    deterministic = True
    requires = {"ortools": "ortools>=9.10"}

    def solve(self, instance: MISInstance, budget: Budget) -> Iterator[object]:
        from ortools.sat.python import cp_model

        clock = Clock(budget.time_limit, margin=0.05)
        model = cp_model.CpModel()
        x = [model.new_bool_var(f"x{v}") for v in range(instance.n)]
        for u, v in instance.edges.tolist():
            model.add_bool_or([x[u].Not(), x[v].Not()])
        model.maximize(sum(x))
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = clock.left()
        solver.parameters.num_workers = budget.threads
        solver.parameters.random_seed = budget.seed

        def chosen(value: Callable[[Any], int]) -> MISSolution:
            return MISSolution(np.flatnonzero([value(var) for var in x]))

        for kind, solution in cpsat_incumbents(solver, model, chosen):
            yield Proven(solution) if kind == "optimal" else solution
