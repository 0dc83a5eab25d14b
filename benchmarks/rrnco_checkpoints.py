"""Which RRNCO checkpoint to ship: greedy multi-start + the x8 augmentation of each candidate checkpoint on the
instances of a collection's split, mean gap |f - f*| / max(f, f*) to the references, side by side.

Greedy x8 decodes the same rollouts whatever the machine's load (no anytime rounds, no clock), so the choice does
not depend on how busy the machine was. Choose on a dev split; quote the test splits only after choosing.

    python benchmarks/rrnco_checkpoints.py realcity-acvrp-100:dev solvers/rrnco/checkpoints/acvrp.pt new/acvrp.pt
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from frontierco.kit.solverkit import Clock
from frontierco.registry import Registry
from frontierco.solver import Budget, get_solver, load_solver_module


def greedy_x8_gaps(selection: str, checkpoints: list[Path]) -> dict[Path, list[float]]:
    """Per checkpoint, the gap of each instance of ``collection:split`` that has a reference."""
    collection, _, split = selection.partition(":")
    checkpoint = load_solver_module("rrnco", "checkpoint")
    solver = get_solver("rrnco").load()()
    solver.setup()
    registry = Registry()
    gaps: dict[Path, list[float]] = {path: [] for path in checkpoints}
    for entry in registry.collection(collection).entries:
        if (split and entry.split != split) or entry.reference is None or entry.reference.value is None:
            continue
        instance = registry.load(entry)
        reference = entry.reference.value
        row = []
        for path in checkpoints:
            solver.models[path.stem] = checkpoint.load(path)
            found = solver.candidates(instance, Budget(time_limit=600.0), Clock(600.0), anytime=False)
            best = min(float(c.cost.min()) for c in found)
            gaps[path].append(abs(best - reference) / max(best, reference))
            row.append(f"{100 * gaps[path][-1]:.2f}%")
        print(entry.name, *row, flush=True)
    return gaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("selection", help="collection:split (the split may be left out)")
    parser.add_argument("checkpoints", type=Path, nargs="+", help="checkpoint files (.pt with the card beside it), same kind")
    args = parser.parse_args()
    gaps = greedy_x8_gaps(args.selection, args.checkpoints)
    first = np.array(gaps[args.checkpoints[0]])
    for path, values in gaps.items():
        ahead = int(np.sum(np.array(values) < first))
        print(f"{args.selection} {path}: mean {100 * float(np.mean(values)):.3f}% over {len(values)}; better than the first on {ahead}")


if __name__ == "__main__":
    main()
