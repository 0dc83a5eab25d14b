"""The contract cases: tiny instances every solver of these problems must handle, by name, each built on call."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from frontierco.problems.routing.cvrp import CVRPInstance
from frontierco.problems.routing.cvrptw import CVRPTWInstance
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.generators import cvrp_uniform, tsp_uniform
from frontierco.problems.routing.tsp import TSPInstance


def _points(n: int) -> EdgeWeights:
    return EdgeWeights("EUC_2D", coords=np.random.default_rng(n).integers(0, 100, (n, 2)).astype(float))


def _atsp(n: int) -> TSPInstance:
    matrix = np.random.default_rng(n).integers(1, 50, (n, n))
    np.fill_diagonal(matrix, 0)
    return TSPInstance(f"atsp{n}", EdgeWeights("EXPLICIT", matrix=matrix))


def tsp_cases() -> dict[str, Callable[[], object]]:
    return {
        "tiny": lambda: tsp_uniform("t8", 1, n=8).instance,
        "atsp": lambda: _atsp(7),
        "n1": lambda: TSPInstance("n1", _points(1)),
        "n2": lambda: TSPInstance("n2", _points(2)),
        "n3": lambda: TSPInstance("n3", _points(3)),
    }


def cvrp_cases() -> dict[str, Callable[[], object]]:
    return {
        "tiny": lambda: cvrp_uniform("c10", 1, n=10, capacity=20).instance,
        "n2": lambda: CVRPInstance("c2", _points(2), np.array([0, 3]), 10),
        "n3": lambda: CVRPInstance("c3", _points(3), np.array([0, 3, 9]), 10),
    }


def _tiny() -> CVRPTWInstance:
    weights = EdgeWeights("EXACT_2D", coords=np.random.default_rng(3).random((9, 2)))
    windows = np.array([[0.0, 100.0]] + [[0.0, 50.0]] * 8)
    return CVRPTWInstance("tw", weights, np.array([0] + [1] * 8), 4, None, weights, windows, np.full(9, 0.1))


def cvrptw_cases() -> dict[str, Callable[[], object]]:
    return {"tiny": _tiny}
