"""Choosing a family's trust by what it is for: the primal integral of ``ctc-scip`` on the dev split.

``calibrate.py`` picks the widest trust whose fixings cut at most 2% of the best solution's support; on
facility location that rule and the solver's measure disagree (session 11: the rule's trust ended 1.7-3.2%
above the optimum on 3 of 4 dev instances where the far looser default found good solutions sooner). Here a
few candidate trusts are each run as ``ctc-scip`` under the harness (own process, time limit, solutions
re-checked, one at a time) on every dev instance, and the one with the lowest mean primal integral against
the dev references is written into the card, with every candidate's measured integrals beside it:

- ``rule``: the trust ``calibrate.py`` chose (the card must have been calibrated first);
- ``default``: ``reduce.DEFAULT``, the uncalibrated ladder (80% of the binaries to 0, 10% to 1, 5% of rows);
- ``middle``: halfway between the two, each share rounded to 0.05 (rows to 0.005);
- ``wide``: ``WIDE``, one step past the default (90% to 0, 15% to 1), run only when the default wins the
  three above, so that a choice at the edge of the candidates is tried one step further;
- ``rows-off``: the winner so far with its forced rows off (``rows`` 0: the fixings alone, as ``ps-scip``),
  run when the winner forces any, so that the dev split also decides whether the constraint part is used
  (session 12: on the auction test split, the rule's forced rows lost to the fixings alone on 10 of 12).

A tie keeps the earlier candidate in that order. Runs are stored in their own record store (resumable: a
finished run is not redone); four dev instances are few, so the card keeps the per-instance integrals.

    frontierco train ctc --family facility --export runs/ctc/facility-hard --tune milp-facility-hard
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from frontierco.harness.plan import Selection
from frontierco.harness.request import RunRequest, run
from frontierco.kit.checkpoints import read_card
from frontierco.leaderboard.data import boards
from frontierco.registry import Registry
from frontierco.results import ResultStore, RunRecord, latest
from frontierco.solver import Budget
from frontierco.workspace import Context

from .checkpoint import shown
from .reduce import DEFAULT, Trust

SECONDS = 60.0  # the leaderboard's time limit for the hard collections
SOLVER = "ctc-scip"
WIDE = Trust(zeros=0.9, ones=0.15, rows=DEFAULT.rows, releases=DEFAULT.releases)


def candidates(card: dict[str, Any]) -> dict[str, Trust]:
    """The candidate trusts of a calibrated card, by name (see the module)."""
    if "calibration" not in card:
        raise ValueError(f"the {card.get('family', '?')} card has no calibration: run --calibrate before --tune")
    rule = Trust(**card["calibration"].get("rule_trust", card["calibration"]["trust"]))

    def halfway(a: float, b: float, step: float) -> float:
        return round(round((a + b) / 2 / step) * step, 3)

    zeros, ones = halfway(rule.zeros, DEFAULT.zeros, 0.05), halfway(rule.ones, DEFAULT.ones, 0.05)
    middle = Trust(zeros, ones, halfway(rule.rows, DEFAULT.rows, 0.005), rule.releases)
    return {"rule": rule, "default": DEFAULT, "middle": middle}


def params(checkpoints: Path, trust: Trust) -> dict[str, Any]:
    """The ``ctc-scip`` parameters that run ``trust`` with the checkpoints of ``checkpoints``."""
    return {"checkpoints": str(checkpoints), "zeros": trust.zeros, "ones": trust.ones, "rows": trust.rows}


def integrals(records: list[RunRecord], registry: Registry) -> dict[str, float]:
    """Primal integral per instance of one collection's records, scored as the leaderboard scores them."""
    (board,) = boards(registry, records)
    if board.instances_without_reference:
        raise ValueError(f"{', '.join(board.instances_without_reference)}: no reference; tuning needs one for every dev instance")
    return {run.record.instance: float(run.integral) for run in board.runs if run.integral is not None}


def choose(measured: dict[str, dict[str, float]]) -> str:
    """The candidate with the lowest mean integral over the instances (the first of equals)."""
    return min(measured, key=lambda name: float(np.mean(list(measured[name].values()))))


def further(trusts: dict[str, Trust], measured: dict[str, dict[str, float]]) -> tuple[str, Trust] | None:
    """The next candidate to run after the measured ones (``wide``, then ``rows-off``; see the module), or
    None when the choice is made."""
    best = choose(measured)
    if best == "default" and "wide" not in measured:
        return "wide", WIDE
    if trusts[best].rows > 0 and "rows-off" not in measured:
        return "rows-off", replace(trusts[best], rows=0.0)
    return None


def tune(
    checkpoint: Path, collection: str, split: str, store: ResultStore, registry: Registry, context: Context, seconds: float = SECONDS
) -> dict[str, Any]:
    """Run the candidates on the split (through the one run path, in ``context``), write the chosen trust and the
    measurements into the checkpoint's card; returns the card's tuning entry."""
    from rich.progress import track

    card = read_card(checkpoint)
    folder = checkpoint.parent.resolve()
    trusts: dict[str, Trust] = {}
    measured: dict[str, dict[str, float]] = {}

    def measure(name: str, trust: Trust) -> None:
        request = RunRequest(SOLVER, Selection(collection, split), Budget(seconds), "milp", params(folder, trust))

        def progress(items: Any, total: int) -> Any:
            return track(items, total=total, description=f"tuning: {name}", transient=True)

        planned = {s.run_id for s in run(context, request, store, progress, registry).specs}
        trusts[name] = trust
        measured[name] = integrals([r for r in latest(list(store.records(collection))) if r.run_id in planned], registry)

    for name, trust in candidates(card).items():
        measure(name, trust)
    while (step := further(trusts, measured)) is not None:
        measure(*step)
    chosen = choose(measured)
    tuning: dict[str, Any] = {
        "measure": f"mean primal integral of {SOLVER} at {seconds:g} s, one thread, on the {split} split of {collection}",
        "runs": shown(store.root),
        "candidates": {name: asdict(trust) for name, trust in trusts.items()},
        "integrals": measured,
        "chosen": chosen,
    }
    card["calibration"]["rule_trust"] = card["calibration"].get("rule_trust", card["calibration"]["trust"])
    card["calibration"]["trust"] = tuning["candidates"][chosen]
    card["calibration"]["tuning"] = tuning
    checkpoint.with_suffix(".json").write_text(json.dumps(card, indent=2) + "\n")
    return tuning
