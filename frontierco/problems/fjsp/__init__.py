"""The flexible job shop: Brandimarte's .fjs files and Naderi's .txt form, and a random generator."""

from __future__ import annotations

from frontierco.problems.common.family import Family, SolutionFile, TextForm, Writer
from frontierco.problems.common.generator import Generator
from frontierco.problems.fjsp import fjsp

HERE = __name__  # the declarations below name functions of this folder's modules

FAMILY = Family(
    problems=(fjsp.PROBLEM,),
    readers={".fjs": f"{HERE}.files:read_fjs"},
    writers={"fjsp": Writer(f"{HERE}.files:fjs_suffix", f"{HERE}.files:write_fjs")},
    solution_files={"fjsp": SolutionFile(f"{HERE}.fjsp:write_solution_file", f"{HERE}.fjsp:read_solution_file")},
    generators=(Generator("fjsp-random", "fjsp", f"{HERE}.generators:fjsp_random"),),
    text_forms=(
        TextForm(f"{HERE}.files:read_fjs", (3,)),  # the .fjs layout under a .txt name: "jobs machines average" first
        TextForm(f"{HERE}.files:read_naderi", None),  # Naderi's form opens with the job count alone on its line
    ),
)
