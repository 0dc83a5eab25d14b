"""HGS-CVRP (hygese) parameter settings on CVRPLIB X instances of 240-480 customers with long routes (issue 40): the
settings for FrontierCO's Golden set are chosen here, never on the Golden instances themselves. One in-process run per
instance and setting, bounded by HGS-CVRP's own limit, which counts this process's CPU time (a busy machine slows a
run but does not shorten it). Distances are passed unrounded, as a full matrix of doubles, the way the suite passes
Golden's; the printed gap is (f - BKS) / BKS to CVRPLIB's best-known value of the rounded instance, so compare
settings with each other on it rather than read it as the board's gap.

    python benchmarks/cvrp_hgs_ladder.py --seconds 54 --settings default nbGranular=40 mu=12,lambda_=20

A setting is ``default`` or comma-separated ``FIELD=VALUE`` of hygese's ``AlgorithmParameters``, where the field
``coordinates=1`` hands HGS-CVRP the points beside the matrix (its SWAP* moves test only route pairs whose polar sectors
around the depot overlap; without points hygese passes zeros, every sector is the one angle 0 and every pair is tried).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from frontierco.problems import CVRPInstance
from frontierco.registry import Registry
from frontierco.workspace import Context

# CVRPLIB X instances (Uchoa et al. 2017) of the Golden set's sizes and route lengths (18-24 customers a route)
DEV_INSTANCES = ("X-n261-k13", "X-n308-k13", "X-n367-k17", "X-n411-k19", "X-n459-k26")


def parse_setting(setting: str) -> dict[str, Any]:
    """``default`` is {}; ``nbGranular=40,mu=12`` is {"nbGranular": 40, "mu": 12} (ints where they parse, else floats)."""
    if setting == "default":
        return {}
    fields = {}
    for item in setting.split(","):
        key, _, value = item.partition("=")
        fields[key] = int(value) if value.lstrip("-").isdigit() else float(value)
    return fields


def run_hgs(instance: CVRPInstance, fields: dict[str, Any], seconds: float, seed: int) -> list[list[int]]:
    import hygese

    coords = instance.weights.coords
    assert coords is not None
    data: dict[str, Any] = {
        "demands": instance.demands.astype(np.float64),
        "vehicle_capacity": float(instance.capacity),
        "depot": 0,
        "distance_matrix": np.hypot(*(coords[:, None, :] - coords[None, :, :]).transpose(2, 0, 1)),
    }
    if fields.pop("coordinates", 0):
        data["x_coordinates"], data["y_coordinates"] = coords[:, 0], coords[:, 1]
    parameters = hygese.AlgorithmParameters(timeLimit=seconds, seed=seed, **fields)
    result = hygese.Solver(parameters=parameters, verbose=False).solve_cvrp(data, rounding=False)
    return [list(route) for route in result.routes if len(route)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=54.0, help="CPU seconds per run (hgs stops at 90%% of 60 s)")
    parser.add_argument("--collection", default="cvrplib-x")
    parser.add_argument("--instances", nargs="+", default=list(DEV_INSTANCES))
    parser.add_argument("--settings", nargs="+", default=["default"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    registry = Registry.of(Context.discover())
    for name in args.instances:
        entry = registry.collection(args.collection).entry(name)
        instance = registry.load(entry)
        best_known = entry.reference.value if entry.reference else None
        assert isinstance(instance, CVRPInstance) and best_known is not None
        for setting in args.settings:
            start = time.process_time()
            routes = run_hgs(instance, parse_setting(setting), args.seconds, args.seed)
            cpu = time.process_time() - start
            coords = instance.weights.coords
            assert coords is not None
            length = sum(float(np.hypot(*np.diff(coords[[0, *route, 0]], axis=0).T).sum()) for route in routes)
            gap = (length - best_known) / best_known
            print(f"{setting:28s} {name:12s} {length:12.3f} {100 * gap:7.3f}% cpu {cpu:5.1f}s", flush=True)


if __name__ == "__main__":
    main()
