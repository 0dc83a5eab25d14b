"""Solutions as JSON-able data: how workers stream them and how best solutions are stored."""

from __future__ import annotations

from typing import Any

import numpy as np

from frontierco.problems.cvrp import CVRPSolution
from frontierco.problems.milp import MILPSolution
from frontierco.problems.mis import MISSolution
from frontierco.problems.tsp import TSPSolution

_SOLUTION_TYPES = {"tsp": TSPSolution, "cvrp": CVRPSolution, "cvrptw": CVRPSolution, "mis": MISSolution, "milp": MILPSolution}


def encode(problem: str, solution: object) -> dict[str, object]:
    """JSON-able form of a solution of ``problem``; a wrong type is a TypeError naming both."""
    expected = _SOLUTION_TYPES[problem]
    if not isinstance(solution, expected):
        raise TypeError(f"yielded a {type(solution).__name__}, not a {expected.__name__}")
    if isinstance(solution, TSPSolution):
        return {"tour": np.asarray(solution.tour).tolist()}
    if isinstance(solution, CVRPSolution):
        return {"routes": [np.asarray(r).tolist() for r in solution.routes]}
    if isinstance(solution, MISSolution):
        return {"vertices": np.asarray(solution.vertices).tolist()}
    assert isinstance(solution, MILPSolution)
    return {"x": np.asarray(solution.x, dtype=np.float64).tolist()}


def decode(problem: str, data: dict[str, Any]) -> TSPSolution | CVRPSolution | MISSolution | MILPSolution:
    """The solution ``encode`` wrote; malformed data is a ValueError."""
    try:
        if problem == "tsp":
            return TSPSolution(np.asarray(data["tour"]))
        if problem in ("cvrp", "cvrptw"):
            return CVRPSolution(tuple(np.asarray(r) for r in data["routes"]))
        if problem == "mis":
            return MISSolution(np.asarray(data["vertices"]))
        return MILPSolution(np.asarray(data["x"], dtype=np.float64))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a {problem} solution: {exc}") from None
