"""Read any supported instance file, and read or write solutions in each format's own form.

The problem follows from the file: TSPLIB/VRPLIB by TYPE, graphs by suffix, MPS/LP for MILP.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.formats.graphs import read_cnf_as_mis, read_dimacs, read_metis, write_dimacs
from frontierco.formats.mps import read_milp, write_milp
from frontierco.formats.npz_instance import read_npz_instance, write_npz_instance
from frontierco.formats.routing import (
    read_routing_instance,
    read_tour,
    read_vrplib_solution,
    tsp_solution_from_routes,
    write_routing_instance,
    write_tour,
    write_vrplib_solution,
)
from frontierco.formats.text import base_suffix, read_text
from frontierco.problems import (
    CVRPInstance,
    CVRPSolution,
    CVRPTWInstance,
    Instance,
    MILPInstance,
    MILPSolution,
    MISInstance,
    MISSolution,
    Solution,
    TSPInstance,
    TSPSolution,
)

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
    """Write a solution in the format's own form: TSPLIB .tour, VRPLIB .sol, one vertex per line
    (1-based) for MIS, 'name value' lines for MILP."""
    path = Path(path)
    if isinstance(solution, TSPSolution):
        write_tour(path, instance.name, solution, objective)
    elif isinstance(solution, CVRPSolution):
        write_vrplib_solution(path, solution, objective)
    elif isinstance(solution, MISSolution):
        path.write_text("".join(f"{int(v) + 1}\n" for v in np.sort(solution.vertices)))
    elif isinstance(solution, MILPSolution):
        assert isinstance(instance, MILPInstance)
        path.write_text("".join(f"{name} {value!r}\n" for name, value in zip(instance.col_names, solution.x.tolist(), strict=True)))
    else:
        raise TypeError(f"cannot write {type(solution).__name__}")


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """Read a solution for ``instance`` in the form ``write_solution`` writes (or a VRPLIB .sol for TSP)."""
    path = Path(path)
    if isinstance(instance, TSPInstance):
        if base_suffix(path) == ".sol":
            return tsp_solution_from_routes(read_vrplib_solution(path))
        return read_tour(path)
    if isinstance(instance, CVRPInstance):
        return read_vrplib_solution(path)
    text = read_text(path)
    if isinstance(instance, MISInstance):
        try:
            return MISSolution(np.array([int(t) for t in text.split()], dtype=np.int64) - 1)
        except ValueError:
            raise FormatError(path, 0, "one 1-based vertex number per line") from None
    return _read_milp_values(path, text, instance)


def _read_milp_values(path: Path, text: str, instance: MILPInstance) -> MILPSolution:
    index = {name: j for j, name in enumerate(instance.col_names)}
    x = np.zeros(instance.num_cols)
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        if len(tokens) != 2 or tokens[0] not in index:
            raise FormatError(path, number, "'COLUMN VALUE' with a column of the instance")
        try:
            x[index[tokens[0]]] = float(tokens[1])
        except ValueError:
            raise FormatError(path, number, "a numeric value") from None
    return MILPSolution(x)
