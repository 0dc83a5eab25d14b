"""PyVRP at several integer scalings and HGS-CVRP on FrontierCO's Golden instances (issue 40): one in-process run per
instance and setting, bounded by this process's CPU time (not wall time, so a busy machine slows it but does not
shorten it); prints the final length (the instance's own unrounded distances) and the gap |f - f*| / max(f, f*) to
FrontierCO's value.

    python benchmarks/cvrp_golden_probe.py --seconds 30 --instances Golden_9 --settings pyvrp:1 pyvrp:1000 hgs

A setting is ``pyvrp`` (the suite's own scaling, ``pyvrp_data``), ``pyvrp:F`` (distances times F, rounded) or ``hgs``
(HGS-CVRP through hygese on the double distance matrix, its default parameters).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from frontierco.kit.route_search import client_routes
from frontierco.kit.solverkit import pyvrp_data
from frontierco.problems import CVRPInstance
from frontierco.problems.routing.cvrp import routes_length
from frontierco.registry import Registry
from frontierco.workspace import Context


def run_pyvrp(instance: CVRPInstance, factor: float | None, seconds: float, seed: int) -> list[list[int]]:
    import pyvrp

    data = pyvrp_data(instance)
    if factor is not None:
        scaled = np.rint(instance.weights.full_matrix() * factor).astype(np.int64)
        data = data.replace(distance_matrices=[scaled], duration_matrices=[scaled])
    start = time.process_time()

    def stop(_cost: float) -> bool:
        return time.process_time() - start > seconds

    return client_routes(pyvrp.solve(data, stop, seed=seed, collect_stats=False).best)


def run_hgs(instance: CVRPInstance, seconds: float, seed: int) -> list[list[int]]:
    import hygese

    data: dict[str, Any] = {
        "demands": instance.demands.astype(np.float64),
        "vehicle_capacity": float(instance.capacity),
        "depot": 0,
        "distance_matrix": instance.weights.full_matrix(),
    }
    result = hygese.Solver(hygese.AlgorithmParameters(timeLimit=seconds, seed=seed), verbose=False).solve_cvrp(data, rounding=False)
    return [list(route) for route in result.routes if len(route)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="CPU seconds per run")
    parser.add_argument("--collection", default="frontierco-cvrp-easy")
    parser.add_argument("--instances", nargs="+", default=["Golden_9"])
    parser.add_argument("--settings", nargs="+", default=["pyvrp", "hgs"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    registry = Registry.of(Context.discover())
    for name in args.instances:
        entry = registry.collection(args.collection).entry(name)
        instance = registry.load(entry)
        assert isinstance(instance, CVRPInstance) and entry.reference.value is not None
        for setting in args.settings:
            kind, _, factor = setting.partition(":")
            if kind == "hgs":
                routes = run_hgs(instance, args.seconds, args.seed)
            else:
                routes = run_pyvrp(instance, float(factor) if factor else None, args.seconds, args.seed)
            length = routes_length(instance.weights, [np.asarray(r, dtype=np.int64) for r in routes])
            reference = entry.reference.value
            gap = abs(length - reference) / max(length, reference)
            print(f"{name:10s} {setting:12s} {length:12.3f} {100 * gap:7.3f}%", flush=True)


if __name__ == "__main__":
    main()
