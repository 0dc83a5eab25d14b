"""The shortest-path heuristic for Steiner trees (Takahashi-Matsuyama), improved by key-path exchange and
Steiner-vertex insertion and elimination, restarted on perturbed weights (``frontierco.kit.steiner_search``)."""

from __future__ import annotations

from collections.abc import Iterator

from frontierco.kit.solverkit import Clock
from frontierco.kit.steiner_search import iterated_search, warm_up
from frontierco.problems import STPInstance, STPSolution
from frontierco.solver import Budget, Proven, Solver


class ShortestPathHeuristic(Solver):
    name = "stp-sph"
    problems = ("stp",)
    version = "1"
    deterministic = True
    requires = {"numba": "numba>=0.59"}

    def setup(self) -> None:
        warm_up()

    def solve(self, instance: STPInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        deadline = clock.started + budget.time_limit * (1.0 - clock.margin)
        for tree in iterated_search(instance, budget.seed, deadline):
            solution = STPSolution(instance.edges[tree])
            yield Proven(solution) if len(instance.terminals) <= 2 else solution  # no tree, or a shortest path: optimal
