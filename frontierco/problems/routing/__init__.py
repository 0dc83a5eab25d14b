"""Routing: the travelling salesman (symmetric and asymmetric), capacitated vehicle routing and its time-window
variant; TSPLIB / VRPLIB files, DIMACS TSP Challenge generators and real-city road networks."""

from __future__ import annotations

from frontierco.problems.common.family import Family, SolutionFile, TextForm, Writer
from frontierco.problems.common.generator import Generator
from frontierco.problems.routing import cvrp, cvrptw, tsp

HERE = __name__  # the declarations below name functions of this folder's modules

FAMILY = Family(
    problems=(tsp.PROBLEM, cvrp.PROBLEM, cvrptw.PROBLEM),
    readers={
        **dict.fromkeys((".tsp", ".atsp", ".vrp", ".vrptw"), f"{HERE}.tsplib:read_routing_instance"),
        ".npz": f"{HERE}.npz:read_npz_instance",
    },
    writers={
        "tsp": Writer(f"{HERE}.tsplib:routing_suffix", f"{HERE}.tsplib:write_routing_instance"),
        "cvrp": Writer(f"{HERE}.tsplib:routing_suffix", f"{HERE}.tsplib:write_routing_instance"),
        "cvrptw": Writer(f"{HERE}.npz:cvrptw_suffix", f"{HERE}.npz:write_cvrptw_instance"),
    },
    solution_files={
        "tsp": SolutionFile(f"{HERE}.tsplib:write_tsp_solution", f"{HERE}.tsplib:read_tsp_solution"),
        "cvrp": SolutionFile(f"{HERE}.tsplib:write_routes_solution", f"{HERE}.tsplib:read_routes_solution"),
        "cvrptw": SolutionFile(f"{HERE}.tsplib:write_routes_solution", f"{HERE}.tsplib:read_routes_solution"),
    },
    text_forms=(  # a TSPLIB / VRPLIB file under another name (FrontierCO's TSP hard files: E10k.0)
        TextForm(f"{HERE}.tsplib:read_routing_instance", None, ("NAME", "TYPE", "COMMENT", "DIMENSION", "EDGE_WEIGHT_TYPE")),
    ),
    generators=(
        Generator("tsp-uniform", "tsp", f"{HERE}.generators:tsp_uniform"),
        Generator("tsp-clustered", "tsp", f"{HERE}.generators:tsp_clustered"),
        Generator("tsp-dimacs-uniform", "tsp", f"{HERE}.dimacs:dimacs_uniform"),
        Generator("tsp-dimacs-clustered", "tsp", f"{HERE}.dimacs:dimacs_clustered"),
        Generator("tsp-dimacs", "tsp", f"{HERE}.dimacs:dimacs_instance"),
        Generator("cvrp-uniform", "cvrp", f"{HERE}.generators:cvrp_uniform"),
        Generator("cvrp-xlike", "cvrp", f"{HERE}.generators:cvrp_xlike"),
        Generator("realcity-atsp", "tsp", f"{HERE}.realcity:realcity_atsp", files=True),
        Generator("realcity-acvrp", "cvrp", f"{HERE}.realcity:realcity_acvrp", files=True),
        Generator("realcity-acvrptw", "cvrptw", f"{HERE}.realcity:realcity_acvrptw", files=True),
    ),
)
