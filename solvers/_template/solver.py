"""TEMPLATE: say in one line what this solver does (copied by `frontierco new-solver`)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.problems import CVRPInstance, CVRPSolution, MISInstance, MISSolution, TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver


class TemplateSolver(Solver):
    name = "template"
    problems = ("mis",)
    version = "1"
    requires = {}  # import name -> pip requirement, e.g. {"ortools": "ortools>=9.10"}

    def setup(self) -> None:
        """Untimed: load a model or warm a library up here."""

    def solve(self, instance, budget: Budget) -> Iterator[object]:
        """Yield every improving solution; the harness keeps the best feasible one it has received when
        the time limit passes and checks each one itself. Replace the trivial solutions below with your
        method (frontierco.kit.solverkit.Clock tells how much of budget.time_limit is left)."""
        rng = np.random.default_rng(budget.seed)
        if isinstance(instance, TSPInstance):
            yield TSPSolution(rng.permutation(instance.n))
        elif isinstance(instance, CVRPInstance):
            yield CVRPSolution(tuple(np.array([customer]) for customer in range(1, instance.n)))
        elif isinstance(instance, MISInstance):
            yield MISSolution(np.zeros(0, dtype=np.int64))
