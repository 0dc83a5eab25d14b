"""What each part of the CTC solvers contributes, each measured with the others fixed, on dev instances.

Variants (solver + parameters): plain `scip`; `ps-scip` (the ladder of fixings, interleaved with SCIP);
`ctc-scip` (the fixings + the predicted tight rows); `ctc-scip` with `fixings=false` (the rows alone);
`ps-scip` with `slice=0` (predict at t = 0 instead of after a plain slice). Each runs in this process for the
time limit on one thread; the script prints, per instance and variant, the final objective and the primal
integral (the suite's measure, against the manifest's reference or else the best objective any variant
found), then the mean integral per variant and its change against plain SCIP.

    python benchmarks/ctc_ablation.py --collection milp-indset-hard [--instances 2] [--seconds 60]
    python benchmarks/ctc_ablation.py --collection milp-setcover-hard --variants scip "ps-scip{zeros=0.3}"

A variant is a name below or a solver with parameters as the leaderboard writes its rows,
``solver{key=value,...}`` (values read as ``frontierco run --param`` reads them).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from frontierco.harness.plan import parse_params
from frontierco.metrics import primal_integral
from frontierco.problems.milp.milp import MILPInstance
from frontierco.registry import Registry
from frontierco.solver import Budget, Proven, get_solver

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "scip": ("scip", {}),
    "ps-scip": ("ps-scip", {}),
    "ctc-scip": ("ctc-scip", {}),
    "rows only": ("ctc-scip", {"fixings": False}),
    "ps, no slice": ("ps-scip", {"slice": 0}),
}


def variant(text: str) -> tuple[str, dict[str, Any]]:
    """A named variant, or ``solver{key=value,...}`` as (solver, parameters)."""
    if text in VARIANTS:
        return VARIANTS[text]
    name, _, settings = text.partition("{")
    params = parse_params([item for item in settings.rstrip("}").split(",") if item])
    get_solver(name).check_params(params)  # a misspelt parameter stops here, not after hours of runs
    return name, params


def trace(name: str, params: dict[str, Any], instance: MILPInstance, seconds: float) -> list[tuple[float, float]]:
    """(seconds, objective) of every solution the solver yields, timed from its start."""
    solver = get_solver(name).load()(**params)
    solver.setup()
    started, points = time.monotonic(), []
    for found in solver.solve(instance, Budget(seconds)):
        values = (found.solution if isinstance(found, Proven) else found).x
        points.append((time.monotonic() - started, float(instance.objective @ values) + instance.offset))
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--instances", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), help="names or solver{key=value,...}")
    args = parser.parse_args()
    registry = Registry()
    entries = registry.collection(args.collection).split(args.split)[: args.instances]
    integrals: dict[str, list[float]] = {v: [] for v in args.variants}
    for entry in entries:
        instance = registry.load(entry)
        traces = {v: trace(*variant(v), instance, args.seconds) for v in args.variants}
        finals = [t[-1][1] for t in traces.values() if t]
        best = min(finals) if instance.sense == "min" else max(finals)
        reference = entry.reference.value if entry.reference and entry.reference.value is not None else best
        for v, points in traces.items():
            integrals[v].append(primal_integral(points, reference, args.seconds))
        row = ", ".join(f"{v}: {t[-1][1] if t else None} ({integrals[v][-1]:.4f})" for v, t in traces.items())
        print(f"{entry.name} (reference {reference:g}): {row}", flush=True)
    base = np.mean(integrals["scip"]) if "scip" in integrals else None
    for v, values in integrals.items():
        change = "" if base is None or base == 0 else f" ({100 * (np.mean(values) / base - 1):+.0f}% against scip)"
        print(f"{v}: mean primal integral {np.mean(values):.4f}{change}", flush=True)


if __name__ == "__main__":
    main()
