"""Read any supported instance file, and read or write solutions in each format's own form.

The problem follows from the file: TSPLIB/VRPLIB by TYPE, graphs by suffix, MPS/LP for MILP.
"""

from __future__ import annotations

from pathlib import Path

from frontierco.errors import FormatError
from frontierco.formats.graphs import read_cnf_as_mis, read_dimacs, read_metis, write_dimacs
from frontierco.formats.mps import read_milp, write_milp
from frontierco.formats.npz_instance import read_npz_instance, write_npz_instance
from frontierco.formats.routing import read_routing_instance, write_routing_instance
from frontierco.formats.text import base_suffix
from frontierco.problems import CVRPInstance, CVRPTWInstance, Instance, MILPInstance, MISInstance, Solution, TSPInstance, problem_of

ROUTING_SUFFIXES = (".tsp", ".atsp", ".vrp", ".vrptw")
DIMACS_SUFFIXES = (".mis", ".col", ".clq", ".dimacs")
METIS_SUFFIXES = (".graph", ".metis")
MILP_SUFFIXES = (".mps", ".lp")
INSTANCE_SUFFIXES = ROUTING_SUFFIXES + DIMACS_SUFFIXES + METIS_SUFFIXES + (".cnf",) + MILP_SUFFIXES + (".npz",)


def read_instance(path: str | Path) -> Instance:
    """Read an instance file of any supported format; unknown or malformed files raise FormatError."""
    path = Path(path)
    suffix = base_suffix(path)
    if suffix in ROUTING_SUFFIXES:
        return read_routing_instance(path)
    if suffix in DIMACS_SUFFIXES:
        return read_dimacs(path)
    if suffix in METIS_SUFFIXES:
        return read_metis(path)
    if suffix == ".cnf":
        return read_cnf_as_mis(path)
    if suffix in MILP_SUFFIXES:
        return read_milp(path)
    if suffix == ".npz":
        return read_npz_instance(path)
    raise FormatError(path, 0, f"a file ending in one of {', '.join(INSTANCE_SUFFIXES)}")


def write_instance(path: str | Path, instance: Instance) -> None:
    """Write an instance in its natural format (TSPLIB/VRPLIB, DIMACS, MPS; .npz where VRPLIB cannot
    hold it: separate durations)."""
    if natural_suffix(instance) == ".npz":
        write_npz_instance(path, instance)  # type: ignore[arg-type]
    elif isinstance(instance, (TSPInstance, CVRPInstance)):
        write_routing_instance(path, instance)
    elif isinstance(instance, MISInstance):
        write_dimacs(path, instance)
    elif isinstance(instance, MILPInstance):
        write_milp(path, instance)
    else:
        raise TypeError(f"cannot write {type(instance).__name__}")


def natural_suffix(instance: Instance) -> str:
    """The file suffix ``write_instance`` uses for this instance."""
    if isinstance(instance, TSPInstance):
        return ".atsp" if instance.is_asymmetric else ".tsp"
    if isinstance(instance, CVRPTWInstance) and instance.durations is not instance.weights:
        return ".npz"
    if isinstance(instance, CVRPInstance):
        return ".vrp"
    return ".mis" if isinstance(instance, MISInstance) else ".mps"


def write_solution(path: str | Path, instance: Instance, solution: Solution, objective: float | None = None) -> None:
    """Write a solution in its problem's own form (``Problem.write_solution``): TSPLIB .tour, VRPLIB .sol,
    one vertex per line (1-based) for MIS, 'name value' lines for MILP."""
    problem = problem_of(instance)
    if not isinstance(solution, problem.solution_type):
        raise TypeError(f"cannot write a {type(solution).__name__} for a {problem.name} instance")
    problem.write_solution(Path(path), instance, solution, objective)


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """Read a solution for ``instance`` in the form ``write_solution`` writes (or a VRPLIB .sol for TSP)."""
    return problem_of(instance).read_solution(Path(path), instance)
