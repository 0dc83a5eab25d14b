"""The problems the suite knows, each with typed data and an independent checker."""

from __future__ import annotations

from frontierco.errors import UsageError
from frontierco.problems import cflp, cpmp, cvrp, cvrptw, fjsp, mds, milp, mis, stp, tsp
from frontierco.problems.base import Evaluation, Problem, Sense
from frontierco.problems.cflp import CFLPInstance, CFLPSolution
from frontierco.problems.cpmp import CPMPInstance, CPMPSolution
from frontierco.problems.cvrp import CVRPInstance, CVRPSolution
from frontierco.problems.cvrptw import CVRPTWInstance
from frontierco.problems.distances import EdgeWeights
from frontierco.problems.fjsp import FJSPInstance, FJSPSolution
from frontierco.problems.mds import MDSInstance, MDSSolution
from frontierco.problems.milp import MILPInstance, MILPSolution
from frontierco.problems.mis import MISInstance, MISSolution
from frontierco.problems.stp import STPInstance, STPSolution
from frontierco.problems.tsp import TSPInstance, TSPSolution

# A problem registers here, once: its module's PROBLEM in this tuple, its types in the two unions.
PROBLEMS: dict[str, Problem] = {
    p.name: p
    for p in (
        tsp.PROBLEM,
        cvrp.PROBLEM,
        cvrptw.PROBLEM,
        mis.PROBLEM,
        mds.PROBLEM,
        milp.PROBLEM,
        fjsp.PROBLEM,
        stp.PROBLEM,
        cflp.PROBLEM,
        cpmp.PROBLEM,
    )
}
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
Solution = (
    TSPSolution | CVRPSolution | MISSolution | MDSSolution | MILPSolution | FJSPSolution | STPSolution | CFLPSolution | CPMPSolution
)


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
