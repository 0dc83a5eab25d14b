"""Mixed-integer linear programs: MPS / LP files, the generated families of the learning literature (set cover,
combinatorial auctions, facility location, independent set), and the model builders other problems' MILP forms use."""

from __future__ import annotations

from frontierco.problems.common.family import Family, SolutionFile, Writer
from frontierco.problems.common.generator import Generator
from frontierco.problems.milp import milp

HERE = __name__  # the declarations below name functions of this folder's modules

FAMILY = Family(
    problems=(milp.PROBLEM,),
    readers=dict.fromkeys((".mps", ".lp"), f"{HERE}.mps:read_milp"),
    writers={"milp": Writer(f"{HERE}.mps:mps_suffix", f"{HERE}.mps:write_milp")},
    solution_files={"milp": SolutionFile(f"{HERE}.milp:write_solution_file", f"{HERE}.milp:read_solution_file")},
    generators=(
        Generator("milp-setcover", "milp", f"{HERE}.generators:milp_setcover"),
        Generator("milp-cauction", "milp", f"{HERE}.generators:milp_cauction"),
        Generator("milp-cauction-arbitrary", "milp", f"{HERE}.generators:milp_cauction_arbitrary"),
        Generator("milp-facility", "milp", f"{HERE}.generators:milp_facility"),
        Generator("milp-indset", "milp", f"{HERE}.generators:milp_indset"),
    ),
)
