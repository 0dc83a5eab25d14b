"""RRNCO on instances without coordinates: how the placement of the points changes its greedy x8 result.

For each test instance of an unseen-city collection (generated with ``coordinates = false``), the same instance
three ways: with the city's coordinates (the generator's ``coordinates = true``), without them as RRNCO places
them (classical MDS, ``data.instance_points``), and with every point at (0, 0) (what versions up to 2 did).
Greedy multi-start + the x8 augmentation, no anytime rounds; mean gap |f - f*| / max(f, f*) to the references.

    python benchmarks/rrnco_layouts.py realcity-acvrp-100-unseen
"""

from __future__ import annotations

import argparse

import numpy as np

from frontierco.kit.solverkit import Clock
from frontierco.manifests import GeneratedSource
from frontierco.problems.generate import generate
from frontierco.registry import Registry
from frontierco.solver import Budget, get_solver, load_solver_module

VARIANTS = ("coordinates", "mds", "zeros")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection")
    args = parser.parse_args()
    data = load_solver_module("rrnco", "data")
    placed = data.instance_points
    solver = get_solver("rrnco").load()()
    solver.setup()
    gaps: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for entry in Registry().collection(args.collection).entries:
        source = entry.source
        if entry.split != "test" or not isinstance(source, GeneratedSource) or entry.reference is None or entry.reference.value is None:
            continue
        reference = entry.reference.value
        for variant in VARIANTS:
            params = {**source.params, "coordinates": variant == "coordinates"}
            instance = generate(source.generator, entry.name, source.seed, params).instance
            data.instance_points = (lambda weights: np.zeros((weights.size, 2))) if variant == "zeros" else placed
            found = solver.candidates(instance, Budget(time_limit=600.0), Clock(600.0), anytime=False)
            best = min(float(c.cost.min()) for c in found)
            gaps[variant].append(abs(best - reference) / max(best, reference))
        print(entry.name, " ".join(f"{v} {100 * gaps[v][-1]:.2f}%" for v in VARIANTS), flush=True)
    print(args.collection, "mean:", " ".join(f"{v} {100 * float(np.mean(g)):.2f}%" for v, g in gaps.items()))


if __name__ == "__main__":
    main()
