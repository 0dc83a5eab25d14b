"""Write the instance manifests in instances/ (run once per change of a collection's definition).

Real collections are listed from the offline mirror (``FRONTIERCO_MIRROR`` or ../shared/data): each
file's path, public origin URL and sha256, and its reference value with its source. Generated
collections are pinned: every instance is built and its content sha256 recorded, so a generator that
drifts is caught by ``frontierco instances verify``.

    python scripts/write_manifests.py [--only NAME ...]
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import tomli_w

from frontierco.problems.common.fingerprint import content_sha256, file_sha256
from frontierco.problems.generate import generate
from frontierco.problems.routing.tsplib import stated_cost
from frontierco.registry import INSTANCES_DIR
from frontierco.workspace import Context

TSPLIB = "https://github.com/mastqe/tsplib/raw/7755413/{}"
PYVRP = "https://github.com/PyVRP/Instances/raw/1445e12/{}"
BHOSLIB = "https://github.com/hvidberrrg/benchmark-graphs/raw/fa53e5c/benchmark_graphs/bhoslib/graphs/{}-mis/{}"
QSAT = "https://github.com/Randy1005/QSat/raw/f01994b/benchmarks/{}/{}"
HIGHS = "https://github.com/ERGO-Code/HiGHS/raw/73cac48/check/instances/{}"
OJALGO = "https://github.com/optimatika/ojAlgo/raw/064c9d5/src/test/resources/optimisation/miplib/{}"
PUC = "https://github.com/xyu03/ILS/raw/f6ae355/instances/{}"
BEHNKE = "https://github.com/jrc-rodec/FJSSP-W-Benchmarking/raw/eb1d283/instances/Instances_FJSSP/0_BehnkeGeiger/{}"
NADERI = "https://github.com/INFORMSJoC/2021.0326/raw/8e13c2b/data/Flexiblejobshop/New/{}"
SONG = "https://github.com/songwenas12/fjsp-drl/raw/d7637b7/data_test/{}"
SONG_RANDOM_SAMPLE = 10  # instances of each size of Song et al.'s random test sets (the first in file order)
PUBLIC_FJSP = {  # collection: (file prefix, name in Public-bounds.csv, description)
    "fjsp-brandimarte": ("Mk", "Brandimarte", "Brandimarte's (1993) Mk01-Mk10"),
    "fjsp-hurink-edata": ("e_la", "Hurink_edata", "Hurink, Jurisch & Thole's (1994) edata la01-la40"),
    "fjsp-hurink-rdata": ("r_la", "Hurink_rdata", "Hurink, Jurisch & Thole's (1994) rdata la01-la40"),
    "fjsp-hurink-vdata": ("v_la", "Hurink_vdata", "Hurink, Jurisch & Thole's (1994) vdata la01-la40"),
}
HIGHS_FILES = {
    "dcmulti",
    "egout",
    "gesa2",
    "gt2",
    "lseu",
    "p0548",
    "rgn",
    "small_mip",
    "bell5",
    "pp08a",
    "pp08aCUTS",
    "modglob",
    "neos-911880",
}


def _file(mirror: Path, relative: str, url: str, name: str, **reference: object) -> dict[str, object]:
    return {"name": name, "split": "test", "file": relative, "url": url, "sha256": file_sha256(str(mirror / relative)), **reference}


def tsplib(mirror: Path) -> dict[str, object]:
    optimum = {
        k.strip(): int(v.split()[0])
        for k, v in (line.split(":") for line in (mirror / "tsplib/optimal.txt").read_text().splitlines() if ":" in line)
    }
    entries = [
        _file(
            mirror,
            f"tsplib/{p.name}",
            TSPLIB.format(p.name),
            p.stem,
            reference=optimum[p.stem],
            reference_source="optimal (TSPLIB95)",
            reference_status="optimal",
        )
        for p in sorted((mirror / "tsplib").glob("*.tsp"))
        if p.stem in optimum and "FIXED_EDGES_SECTION" not in p.read_text()  # linhp318: a path problem with a fixed edge
    ]
    return {
        "name": "tsplib",
        "problem": "tsp",
        "version": 1,
        "description": "symmetric TSPLIB95 instances with their proven optima (Reinelt 1991)",
        "origin": "https://github.com/mastqe/tsplib @ 7755413",
        "license": "TSPLIB95, published for research benchmarking",
        "instance": entries,
    }


def _sol_reference(path: Path, source: str) -> dict[str, object]:
    optimal = "Optimal: True" in path.read_text()
    return {"reference": stated_cost(path), "reference_source": source, "reference_status": "optimal" if optimal else "best-known"}


def tsplib_large(mirror: Path) -> dict[str, object]:
    entries = [
        _file(
            mirror,
            f"tsplib-vrplib/{p.name}",
            PYVRP.format(f"TSP/{p.name}"),
            p.stem,
            **_sol_reference(p.with_suffix(".sol"), "LKH 2.0.11 tour (PyVRP/Instances); optimal per TSPLIB95 where marked"),
        )
        for p in sorted((mirror / "tsplib-vrplib").glob("*.vrp"))
    ]
    return {
        "name": "tsplib-large",
        "problem": "tsp",
        "version": 1,
        "description": "TSPLIB instances of 1,000-85,900 nodes in VRPLIB form (PyVRP/Instances)",
        "origin": "https://github.com/PyVRP/Instances @ 1445e12, TSP/",
        "license": "MIT (PyVRP/Instances); TSPLIB95 data for research",
        "memory_mb": 16384,  # solvers that hold a matrix need it: 85,900^2 int32 is 29 GB, so those refuse the largest
        "instance": entries,
    }


def cvrplib(mirror: Path, folder: str, name: str, description: str, remote: str, memory_mb: int | None = None) -> dict[str, object]:
    entries = [
        _file(
            mirror,
            f"cvrplib/{folder}/{p.name}",
            PYVRP.format(f"{remote}{p.name}"),
            p.stem,
            **_sol_reference(p.with_suffix(".sol"), "BKS (CVRPLIB via PyVRP/Instances), rounded-integer distances"),
        )
        for p in sorted((mirror / f"cvrplib/{folder}").glob("*.vrp"))
    ]
    return {
        "name": name,
        "problem": "cvrp",
        "version": 1,
        "description": description,
        "origin": f"https://github.com/PyVRP/Instances @ 1445e12, {remote}",
        "license": "MIT (PyVRP/Instances); CVRPLIB data for research",
        **({"memory_mb": memory_mb} if memory_mb else {}),
        "instance": entries,
    }


def bhoslib(mirror: Path) -> dict[str, object]:
    rows = list(csv.DictReader((mirror / "mis/bhoslib/optimal.csv").open()))
    entries = []
    for row in rows:
        group = row["name"].rsplit("-", 1)[0]
        entries.append(
            _file(
                mirror,
                f"mis/bhoslib/{row['name']}.mis",
                BHOSLIB.format(group, f"{row['name']}.mis"),
                row["name"],
                reference=int(row["optimal_mis_size"]),
                reference_source="planted optimum (BHOSLIB RB construction)",
                reference_status="optimal",
            )
        )
    return {
        "name": "bhoslib",
        "problem": "mis",
        "version": 1,
        "description": "BHOSLIB frb graphs (Xu's RB model with a planted solution of known size)",
        "origin": "https://github.com/hvidberrrg/benchmark-graphs @ fa53e5c",
        "license": "BHOSLIB, published for research benchmarking",
        "instance": entries,
    }


def satlib(mirror: Path) -> dict[str, object]:
    entries = []
    for p in sorted((mirror / "mis/satlib-cbs").glob("*.cnf")):
        clauses = int(next(line.split()[3] for line in p.read_text().splitlines() if line.startswith("p cnf")))
        entries.append(
            _file(
                mirror,
                f"mis/satlib-cbs/{p.name}",
                QSAT.format(p.stem.rsplit("_", 1)[0], p.name),
                p.stem,
                reference=clauses,
                reference_source="number of clauses (satisfiable CNF)",
                reference_status="optimal",
            )
        )
    return {
        "name": "satlib-mis",
        "problem": "mis",
        "version": 1,
        "description": "SATLIB CBS 3-SAT formulas (100 variables) as MIS graphs, the DIMES/DIFUSCO SATLIB test set",
        "origin": "https://github.com/Randy1005/QSat @ f01994b; list: https://github.com/DIMESTeam/DIMES @ 95aaa91",
        "license": "SATLIB, published for research benchmarking",
        "instance": entries,
    }


def miplib(mirror: Path) -> dict[str, object]:
    entries = []
    for row in csv.DictReader((mirror / "milp/miplib/optimal.csv").open()):
        url = (HIGHS if row["name"] in HIGHS_FILES else OJALGO).format(f"{row['name']}.mps")
        if row["status"] == "infeasible":
            reference: dict[str, object] = {"reference_status": "infeasible", "reference_source": row["source"]}
        else:
            reference = {
                "reference": float(row["optimal_objective"]),
                "reference_source": f"optimal ({row['source']})",
                "reference_status": "optimal",
            }
        entries.append(_file(mirror, f"milp/miplib/{row['name']}.mps", url, row["name"], **reference))
    return {
        "name": "miplib-small",
        "problem": "milp",
        "version": 1,
        "description": "small MIPLIB 2017 / MIPLIB 3 instances, one infeasible (marked)",
        "origin": (
            "https://github.com/ERGO-Code/HiGHS @ 73cac48 check/instances/ and "
            "https://github.com/optimatika/ojAlgo @ 064c9d5 (file by file; the sha256 is authoritative)"
        ),
        "license": "MIPLIB, published for research benchmarking",
        "instance": entries,
    }


def frontierco_fjsp(mirror: Path, level: str) -> dict[str, object]:
    """FrontierCO's FJSP easy (Behnke & Geiger, .fjs) or hard (Naderi et al., Naderi's text form) test set."""
    folder, url, origin, license_ = {
        "easy": (
            "fjsp/behnke-geiger",
            BEHNKE,
            "https://github.com/jrc-rodec/FJSSP-W-Benchmarking @ eb1d283, instances/Instances_FJSSP/0_BehnkeGeiger/",
            "Behnke & Geiger (2012), published for research benchmarking",
        ),
        "hard": (
            "fjsp/naderi",
            NADERI,
            "https://github.com/INFORMSJoC/2021.0326 @ 8e13c2b, data/Flexiblejobshop/New/",
            "MIT (Naderi, Ruiz & Roshanaei 2022)",
        ),
    }[level]
    bks = frontierco_values(mirror, "FJSP", f"{level}_test_instances")
    files = sorted((p for p in (mirror / folder).iterdir() if p.name in bks), key=lambda p: int("".join(c for c in p.stem if c.isdigit())))
    entries = [
        _file(
            mirror,
            f"{folder}/{p.name}",
            url.format(p.name),
            p.stem,
            reference=bks[p.name],
            reference_source="FrontierCO bks.csv",
            reference_status="best-known",
        )
        for p in files
    ]
    what = "Behnke & Geiger (2012), .fjs" if level == "easy" else "Naderi, Ruiz & Roshanaei (2023), Naderi's text form"
    return {
        "name": f"frontierco-fjsp-{level}",
        "problem": "fjsp",
        "version": 1,
        "description": f"FrontierCO's FJSP {level} test set by its names ({what}): {len(entries)} of FrontierCO's {len(bks)} names",
        "published_set": {"name": f"FrontierCO FJSP {level}", "size": len(bks)},
        "origin": origin,
        "license": license_,
        "instance": entries,
    }


def fjsp_public(mirror: Path, name: str) -> dict[str, object]:
    """A public FJSP benchmark as Song et al. (2023) test it (their `data_test/Public/` files), with the literature
    bounds of `Public-bounds.csv` (DANIEL's BenchDataSolution.csv): the upper bound as the best-known value
    (optimal where it meets the lower bound), the lower bound named in the source."""
    prefix, bench, what = PUBLIC_FJSP[name]
    bounds = {
        int(row["dataname"].lstrip("mkla")): (int(row["lb"]), int(row["ub"]))
        for row in csv.DictReader((mirror / "fjsp/song-2022/Public-bounds.csv").open())
        if row["benchname"] == bench
    }
    entries = []
    for p in sorted((mirror / "fjsp/song-2022/Public").glob(f"{prefix}*.fjs")):
        lower, upper = bounds[int(p.stem.removeprefix(prefix))]
        entries.append(
            _file(
                mirror,
                f"fjsp/song-2022/Public/{p.name}",
                SONG.format(f"Public/{p.name}"),
                p.stem,
                reference=upper,
                reference_source=f"literature upper bound (wrqccc/FJSP-DRL BenchDataSolution.csv); lower bound {lower}",
                reference_status="optimal" if lower == upper else "best-known",
            )
        )
    return {
        "name": name,
        "problem": "fjsp",
        "version": 1,
        "description": f"{what}, the public FJSP benchmark of Song et al. (2023) with the literature's bounds",
        "origin": "https://github.com/songwenas12/fjsp-drl @ d7637b7, data_test/Public/; bounds: github.com/wrqccc/FJSP-DRL @ 2cf81b1",
        "license": "published for research benchmarking; Song et al.'s repository: Apache-2.0",
        "instance": entries,
    }


def fjsp_song_random(mirror: Path) -> dict[str, object]:
    """The first instances (file order) of each of Song et al.'s six random test sets; no reference (the paper
    compares with OR-Tools, whose schedules it does not publish)."""
    entries = []
    for folder in ("1005", "1510", "2005", "2010", "3010", "4010"):
        for p in sorted((mirror / "fjsp/song-2022" / folder).glob("*.fjs"))[:SONG_RANDOM_SAMPLE]:
            entries.append(_file(mirror, f"fjsp/song-2022/{folder}/{p.name}", SONG.format(f"{folder}/{p.name}"), p.stem))
    return {
        "name": "fjsp-song-random",
        "problem": "fjsp",
        "version": 1,
        "description": (
            f"the first {SONG_RANDOM_SAMPLE} instances of each of Song et al.'s (2023) random test sets "
            "(10x5, 15x10, 20x5, 20x10, 30x10, 40x10 jobs x machines; 100 each); no reference values"
        ),
        "origin": "https://github.com/songwenas12/fjsp-drl @ d7637b7, data_test/",
        "license": "Apache-2.0 (Song et al.)",
        "instance": entries,
    }


GENERATED = [
    # name, problem, generator, params, dev count, test count, description
    ("tsp-uniform-100", "tsp", "tsp-uniform", {"n": 100}, 4, 16, "100 points uniform in the unit square"),
    ("tsp-uniform-500", "tsp", "tsp-uniform", {"n": 500}, 4, 8, "500 points uniform in the unit square"),
    ("tsp-uniform-1000", "tsp", "tsp-uniform", {"n": 1000}, 4, 8, "1000 points uniform in the unit square"),
    ("cvrp-uniform-50", "cvrp", "cvrp-uniform", {"n": 50}, 4, 16, "50 customers, Kool et al. recipe (demand 1-9, capacity 40)"),
    ("cvrp-uniform-100", "cvrp", "cvrp-uniform", {"n": 100}, 4, 16, "100 customers, Kool et al. recipe (demand 1-9, capacity 50)"),
    ("cvrp-xlike-200", "cvrp", "cvrp-xlike", {"n": 200}, 4, 8, "200 customers, Uchoa et al. X recipe, settings drawn per seed"),
    ("mis-er-700", "mis", "mis-er", {"n": 700, "p": 0.15}, 4, 8, "Erdos-Renyi G(700, 0.15)"),
    (
        "fjsp-random-small",
        "fjsp",
        "fjsp-random",
        {"jobs": 20, "machines": 10},
        2,
        6,
        "20 jobs x 10 operations on 10 machines (FrontierCO's generator defaults)",
    ),
    ("mis-rb-small", "mis", "mis-rb", {"cliques": [20, 25], "clique_size": [9, 12]}, 4, 16, "RB graphs, 180-300 vertices, planted optimum"),
    (
        "milp-setcover-easy",
        "milp",
        "milp-setcover",
        {"rows": 500, "cols": 1000, "density": 0.05},
        4,
        20,
        "set cover 500 x 1000 (Gasse et al. easy)",
    ),
    (
        "milp-cauction-easy",
        "milp",
        "milp-cauction",
        {"items": 100, "bids": 500},
        4,
        20,
        "combinatorial auction 100 items x 500 bids (Gasse et al. easy)",
    ),
    (
        "milp-facility-easy",
        "milp",
        "milp-facility",
        {"customers": 100, "facilities": 100},
        4,
        20,
        "capacitated facility location 100 x 100 (Gasse et al. easy)",
    ),
    (
        "milp-indset-easy",
        "milp",
        "milp-indset",
        {"nodes": 500, "affinity": 4},
        4,
        20,
        "independent set on BA(500, 4), clique formulation (Gasse et al. easy)",
    ),
    (
        "milp-setcover-medium",
        "milp",
        "milp-setcover",
        {"rows": 1000, "cols": 1000, "density": 0.05},
        4,
        20,
        "set cover 1000 x 1000 (Gasse et al. medium)",
    ),
    (
        "milp-cauction-medium",
        "milp",
        "milp-cauction",
        {"items": 200, "bids": 1000},
        4,
        20,
        "combinatorial auction 200 items x 1000 bids (Gasse et al. medium)",
    ),
    (
        "milp-indset-medium",
        "milp",
        "milp-indset",
        {"nodes": 1000, "affinity": 4},
        4,
        20,
        "independent set on BA(1000, 4), clique formulation (Gasse et al. medium)",
    ),
    (
        "stp-random-small",
        "stp",
        "stp-random",
        {"n": 100, "m": 250, "terminals": 15},
        2,
        6,
        "Steiner tree, random connected graphs, 100 vertices, 250 edges, 15 terminals",
    ),
]
DEV_SEED, TEST_SEED = 10_000, 20_000
HARD = [  # Gasse et al.'s hard sizes (issue 15), seeds from HARD_DEV_SEED / HARD_TEST_SEED, disjoint from CTC's training seeds
    (
        "milp-indset-hard",
        "milp",
        "milp-indset",
        {"nodes": 1500, "affinity": 4},
        4,
        16,
        "independent set on BA(1500, 4), clique formulation (Gasse et al. hard)",
    ),
    (
        "milp-setcover-hard",
        "milp",
        "milp-setcover",
        {"rows": 2000, "cols": 1000, "density": 0.05},
        4,
        16,
        "set cover 2000 x 1000 (Gasse et al. hard)",
    ),
    (
        "milp-facility-hard",
        "milp",
        "milp-facility",
        {"customers": 200, "facilities": 100},
        4,
        16,
        "capacitated facility location 200 x 100 (Gasse et al. hard)",
    ),
    (
        "milp-cauction-hard",
        "milp",
        "milp-cauction-arbitrary",
        {"items": 300, "bids": 1500},
        4,
        16,
        "combinatorial auction 300 items x 1500 bids, Leyton-Brown et al.'s arbitrary relationships (Gasse et al. hard)",
    ),
]
HARD_DEV_SEED, HARD_TEST_SEED = 11_000, 21_000
# issue 32: a second test split of the independent set and set cover hard collections that no training,
# calibration or tuning ever touched (its own collection, so that its board is its own), seeds never used before
FRESH = [
    (f"{name}-fresh", problem, generator, params, 0, 12, f"{description}; fresh seeds no tuning touched")
    for name, problem, generator, params, _, _, description in HARD
    if name in ("milp-indset-hard", "milp-setcover-hard")
]
FRESH_TEST_SEED = 51_000
# issue 43: FrontierCO's RB_800_1200 recipe (forced), a dev/test collection and a fresh one no choice of the learned
# MIS solver touched; the learned solver trains on seeds from 1,000,000 up
RB_FRONTIERCO_PARAMS: dict[str, object] = {"cliques": [40, 54], "clique_size": [20, 24], "vertices": [800, 1200]}
RB_FRONTIERCO_DESCRIPTION = "RB graphs of FrontierCO's RB_800_1200 recipe, forced (planted optimum)"
RB_FRONTIERCO = [
    ("mis-rb-800-1200", "mis", "mis-rb-frontierco", RB_FRONTIERCO_PARAMS, 4, 12, RB_FRONTIERCO_DESCRIPTION),
    (
        "mis-rb-800-1200-fresh",
        "mis",
        "mis-rb-frontierco",
        RB_FRONTIERCO_PARAMS,
        0,
        12,
        f"{RB_FRONTIERCO_DESCRIPTION}; fresh seeds no choice touched",
    ),
]
FACILITY = [  # FrontierCO's generators (issue 33), our seeds: not FrontierCO's sets (its valid set is seeds 42, 43, ...)
    (
        "cflp-cornuejols-easy",
        "cflp",
        "cflp-cornuejols",
        {"customers": 100, "facilities": 100, "ratio": 5.0},
        2,
        6,
        "capacitated facility location, splittable, 100 facilities x 100 customers (Cornuejols et al., FrontierCO's valid size)",
    ),
    (
        "cflp-cornuejols-hard",
        "cflp",
        "cflp-cornuejols",
        {"customers": 300, "facilities": 150, "ratio": 5.0},
        2,
        6,
        "capacitated facility location, splittable, 150 facilities x 300 customers (Cornuejols et al.)",
    ),
    (
        "cpmp-easy",
        "cpmp",
        "cpmp-frontierco",
        {"n": 100, "p": 10},
        2,
        6,
        "capacitated p-median, 100 points, p = 10 (FrontierCO's generator)",
    ),
    (
        "cpmp-hard",
        "cpmp",
        "cpmp-frontierco",
        {"n": 300, "p": 15},
        2,
        6,
        "capacitated p-median, 300 points, p = 15 (FrontierCO's generator)",
    ),
]
MDS = [  # Barabasi-Albert with 4 edges per vertex, as FrontierCO's MDS training set ("large": 800-1200 vertices)
    (
        "mds-ba-easy",
        "mds",
        "mds-ba",
        {"n": [800, 1200], "m": 4},
        2,
        6,
        "Barabasi-Albert BA(800-1200, 4), FrontierCO's MDS validation recipe",
    ),
    ("mds-ba-hard", "mds", "mds-ba", {"n": [5000, 10000], "m": 4}, 2, 6, "Barabasi-Albert BA(5000-10000, 4)"),
]
MDS_DEV_SEED, MDS_TEST_SEED = 12_000, 22_000
# issue 43: the learned MDS solver's collections, FrontierCO's MDS training recipe BA(800-1200, 4): dev (chooses) /
# test, and a fresh test collection no choice touched; its training graphs are seeds from 4,000,000 up
MDS_LEARNED_DESCRIPTION = "Barabasi-Albert BA(800-1200, 4), FrontierCO's MDS training recipe"
MDS_LEARNED = [
    ("mds-ba-800-1200", "mds", "mds-ba", {"n": [800, 1200], "m": 4}, 4, 8, MDS_LEARNED_DESCRIPTION),
    (
        "mds-ba-800-1200-fresh",
        "mds",
        "mds-ba",
        {"n": [800, 1200], "m": 4},
        0,
        12,
        f"{MDS_LEARNED_DESCRIPTION}; fresh seeds no choice touched",
    ),
]
MDS_LEARNED_DEV_SEED, MDS_LEARNED_TEST_SEED, MDS_LEARNED_FRESH_SEED = 13_000, 23_000, 53_000
MDS_LARGE = [("dev", 100_000, 0), ("test", 100_000, 1), ("test", 100_000, 2), ("test", 1_000_000, 0)]  # split, n, k


def mds_sparse_large() -> dict[str, object]:
    """Sparse G(n, m) graphs of average degree 6, 100k and 1M vertices, for the scale of FrontierCO's hard set."""
    entries = []
    for split, n, k in MDS_LARGE:
        seed = (MDS_DEV_SEED if split == "dev" else MDS_TEST_SEED) + 100 + (n // 100_000) * 10 + k
        instance_name = f"mds-sparse-{n // 1000}k-{split}-{k}"
        params = {"n": n, "degree": 6.0}
        built = generate("mds-sparse", instance_name, seed, params)
        entries.append(
            {"name": instance_name, "split": split, "seed": seed, "params": params, "content_sha256": content_sha256(built.instance)}
        )
    return {
        "name": "mds-sparse-large",
        "problem": "mds",
        "version": 1,
        "description": "sparse random graphs G(n, m), average degree 6: 100k and 1M vertices",
        "generator": "mds-sparse",
        "memory_mb": 8192,
        "instance": entries,
    }


REALCITY_FAMILIES = {"atsp": "tsp", "acvrp": "cvrp", "acvrptw": "cvrptw"}
# (split, city, sampling, count): monaco is in-distribution, herrenberg and krems out-of-distribution
REALCITY_PLAN = [
    ("dev", "monaco", "uniform", 2),
    ("dev", "monaco", "clustered", 2),
    ("test", "monaco", "uniform", 2),
    ("test", "monaco", "clustered", 2),
    ("test", "herrenberg", "uniform", 1),
    ("test", "herrenberg", "clustered", 1),
    ("test", "krems", "uniform", 1),
    ("test", "krems", "clustered", 1),
]


def realcity(family: str, n: int) -> dict[str, object]:
    name = f"realcity-{family}-{n}"
    entries = []
    counters = {"dev": 0, "test": 0}
    for split, city, sampling, count in REALCITY_PLAN:
        for _ in range(count):
            seed = (DEV_SEED if split == "dev" else TEST_SEED) + counters[split]
            counters[split] += 1
            instance_name = f"{name}-{split}-{city}-{sampling}-{seed % 1000}"
            params = {"city": city, "sampling": sampling}
            built = generate(f"realcity-{family}", instance_name, seed, {"n": n} | params)
            entries.append(
                {"name": instance_name, "split": split, "seed": seed, "params": params, "content_sha256": content_sha256(built.instance)}
            )
    size = f"{n} {'nodes' if family == 'atsp' else 'customers'}"
    description = (
        f"real-city {family.upper()} with {size} (RRNCO recipe); test: monaco in-distribution, herrenberg and krems out-of-distribution"
    )
    return {
        "name": name,
        "problem": REALCITY_FAMILIES[family],
        "version": 1,
        "description": description,
        "generator": f"realcity-{family}",
        "params": {"n": n},
        "instance": entries,
    }


def generated(
    name: str,
    problem: str,
    generator: str,
    params: dict[str, object],
    dev: int,
    test: int,
    description: str,
    seeds: tuple[int, int] = (DEV_SEED, TEST_SEED),
) -> dict[str, object]:
    entries = []
    for split, count, base in (("dev", dev, seeds[0]), ("test", test, seeds[1])):
        for k in range(count):
            instance_name = f"{name}-{split}-{k}"
            built = generate(generator, instance_name, base + k, params)
            entry: dict[str, object] = {
                "name": instance_name,
                "split": split,
                "seed": base + k,
                "content_sha256": content_sha256(built.instance),
            }
            if built.known_optimum is not None:
                entry |= {
                    "reference": built.known_optimum,
                    "reference_source": "planted optimum (construction)",
                    "reference_status": "optimal",
                }
            entries.append(entry)
    return {
        "name": name,
        "problem": problem,
        "version": 1,
        "description": description,
        "generator": generator,
        "params": params,
        "instance": entries,
    }


def frontierco_values(mirror: Path, problem: str, split: str) -> dict[str, float]:
    """FrontierCO's best-known values (``frontierco/bks.csv`` of the mirror) of one problem's test set, by file name."""
    rows = csv.DictReader((mirror / "frontierco/bks.csv").open())
    return {row["instance"]: float(row["bks"]) for row in rows if row["problem"] == problem and row["split"] == split}


def frontierco_stp_hard(mirror: Path) -> dict[str, object]:
    values = frontierco_values(mirror, "STP", "hard_test_instances")
    files = sorted((mirror / "steinlib/puc").glob("*.stp"))
    entries = [
        _file(
            mirror,
            f"steinlib/puc/{p.name}",
            PUC.format(p.name),
            p.stem,
            reference=values[p.name],
            reference_source="FrontierCO bks.csv",
            reference_status="best-known",
        )
        for p in files
    ]
    return {
        "name": "frontierco-stp-hard",
        "problem": "stp",
        "version": 1,
        "description": f"FrontierCO's STP hard test set by name: {len(entries)} of its {len(values)} names (SteinLib PUC bip*u, hc*u)",
        "published_set": {"name": "FrontierCO STP hard", "size": len(values)},
        "origin": "https://github.com/xyu03/ILS @ f6ae355 (SteinLib PUC, Rosseti, Poggi de Aragao, Ribeiro, Uchoa and Werneck 2001)",
        "license": "SteinLib, published for research benchmarking",
        "instance": entries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    mirror = Context.discover().files.mirror  # FRONTIERCO_MIRROR
    builders = {
        "tsplib": lambda: tsplib(mirror),
        "tsplib-large": lambda: tsplib_large(mirror),
        "cvrplib-x": lambda: cvrplib(mirror, "X", "cvrplib-x", "the 100 X instances of Uchoa et al. (2017), 100-1,000 customers", "CVRP/"),
        "cvrplib-xxl": lambda: cvrplib(
            mirror,
            "XXL",
            "cvrplib-xxl",
            "the 10 Belgian XXL instances of Arnold et al. (2019), 3k-30k customers",
            "CVRP/XXL/",
            memory_mb=20480,  # PyVRP and HGS hold the 30,000^2 distance matrix (7.2 GB as int64)
        ),
        "bhoslib": lambda: bhoslib(mirror),
        "satlib-mis": lambda: satlib(mirror),
        "miplib-small": lambda: miplib(mirror),
        "frontierco-stp-hard": lambda: frontierco_stp_hard(mirror),
        "frontierco-fjsp-easy": lambda: frontierco_fjsp(mirror, "easy"),
        "frontierco-fjsp-hard": lambda: frontierco_fjsp(mirror, "hard"),
        "fjsp-song-random": lambda: fjsp_song_random(mirror),
    }
    builders |= {name: (lambda name=name: fjsp_public(mirror, name)) for name in PUBLIC_FJSP}
    builders |= {spec[0]: (lambda spec=spec: generated(*spec)) for spec in GENERATED}
    builders |= {spec[0]: (lambda spec=spec: generated(*spec, seeds=(HARD_DEV_SEED, HARD_TEST_SEED))) for spec in HARD}
    builders |= {spec[0]: (lambda spec=spec: generated(*spec, seeds=(0, FRESH_TEST_SEED))) for spec in FRESH}
    builders |= {spec[0]: (lambda spec=spec: generated(*spec)) for spec in FACILITY}
    rb_seeds = {name: (DEV_SEED, FRESH_TEST_SEED if name.endswith("-fresh") else TEST_SEED) for name, *_ in RB_FRONTIERCO}
    builders |= {spec[0]: (lambda spec=spec: generated(*spec, seeds=rb_seeds[spec[0]])) for spec in RB_FRONTIERCO}
    builders |= {spec[0]: (lambda spec=spec: generated(*spec, seeds=(MDS_DEV_SEED, MDS_TEST_SEED))) for spec in MDS}
    builders["mds-sparse-large"] = mds_sparse_large
    mds_seeds = {
        name: (MDS_LEARNED_DEV_SEED, MDS_LEARNED_FRESH_SEED if name.endswith("-fresh") else MDS_LEARNED_TEST_SEED)
        for name, *_ in MDS_LEARNED
    }
    builders |= {spec[0]: (lambda spec=spec: generated(*spec, seeds=mds_seeds[spec[0]])) for spec in MDS_LEARNED}
    builders |= {f"realcity-{f}-{n}": (lambda f=f, n=n: realcity(f, n)) for f in REALCITY_FAMILIES for n in (50, 100)}
    for name, build in builders.items():
        if args.only and name not in args.only:
            continue
        folder = INSTANCES_DIR / (
            "frontierco"
            if name.startswith("frontierco-")
            else "real"
            if name
            in (
                "tsplib",
                "tsplib-large",
                "cvrplib-x",
                "cvrplib-xxl",
                "bhoslib",
                "satlib-mis",
                "miplib-small",
                *PUBLIC_FJSP,
                "fjsp-song-random",
            )
            else "generated"
        )
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.toml").write_text(tomli_w.dumps(build()))
        print(f"wrote {folder / name}.toml")


if __name__ == "__main__":
    main()
