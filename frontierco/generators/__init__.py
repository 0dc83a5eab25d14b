"""The registry of seeded instance generators (same name, seed and parameters: same instance)."""

from __future__ import annotations

from frontierco.errors import RegistryError
from frontierco.generators.base import Generated, Generator

GENERATORS: dict[str, Generator] = {
    g.name: g
    for g in (
        Generator("tsp-uniform", "tsp", "frontierco.generators.routing:tsp_uniform"),
        Generator("tsp-clustered", "tsp", "frontierco.generators.routing:tsp_clustered"),
        Generator("tsp-dimacs-uniform", "tsp", "frontierco.generators.dimacs_tsp:dimacs_uniform"),
        Generator("tsp-dimacs-clustered", "tsp", "frontierco.generators.dimacs_tsp:dimacs_clustered"),
        Generator("cvrp-uniform", "cvrp", "frontierco.generators.routing:cvrp_uniform"),
        Generator("cvrp-xlike", "cvrp", "frontierco.generators.routing:cvrp_xlike"),
        Generator("mis-er", "mis", "frontierco.generators.graphs:mis_er"),
        Generator("mis-er-sparse", "mis", "frontierco.generators.graphs:mis_er_sparse"),
        Generator("mis-ba", "mis", "frontierco.generators.graphs:mis_ba"),
        Generator("mis-rb", "mis", "frontierco.generators.graphs:mis_rb"),
        Generator("mds-ba", "mds", "frontierco.generators.dominating:mds_ba"),
        Generator("mds-sparse", "mds", "frontierco.generators.dominating:mds_sparse"),
        Generator("milp-setcover", "milp", "frontierco.generators.milp:milp_setcover"),
        Generator("milp-cauction", "milp", "frontierco.generators.milp:milp_cauction"),
        Generator("milp-cauction-arbitrary", "milp", "frontierco.generators.milp:milp_cauction_arbitrary"),
        Generator("milp-facility", "milp", "frontierco.generators.milp:milp_facility"),
        Generator("milp-indset", "milp", "frontierco.generators.milp:milp_indset"),
        Generator("realcity-atsp", "tsp", "frontierco.generators.realcity:realcity_atsp"),
        Generator("realcity-acvrp", "cvrp", "frontierco.generators.realcity:realcity_acvrp"),
        Generator("realcity-acvrptw", "cvrptw", "frontierco.generators.realcity:realcity_acvrptw"),
        Generator("cflp-cornuejols", "cflp", "frontierco.generators.facility:cflp_cornuejols"),
        Generator("cpmp-frontierco", "cpmp", "frontierco.generators.facility:cpmp_frontierco"),
        Generator("stp-hypercube", "stp", "frontierco.generators.steiner:stp_hypercube"),
        Generator("stp-random", "stp", "frontierco.generators.steiner:stp_random"),
        Generator("fjsp-random", "fjsp", "frontierco.generators.fjsp:fjsp_random"),
    )
}


def generate(generator: str, name: str, seed: int, params: dict[str, object]) -> Generated:
    """Build one instance; an unknown generator or parameter is a one-line RegistryError."""
    if generator not in GENERATORS:
        raise RegistryError(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    try:
        return GENERATORS[generator].build(name, seed, **params)
    except TypeError as exc:
        raise RegistryError(f"bad parameters for generator {generator!r}: {exc}") from None


__all__ = ["GENERATORS", "Generated", "Generator", "generate"]
