"""Local search on the solutions of learned routing solvers (RRNCO, DeepACO) with PyVRP's operators, through
PyVRP's public search API (``pyvrp.search.LocalSearch`` with every operator of ``pyvrp.search.OPERATORS`` the
instance supports; PyVRP is MIT-licensed), and PyVRP's iterated local search (``pyvrp.solve``), from PyVRP's own start (the
``pyvrp`` solver) or warm-started from one of their solutions. An ATSP tour is searched as one route of a single
vehicle from node 0, without capacity.

PyVRP works on integer distances (the suite's ``integer_matrix`` scaling); every result is costed here again
with the instance's own distances, and only feasible solutions leave this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from frontierco.kit.solverkit import pyvrp_data
from frontierco.problems import CVRPInstance, CVRPTWInstance, TSPInstance

# penalty per unit of excess load or time warp, in multiples of the largest (integer) distance: high enough that
# a search started from a feasible solution never prefers an infeasible one
PENALTY_FACTOR = 10.0


class RouteSearch:
    """Exhaustive local search and perturb-then-search moves around a solution of one instance."""

    def __init__(self, instance: TSPInstance | CVRPInstance, seed: int):
        import pyvrp
        from pyvrp.search import OPERATORS, LocalSearch, PerturbationManager, PerturbationParams, compute_neighbours

        self.is_tsp = isinstance(instance, TSPInstance)
        as_vrp = (
            instance
            if isinstance(instance, CVRPInstance)
            else CVRPInstance(instance.name, instance.weights, np.zeros(instance.n, dtype=np.int64), 0, num_vehicles=1)
        )
        self.data = pyvrp_data(as_vrp)
        self.matrix = instance.weights.full_matrix()
        self.search = LocalSearch(
            self.data, pyvrp.RandomNumberGenerator(seed=seed), compute_neighbours(self.data), PerturbationManager(PerturbationParams())
        )
        for operator in OPERATORS:
            if operator.supports(self.data):
                self.search.add_operator(operator(self.data))
        penalty = PENALTY_FACTOR * float(np.max(self.data.distance_matrix(0)))
        limited = as_vrp.max_distance is not None  # PyVRP's max_distance, or a shift with service times
        timed = isinstance(instance, CVRPTWInstance) or (limited and bool(as_vrp.service_time))
        self.evaluator = pyvrp.CostEvaluator([penalty], penalty if timed else 0.0, penalty if limited else 0.0)
        self.solution_type = pyvrp.Solution

    def cost(self, routes: list[list[int]]) -> float:
        """The solution's length in the instance's own units (depot 0 at both ends of each route; a tour closes)."""
        total = 0.0
        for route in routes:
            path = np.asarray(route if self.is_tsp else [0, *route, 0])
            closed = np.append(path, path[0]) if self.is_tsp else path
            total += float(self.matrix[closed[:-1], closed[1:]].sum())
        return total

    def _to_pyvrp(self, routes: list[list[int]]) -> Any:
        if self.is_tsp:
            tour = routes[0]
            k = tour.index(0)
            routes = [tour[k + 1 :] + tour[:k]]
        return self.solution_type(self.data, [[node - 1 for node in route] for route in routes if route])

    def _from_pyvrp(self, solution: Any) -> list[list[int]] | None:
        if not solution.is_feasible():
            return None
        routes = client_routes(solution)
        return [[0, *routes[0]]] if self.is_tsp else routes

    def descend(self, routes: list[list[int]]) -> list[list[int]] | None:
        """A local optimum reached from ``routes`` by exhaustive search (None if it left the feasible region)."""
        return self._from_pyvrp(self.search(self._to_pyvrp(routes), self.evaluator, exhaustive=True))

    def iterate(self, routes: list[list[int]], seconds: float, seed: int, emit: Callable[[list[list[int]]], None]) -> None:
        """``iterated_local_search`` warm-started from ``routes``: each new best goes to ``emit`` in this module's
        route form."""

        def found(solution: Any) -> None:
            routes = self._from_pyvrp(solution)
            if routes is not None:
                emit(routes)

        iterated_local_search(self.data, seconds, seed, found, initial=self._to_pyvrp(routes))


def client_routes(solution: Any) -> list[list[int]]:
    """The non-empty routes of a PyVRP solution as node indices: a client activity's ``idx`` counts clients from 0,
    our customers from 1."""
    routes = [[activity.idx + 1 for activity in route if activity.is_client()] for route in solution.routes()]
    return [r for r in routes if r]


def iterated_local_search(data: Any, seconds: float, seed: int, emit: Callable[[Any], None], initial: Any = None) -> None:
    """PyVRP's own iterated local search (``pyvrp.solve``, its default parameters) on ``data`` for ``seconds``,
    from ``initial`` (a ``pyvrp.Solution``; None: PyVRP's own start): each feasible new best, then the final best
    when feasible, goes to ``emit`` as a PyVRP solution."""
    import pyvrp
    from pyvrp.stop import MaxRuntime

    class Emitter(pyvrp.IteratedLocalSearchCallbacks):
        def on_best(self, best: Any) -> None:
            if best.is_feasible():
                emit(best)

    params = pyvrp.SolveParams(ils=pyvrp.IteratedLocalSearchParams(callbacks=Emitter()))
    stop = MaxRuntime(max(seconds, 0.0))
    result = pyvrp.solve(data, stop, seed=seed, collect_stats=False, params=params, initial_solution=initial)
    if result.best.is_feasible():
        emit(result.best)
