"""Calibration of a family's trust region on dev instances, against their best known solutions: how many
columns the predictions may fix and how many rows they may force, stored in the checkpoint card.

Han et al. (ICLR 2023) choose their trust region's size per family so that the prediction's errors stay
within what the region allows; the ladder of ``reduce.py`` fixes columns outright, so here a share is trusted
when the columns it fixes cut away at most ``TOLERANCE`` of the best solution's support (its columns at 1),
measured as the mean over the dev instances:

- zeros: the largest share of ``GRID`` whose lowest-marginal binaries fixed to 0 hold at most
  ``TOLERANCE`` x support columns that are 1 in the best solution;
- ones: the same for the highest-marginal binaries fixed to 1 and columns that are 0 in it;
- rows: the largest share of ``ROW_GRID`` whose forced rows are, on every dev instance, tight in the best
  solution but for at most ``RELEASES`` of them (the release budget); 0 turns the constraint part off.

The best known solution of a dev instance is the best feasible run stored for it (any solver), re-checked
here. The card also gets the balanced measures the training metrics lack (class-wise recall of the marginals
at 0.5, precision of the forced rows).

    frontierco train ctc --family setcover --calibrate milp-setcover-hard --results leaderboards/references

The rule's trust is a candidate of ``tune.py``, which chooses among candidates by the dev primal integral.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from frontierco.problems import MILPInstance, get_problem
from frontierco.registry import Registry
from frontierco.results import FEASIBLE_STATUSES, ResultStore

from .checkpoint import load, shown
from .constraints import Rows
from .features import LP_TIME, analyse_instance
from .labels import tight_rows
from .predict import predict
from .reduce import Trust, forced_rows, ranked_columns

GRID = tuple(round(0.05 * k, 2) for k in range(19, 0, -1))  # 0.95, 0.90, ..., 0.05
ROW_GRID = (0.2, 0.1, 0.05, 0.02, 0.01, 0.005)
TOLERANCE = 0.02
RELEASES = 0.2


@dataclass(frozen=True)
class Errors:
    """One dev instance's prediction errors against its best known solution."""

    instance: str
    support: int  # binaries at 1 in the best solution
    zeros: list[float]  # per GRID share: fixed to 0 but 1 in the best solution, / support
    ones: list[float]  # per GRID share: fixed to 1 but 0 in the best solution, / support
    rows: list[float]  # per ROW_GRID share: forced rows not tight in the best solution, / forced (0 if none)
    recall_one: float  # of the binaries at 1, the share predicted above 0.5
    recall_zero: float  # of the binaries at 0, the share predicted below 0.5


def measure(name: str, rows: Rows, best: np.ndarray, marginals: np.ndarray, ctc: np.ndarray) -> Errors:
    """The errors of one instance's predictions against its best solution ``best``."""
    low, high, binaries = ranked_columns(marginals, rows)
    binary = rows.variable_types == 0
    at_one = binary & (best > 0.5)
    support = max(int(at_one.sum()), 1)
    tight = tight_rows(rows, best[None, :])[0]
    row_errors = []
    for share in ROW_GRID:
        forced = forced_rows(ctc, rows, share)
        row_errors.append(float((~tight[forced]).mean()) if len(forced) else 0.0)
    predicted_one = marginals > 0.5
    return Errors(
        name,
        int(at_one.sum()),
        [int(at_one[low[: int(s * binaries)]].sum()) / support for s in GRID],
        [int((~at_one[high[: int(s * binaries)]]).sum()) / support for s in GRID],
        row_errors,
        float(predicted_one[at_one].mean()) if at_one.any() else float("nan"),
        float((~predicted_one[binary & ~at_one]).mean()) if (binary & ~at_one).any() else float("nan"),
    )


def choose(errors: list[Errors]) -> Trust:
    """The widest trust the dev errors allow (see the module's rules)."""
    zeros = np.mean([e.zeros for e in errors], axis=0)
    ones = np.mean([e.ones for e in errors], axis=0)
    rows = np.max([e.rows for e in errors], axis=0)

    def widest(grid: tuple[float, ...], fits: np.ndarray) -> float:
        return next((share for share, ok in zip(grid, fits, strict=True) if ok), 0.0)

    return Trust(widest(GRID, zeros <= TOLERANCE), widest(GRID, ones <= TOLERANCE), widest(ROW_GRID, rows <= RELEASES), RELEASES)


def best_solutions(registry: Registry, store: ResultStore, collection: str, split: str) -> list[tuple[str, MILPInstance, np.ndarray]]:
    """(name, instance, best feasible stored solution, re-checked) per instance of the split that has one."""
    milp = get_problem("milp")
    found = []
    for entry in registry.collection(collection).split(split):
        instance = registry.load(entry)
        if not isinstance(instance, MILPInstance):
            raise ValueError(f"{entry.key} is a {entry.problem} instance, not a MILP")
        sign = 1.0 if instance.sense == "min" else -1.0
        records = [
            r
            for r in store.records(collection)
            if r.instance == entry.name and r.status in FEASIBLE_STATUSES and r.solution_file and r.objective is not None
        ]
        for record in sorted(records, key=lambda r: sign * float(r.objective or 0.0)):
            solution = milp.solution_type(np.asarray(store.load_solution(str(record.solution_file))["x"], dtype=np.float64))
            if milp.evaluate(instance, solution).feasible:
                found.append((entry.name, instance, np.asarray(solution.x)))
                break
    return found


def calibrate(checkpoint: Path, collection: str, split: str, store: ResultStore, registry: Registry) -> dict[str, Any]:
    """Measure the checkpoint's errors on the split's best known solutions, choose its trust and write both
    into its card; returns the card's calibration entry."""
    from rich.progress import track

    net, card = load(checkpoint)
    errors = []
    for name, instance, best in track(best_solutions(registry, store, collection, split), description="calibrating", transient=True):
        rows = analyse_instance(instance)
        marginals, ctc = predict(net, instance, rows, LP_TIME)
        errors.append(measure(name, rows, best, marginals, ctc))
    if not errors:
        raise ValueError(f"no stored feasible solution for the {split} split of {collection} in {store.root}")
    calibration = {
        "collection": collection,
        "split": split,
        "solutions": f"best stored feasible run per instance in {shown(store.root)}, re-checked",
        "rules": {"tolerance": TOLERANCE, "releases": RELEASES, "grid": list(GRID), "row_grid": list(ROW_GRID)},
        "trust": asdict(choose(errors)),
        "errors": [asdict(e) for e in errors],
    }
    card_path = checkpoint.with_suffix(".json")
    card["calibration"] = calibration
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    return calibration
