"""Are CTC's forced rows tight in good solutions found without them? One family's checkpoint, several splits.

For each instance of each ``COLLECTION:SPLIT``, the rows ``ctc-scip`` forces (its checkpoint's calibrated
trust: ``reduce.forced_rows``) and the columns it fixes on the first rung are compared with the best stored
feasible solution of a solver that forces no rows (``--reference-solvers``, default scip, highs and ps-scip, so
the solution is not biased towards the rows), re-checked. Printed per split: the share of forced rows that
are not tight in that solution (a forced row must then be released or it cuts the solution off), how many
rows are forced, and the share of the best solution's support that the fixings cut away. A measurement
only: no choice of the solver is made from it (the fresh split stays untouched by tuning).

    python benchmarks/ctc_rows_probe.py setcover milp-setcover-hard:dev milp-setcover-hard:test milp-setcover-hard-fresh:test
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from frontierco.problems import MILPInstance, get_problem
from frontierco.registry import Registry
from frontierco.results import FEASIBLE_STATUSES, ResultStore
from frontierco.solver import load_solver_module
from frontierco.workspace import SUITE


def best_without_rows(
    store: ResultStore, registry: Registry, collection: str, split: str, solvers: set[str]
) -> list[tuple[str, MILPInstance, np.ndarray]]:
    """(name, instance, best re-checked solution of ``solvers``) per instance of the split that has one."""
    milp = get_problem("milp")
    found = []
    for entry in registry.collection(collection).split(split):
        instance = registry.load(entry)
        sign = 1.0 if instance.sense == "min" else -1.0
        records = [
            r
            for r in store.records(collection)
            if r.instance == entry.name and r.solver in solvers and r.status in FEASIBLE_STATUSES
            if r.solution_file and r.objective is not None
        ]
        for record in sorted(records, key=lambda r: sign * float(r.objective or 0.0)):
            x = np.asarray(store.load_solution(str(record.solution_file))["x"], dtype=np.float64)
            if milp.evaluate(instance, milp.solution_type(x)).feasible:
                found.append((entry.name, instance, x))
                break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", help="checkpoint name in solvers/ctc/checkpoints, e.g. setcover")
    parser.add_argument("splits", nargs="+", help="COLLECTION:SPLIT")
    parser.add_argument("--reference-solvers", default="scip,highs,ps-scip")
    parser.add_argument("--results", type=Path, default=SUITE / "leaderboards" / "runs")
    args = parser.parse_args()
    checkpoint = load_solver_module("ctc", "checkpoint")
    features = load_solver_module("ctc", "features")
    labels = load_solver_module("ctc", "labels")
    predict = load_solver_module("ctc", "predict")
    reduce = load_solver_module("ctc", "reduce")
    net, card = checkpoint.load(SUITE / "solvers" / "ctc" / "checkpoints" / f"{args.family}.pt")
    trust = reduce.Trust.from_card(card)
    print(f"{args.family}: trust {trust}")
    registry, store = Registry(), ResultStore(args.results)
    solvers = set(args.reference_solvers.split(","))
    for spec in args.splits:
        collection, split = spec.split(":")
        loose, forced_counts, cut = [], [], []
        for _, instance, best in best_without_rows(store, registry, collection, split, solvers):
            rows = features.analyse_instance(instance)
            marginals, ctc = predict.predict(net, instance, rows, features.LP_TIME)
            forced = reduce.forced_rows(ctc, rows, trust.rows)
            tight = labels.tight_rows(rows, best[None, :])[0]
            loose.append(float((~tight[forced]).mean()) if len(forced) else 0.0)
            forced_counts.append(len(forced))
            first = reduce.ladder(marginals, ctc, rows, trust)[0]
            support = max(int((best[rows.variable_types == 0] > 0.5).sum()), 1)
            cut.append((int((best[first.zeros] > 0.5).sum()) + int((best[first.ones] < 0.5).sum())) / support)
        if not loose:
            print(f"{spec}: no stored solution of {sorted(solvers)}")
            continue
        print(
            f"{spec}: {len(loose)} instances | forced rows {np.mean(forced_counts):.1f}, not tight in the best solution "
            f"{100 * np.mean(loose):.1f}% (max {100 * np.max(loose):.1f}%; over the release budget {trust.releases:g} on "
            f"{sum(share > trust.releases for share in loose)}) | fixings cut {100 * np.mean(cut):.2f}% of its support"
        )


if __name__ == "__main__":
    main()
