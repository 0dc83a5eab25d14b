"""Read any supported instance file, and read or write solutions in each format's own form.

The problem follows from the file: TSPLIB/VRPLIB by TYPE, graphs by suffix, MPS/LP for MILP. A format
registers itself here, once: ``READERS`` maps a file suffix to its reader, ``WRITERS`` a problem to the
writer of its natural format and ``SOLUTION_FILES`` a problem to the writer and reader of its solution file (all
as ``"module:function"``, imported only when a file of that kind is met), so that a problem's module never
reaches into the formats that read its files.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from frontierco.errors import FormatError
from frontierco.formats.text import base_suffix
from frontierco.problems import Instance, Solution, problem_of

READERS: dict[str, str] = {
    **dict.fromkeys((".tsp", ".atsp", ".vrp", ".vrptw"), "frontierco.formats.routing:read_routing_instance"),
    **dict.fromkeys((".mis", ".col", ".clq", ".dimacs"), "frontierco.formats.graphs:read_dimacs"),
    **dict.fromkeys((".graph", ".metis"), "frontierco.formats.graphs:read_metis"),
    ".cnf": "frontierco.formats.graphs:read_cnf_as_mis",
    **dict.fromkeys((".mps", ".lp"), "frontierco.formats.mps:read_milp"),
    ".npz": "frontierco.formats.npz_instance:read_npz_instance",
    ".plc": "frontierco.formats.facility:read_plc",
    ".cap": "frontierco.formats.facility:read_orlib_cap",
    ".cpmp": "frontierco.formats.pmedian:read_cpmp",
    ".stp": "frontierco.formats.steinlib:read_steinlib",
    ".fjs": "frontierco.formats.fjsp:read_fjs",
    ".txt": "frontierco.formats.txt:read_txt",  # FrontierCO's .txt: Naderi's FJSP, its CPMP files, its CFLP generator's
    ".gr": "frontierco.formats.pace:read_pace_ds",
}


@dataclass(frozen=True)
class Writer:
    """How a problem's instances are written: ``suffix(instance)`` names the natural format, ``write(path,
    instance)`` writes it (both ``"module:function"``)."""

    suffix: str
    write: str


WRITERS: dict[str, Writer] = {
    "tsp": Writer("frontierco.formats.routing:routing_suffix", "frontierco.formats.routing:write_routing_instance"),
    "cvrp": Writer("frontierco.formats.routing:routing_suffix", "frontierco.formats.routing:write_routing_instance"),
    "cvrptw": Writer("frontierco.formats.npz_instance:cvrptw_suffix", "frontierco.formats.npz_instance:write_cvrptw_instance"),
    "mis": Writer("frontierco.formats.graphs:dimacs_suffix", "frontierco.formats.graphs:write_dimacs"),
    "milp": Writer("frontierco.formats.mps:mps_suffix", "frontierco.formats.mps:write_milp"),
    "cflp": Writer("frontierco.formats.facility:plc_suffix", "frontierco.formats.facility:write_plc"),
    "cpmp": Writer("frontierco.formats.pmedian:cpmp_suffix", "frontierco.formats.pmedian:write_cpmp"),
    "stp": Writer("frontierco.formats.steinlib:steinlib_suffix", "frontierco.formats.steinlib:write_steinlib"),
    "fjsp": Writer("frontierco.formats.fjsp:fjs_suffix", "frontierco.formats.fjsp:write_fjs"),
    "mds": Writer("frontierco.formats.pace:pace_suffix", "frontierco.formats.pace:write_pace_ds"),
}



@dataclass(frozen=True)
class SolutionFile:
    """How a problem's solutions are written, ``write(path, instance, solution, objective)``, and read back,
    ``read(path, instance)`` (both ``"module:function"``); the suffix is the problem's ``solution_suffix``."""

    write: str
    read: str


SOLUTION_FILES: dict[str, SolutionFile] = {
    "tsp": SolutionFile("frontierco.formats.routing:write_tsp_solution", "frontierco.formats.routing:read_tsp_solution"),
    "cvrp": SolutionFile("frontierco.formats.routing:write_routes_solution", "frontierco.formats.routing:read_routes_solution"),
    "cvrptw": SolutionFile("frontierco.formats.routing:write_routes_solution", "frontierco.formats.routing:read_routes_solution"),
    **{
        problem: SolutionFile(f"frontierco.problems.{problem}:write_solution_file", f"frontierco.problems.{problem}:read_solution_file")
        for problem in ("mis", "mds", "milp", "cflp", "cpmp", "fjsp", "stp")  # their own plain text forms
    },
}

INSTANCE_SUFFIXES = tuple(READERS)


def _function(target: str) -> Callable[..., Any]:
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def read_instance(path: str | Path) -> Instance:
    """Read an instance file of any supported format; unknown or malformed files raise FormatError."""
    path = Path(path)
    reader = READERS.get(base_suffix(path))
    if reader is None:
        raise FormatError(path, 0, f"a file ending in one of {', '.join(INSTANCE_SUFFIXES)}")
    return _function(reader)(path)


def _writer(instance: Instance) -> Writer:
    problem = problem_of(instance)
    if problem.name not in WRITERS:
        raise TypeError(f"no instance writer for {problem.name}")
    return WRITERS[problem.name]


def write_instance(path: str | Path, instance: Instance) -> None:
    """Write an instance in its natural format (TSPLIB/VRPLIB, DIMACS, MPS, ...; .npz where VRPLIB cannot hold
    it: separate durations)."""
    _function(_writer(instance).write)(path, instance)


def natural_suffix(instance: Instance) -> str:
    """The file suffix ``write_instance`` uses for this instance."""
    return str(_function(_writer(instance).suffix)(instance))


def _solution_file(instance: Instance) -> SolutionFile:
    problem = problem_of(instance)
    if problem.name not in SOLUTION_FILES:
        raise TypeError(f"no solution file for {problem.name}")
    return SOLUTION_FILES[problem.name]


def write_solution(path: str | Path, instance: Instance, solution: Solution, objective: float | None = None) -> None:
    """Write a solution in its problem's own form (``SOLUTION_FILES``): TSPLIB .tour, VRPLIB .sol,
    one vertex per line (1-based) for MIS, 'name value' lines for MILP."""
    problem = problem_of(instance)
    if not isinstance(solution, problem.solution_type):
        raise TypeError(f"cannot write a {type(solution).__name__} for a {problem.name} instance")
    _function(_solution_file(instance).write)(Path(path), instance, solution, objective)


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """Read a solution for ``instance`` in the form ``write_solution`` writes (or a VRPLIB .sol for TSP)."""
    solution: Solution = _function(_solution_file(instance).read)(Path(path), instance)
    return solution
