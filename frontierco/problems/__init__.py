"""The problems the suite knows, each with typed data and an independent checker, one folder per family.

A family registers here, once: its ``FAMILY`` in ``FAMILIES``, its instance and solution types in the two unions.
Everything else about it (files, generators, MILP forms, contract cases) it declares in its own folder.
"""

from __future__ import annotations

from frontierco.errors import UsageError
from frontierco.problems import facility, fjsp, graphs, milp, routing, steiner
from frontierco.problems.common.base import Evaluation, Problem, Sense
from frontierco.problems.common.family import Family
from frontierco.problems.facility.cflp import CFLPInstance, CFLPSolution
from frontierco.problems.facility.cpmp import CPMPInstance, CPMPSolution
from frontierco.problems.fjsp.fjsp import FJSPInstance, FJSPSolution
from frontierco.problems.graphs.mds import MDSInstance, MDSSolution
from frontierco.problems.graphs.mis import MISInstance, MISSolution
from frontierco.problems.milp.milp import MILPInstance, MILPSolution
from frontierco.problems.routing.cvrp import CVRPInstance, CVRPSolution
from frontierco.problems.routing.cvrptw import CVRPTWInstance
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance, TSPSolution
from frontierco.problems.steiner.stp import STPInstance, STPSolution

FAMILIES: tuple[Family, ...] = (
    routing.FAMILY,
    graphs.FAMILY,
    milp.FAMILY,
    fjsp.FAMILY,
    steiner.FAMILY,
    facility.FAMILY,
)
PROBLEMS: dict[str, Problem] = {problem.name: problem for family in FAMILIES for problem in family.problems}
_BY_TYPE: dict[type, Problem] = {p.instance_type: p for p in PROBLEMS.values()}

Instance = (
    TSPInstance
    | CVRPInstance
    | CVRPTWInstance
    | MISInstance
    | MDSInstance
    | MILPInstance
    | FJSPInstance
    | STPInstance
    | CFLPInstance
    | CPMPInstance
)
Solution = TSPSolution | CVRPSolution | MISSolution | MDSSolution | MILPSolution | FJSPSolution | STPSolution | CFLPSolution | CPMPSolution


def get_problem(name: str) -> Problem:
    """The problem with this id, or a one-line error listing the known ids."""
    try:
        return PROBLEMS[name]
    except KeyError:
        raise UsageError(f"unknown problem {name!r}; known: {', '.join(PROBLEMS)}") from None


def problem_of(instance: Instance) -> Problem:
    """The problem an instance belongs to (the most specific type wins: CVRPTW before CVRP)."""
    for cls in type(instance).__mro__:
        if cls in _BY_TYPE:
            return _BY_TYPE[cls]
    raise TypeError(f"not an instance of a known problem: {type(instance).__name__}")


def size_of(instance: Instance) -> int:
    """The instance's size: nodes (depot included) for routing, vertices for MIS, columns for MILP."""
    return problem_of(instance).size(instance)


def evaluate(instance: Instance, solution: Solution) -> Evaluation:
    """Check ``solution`` against ``instance`` with the instance's own problem."""
    return problem_of(instance).evaluate(instance, solution)


__all__ = [
    "FAMILIES",
    "PROBLEMS",
    "CFLPInstance",
    "CFLPSolution",
    "CPMPInstance",
    "CPMPSolution",
    "CVRPInstance",
    "CVRPSolution",
    "CVRPTWInstance",
    "EdgeWeights",
    "FJSPInstance",
    "FJSPSolution",
    "Evaluation",
    "Instance",
    "MILPInstance",
    "MILPSolution",
    "MDSInstance",
    "MDSSolution",
    "MISInstance",
    "MISSolution",
    "Problem",
    "STPInstance",
    "STPSolution",
    "Sense",
    "Solution",
    "TSPInstance",
    "TSPSolution",
    "evaluate",
    "get_problem",
    "problem_of",
    "size_of",
]
