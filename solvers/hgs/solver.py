"""HGS-CVRP (Vidal's hybrid genetic search) through the ``hygese`` package."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.savings import savings_routes
from frontierco.kit.solverkit import Clock, cpu_share
from frontierco.problems import CVRPInstance, CVRPSolution
from frontierco.solver import Budget, Solver

# HGS-CVRP counts a route as within its duration limit up to this excess (its MY_EPSILON); the limit handed to it
# is lowered by as much, so that every route it calls feasible is within the instance's own limit
HGS_EPSILON = 1e-5


class HGS(Solver):
    name = "hgs"
    problems = ("cvrp",)
    version = "3"
    requires = {"hygese": "hygese>=0.1"}

    def solve(self, instance: CVRPInstance, budget: Budget) -> Iterator[CVRPSolution]:
        import hygese

        clock = Clock(budget.time_limit, margin=0.1)
        n = instance.n
        yield CVRPSolution(tuple(np.array([c]) for c in range(1, n)))  # one route per customer: a first feasible answer
        if n < 3:
            return
        yield CVRPSolution(tuple(np.array(route, dtype=np.int64) for route in savings_routes(instance)))  # while HGS runs
        weights = instance.weights
        data: dict[str, object] = {"demands": instance.demands.astype(np.float64), "vehicle_capacity": float(instance.capacity), "depot": 0}
        if instance.num_vehicles is not None:
            data["num_vehicles"] = instance.num_vehicles
        if instance.max_distance is not None:  # HGS-CVRP's duration limit: travel plus service times, per route
            data["duration_limit"] = float(instance.max_distance) - HGS_EPSILON
            data["service_times"] = np.r_[0.0, np.full(n - 1, float(instance.service_time or 0.0))]
        if weights.rule == "EUC_2D":
            assert weights.coords is not None
            data["x_coordinates"], data["y_coordinates"] = weights.coords[:, 0], weights.coords[:, 1]
            rounding = True  # HGS rounds Euclidean distances to the nearest integer, as CVRPLIB does
        else:
            data["distance_matrix"] = weights.full_matrix().astype(np.float64)
            rounding = False
            if weights.coords is not None:  # the points too: SWAP* tries only routes whose polar sectors overlap
                shifted = weights.coords[:, :2] - weights.coords[:, :2].min(axis=0)  # hygese wants them >= 0; the
                data["x_coordinates"], data["y_coordinates"] = shifted[:, 0], shifted[:, 1]  # angles about the depot stay
        # HGS-CVRP's limit is CPU time: scale the wall-clock time left by the CPU share this process gets
        parameters = hygese.AlgorithmParameters(
            timeLimit=clock.left() * cpu_share(),
            seed=budget.seed,
            nbIter=int(self.params["nb_iter"]),
            nbGranular=int(self.params["nb_granular"]),
            mu=int(self.params["mu"]),
            lambda_=int(self.params["lambda"]),
        )
        result = hygese.Solver(parameters=parameters, verbose=False).solve_cvrp(data, rounding=rounding)
        yield CVRPSolution(tuple(np.array(route, dtype=np.int64) for route in result.routes if len(route)))
