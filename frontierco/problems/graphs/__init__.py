"""Graph problems: maximum independent set and minimum dominating set; DIMACS, METIS, CNF and PACE files, random graph
generators, and their MILP forms."""

from __future__ import annotations

from frontierco.problems.common.family import Family, MilpForm, SolutionFile, TextForm, Writer
from frontierco.problems.common.generator import Generator
from frontierco.problems.graphs import mds, mis

HERE = __name__  # the declarations below name functions of this folder's modules

FAMILY = Family(
    problems=(mis.PROBLEM, mds.PROBLEM),
    readers={
        # ".b": the name some copies of the DIMACS clique graphs carry for their ASCII text (the DIMACS binary
        # form of that name is not text, and read_dimacs refuses it as such)
        **dict.fromkeys((".mis", ".col", ".clq", ".dimacs", ".b"), f"{HERE}.dimacs:read_dimacs"),
        **dict.fromkeys((".graph", ".metis"), f"{HERE}.dimacs:read_metis"),
        ".cnf": f"{HERE}.dimacs:read_cnf_as_mis",
        ".gr": f"{HERE}.pace:read_pace_ds",
    },
    writers={
        "mis": Writer(f"{HERE}.dimacs:dimacs_suffix", f"{HERE}.dimacs:write_dimacs"),
        "mds": Writer(f"{HERE}.pace:pace_suffix", f"{HERE}.pace:write_pace_ds"),
    },
    solution_files={
        "mis": SolutionFile(f"{HERE}.mis:write_solution_file", f"{HERE}.mis:read_solution_file"),
        "mds": SolutionFile(f"{HERE}.mds:write_solution_file", f"{HERE}.mds:read_solution_file"),
    },
    generators=(
        Generator("mis-er", "mis", f"{HERE}.generators:mis_er"),
        Generator("mis-er-sparse", "mis", f"{HERE}.generators:mis_er_sparse"),
        Generator("mis-ba", "mis", f"{HERE}.generators:mis_ba"),
        Generator("mis-rb", "mis", f"{HERE}.generators:mis_rb"),
        Generator("mis-rb-frontierco", "mis", f"{HERE}.generators:mis_rb_frontierco"),
        Generator("mds-ba", "mds", f"{HERE}.dominating:mds_ba"),
        Generator("mds-sparse", "mds", f"{HERE}.dominating:mds_sparse"),
    ),
    text_forms=(  # PACE and DIMACS graphs under a .txt name (FrontierCO's MDS valid files)
        TextForm(f"{HERE}.pace:read_pace_ds", None, ("p ds",)),
        TextForm(f"{HERE}.dimacs:read_dimacs", None, ("p edge", "p col")),
    ),
    milp_forms={
        "mis": MilpForm(f"{HERE}.forms:mis_to_milp", f"{HERE}.forms:mis_solution"),
        "mds": MilpForm(f"{HERE}.forms:mds_to_milp", f"{HERE}.forms:mds_solution"),
    },
)
