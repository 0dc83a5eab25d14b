"""OR-Tools CP-SAT on the set-cover model of minimum dominating set, hinted with an independent dominating set."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from frontierco.kit.solverkit import Clock, cpsat_incumbents, independent_dominating_set
from frontierco.problems import MDSInstance, MDSSolution
from frontierco.solver import Bound, Budget, Proven, Solver


class MDSCPSAT(Solver):
    name = "mds-cpsat"
    problems = ("mds",)
    version = "2"
    deterministic = True
    requires = {"ortools": "ortools>=9.10"}

    def setup(self) -> None:
        from ortools.sat.python import cp_model  # noqa: F401  (imported untimed: seconds on a loaded machine)

    def solve(self, instance: MDSInstance, budget: Budget) -> Iterator[object]:
        from ortools.sat.python import cp_model

        clock = Clock(budget.time_limit, margin=0.05)
        adjacency = instance.adjacency
        indptr, indices = adjacency.indptr.tolist(), adjacency.indices.tolist()
        model = cp_model.CpModel()
        x = [model.new_bool_var(f"x{v}") for v in range(instance.n)]
        for v in range(instance.n):  # N[v] must hold a chosen vertex
            model.add_bool_or([x[v], *(x[u] for u in indices[indptr[v] : indptr[v + 1]])])
        model.minimize(sum(x))
        degree = np.diff(adjacency.indptr)
        key = degree + np.random.default_rng(budget.seed).random(instance.n)
        hint = np.zeros(instance.n, dtype=bool)
        hint[independent_dominating_set(instance.n, instance.edges, key)] = True
        for v, value in enumerate(hint.tolist()):  # a dominating set to start from (CP-SAT reports it once presolved)
            model.add_hint(x[v], value)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = clock.left()
        solver.parameters.num_workers = budget.threads
        solver.parameters.random_seed = budget.seed
        solver.parameters.linearization_level = 2  # the covering rows in the LP: far better sets and bounds early

        def chosen(value: Callable[[Any], int]) -> MDSSolution:
            return MDSSolution(np.flatnonzero([value(var) for var in x]))

        for kind, item in cpsat_incumbents(solver, model, chosen, lower_bound=0.0):
            if kind == "bound":
                yield Bound(float(np.ceil(item - 1e-6)))
            else:
                yield Proven(item) if kind == "optimal" else item
