"""Facility problems: capacitated facility location and the capacitated p-median; .plc, OR-Library .cap and .cpmp
files and FrontierCO's .txt layouts of both, their generators and MILP forms."""

from __future__ import annotations

from frontierco.problems.common.family import Family, MilpForm, SolutionFile, TextForm, Writer
from frontierco.problems.common.generator import Generator
from frontierco.problems.facility import cflp, cpmp

HERE = __name__  # the declarations below name functions of this folder's modules

FAMILY = Family(
    problems=(cflp.PROBLEM, cpmp.PROBLEM),
    readers={".plc": f"{HERE}.plc:read_plc", ".cap": f"{HERE}.plc:read_orlib_cap", ".cpmp": f"{HERE}.pmedian:read_cpmp"},
    writers={
        "cflp": Writer(f"{HERE}.plc:plc_suffix", f"{HERE}.plc:write_plc"),
        "cpmp": Writer(f"{HERE}.pmedian:cpmp_suffix", f"{HERE}.pmedian:write_cpmp"),
    },
    solution_files={
        "cflp": SolutionFile(f"{HERE}.cflp:write_solution_file", f"{HERE}.cflp:read_solution_file"),
        "cpmp": SolutionFile(f"{HERE}.cpmp:write_solution_file", f"{HERE}.cpmp:read_solution_file"),
    },
    generators=(
        Generator("cflp-cornuejols", "cflp", f"{HERE}.generators:cflp_cornuejols"),
        Generator("cpmp-frontierco", "cpmp", f"{HERE}.generators:cpmp_frontierco"),
    ),
    text_forms=(
        TextForm(f"{HERE}.pmedian:read_cpmp", (2, 4)),  # FrontierCO's CPMP files: "n p", then "x y capacity demand" per point
        TextForm(f"{HERE}.plc:read_plc", (2, 2)),  # what its CFLP generator writes: "n m", then "capacity fixed_cost" per facility
    ),
    milp_forms={
        "cflp": MilpForm(f"{HERE}.forms:cflp_to_milp", f"{HERE}.forms:cflp_solution"),
        "cpmp": MilpForm(f"{HERE}.forms:cpmp_to_milp", f"{HERE}.forms:cpmp_solution"),
    },
)
