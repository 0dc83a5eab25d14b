"""The Steiner tree problem in graphs: SteinLib files and generators of its hypercube and random kinds."""

from __future__ import annotations

from frontierco.problems.common.family import Family, SolutionFile, TextForm, Writer
from frontierco.problems.common.generator import Generator
from frontierco.problems.steiner import stp

HERE = __name__  # the declarations below name functions of this folder's modules

FAMILY = Family(
    problems=(stp.PROBLEM,),
    readers={".stp": f"{HERE}.steinlib:read_steinlib"},
    writers={"stp": Writer(f"{HERE}.steinlib:steinlib_suffix", f"{HERE}.steinlib:write_steinlib")},
    solution_files={"stp": SolutionFile(f"{HERE}.stp:write_solution_file", f"{HERE}.stp:read_solution_file")},
    text_forms=(TextForm(f"{HERE}.steinlib:read_steinlib", None, ("33D32945",)),),  # SteinLib's magic number, any name
    generators=(
        Generator("stp-hypercube", "stp", f"{HERE}.generators:stp_hypercube"),
        Generator("stp-random", "stp", f"{HERE}.generators:stp_random"),
    ),
)
