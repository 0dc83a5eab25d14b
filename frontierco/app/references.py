"""Reference values: compute them with a strong solver at a long limit, and take over better solutions
found by any run once the harness has re-verified them. Both write into the collection's manifest with
the provenance of the value ("pyvrp 300 s, seed 0", "lkh run 3f2a... (re-verified)")."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import tomlkit

from frontierco.app.verify import verify_run
from frontierco.errors import RegistryError, SolutionUnavailable, UsageError
from frontierco.harness.plan import Selection
from frontierco.harness.request import Execution, RunRequest, run
from frontierco.metrics import same_value_slack
from frontierco.registry import Registry
from frontierco.results import FEASIBLE_STATUSES, ResultStore, RunRecord
from frontierco.solver import Budget
from frontierco.workspace import Context

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    instance: str
    old: float | None
    new: float
    source: str
    status: str
    published: float | None = None  # a published set's own value, kept beside the new reference (written once)


def _better(sense: str, new: float, old: float | None) -> bool:
    if old is None:
        return True
    slack = same_value_slack(old)
    return new < old - slack if sense == "min" else new > old + slack


def write_changes(manifest: Path, changes: list[Change]) -> None:
    """Write new reference values into a manifest, leaving everything else as it was: its comments, order and
    layout too (tomlkit edits the parsed document in place; a key the entry lacks is added at its end)."""
    document = tomlkit.parse(manifest.read_text())
    by_name = {c.instance: c for c in changes}
    for raw in document.get("instance", []):
        change = by_name.get(raw["name"])
        if change is not None:
            raw.update(reference=change.new, reference_source=change.source, reference_status=change.status)
            if change.published is not None and "published_reference" not in raw:
                raw["published_reference"] = change.published
    manifest.write_text(tomlkit.dumps(document))


def _best_record(records: list[RunRecord], sense: str) -> RunRecord | None:
    """The record with the best feasible objective (a proven one first among equals)."""
    best: RunRecord | None = None
    for record in records:
        if record.objective is None or record.status not in FEASIBLE_STATUSES:
            continue
        if (
            best is None
            or _better(sense, record.objective, best.objective)
            or (record.objective == best.objective and record.proven and not best.proven)
        ):
            best = record
    return best


def compute_references(
    context: Context,
    registry: Registry,
    collection: str,
    solver: str,
    time_limit: float,
    store: ResultStore,
    execution: Execution | None = None,
) -> list[Change]:
    """Run ``solver`` on every instance of the collection (all splits; resumable; its records in ``store``, the
    workspace's reference runs for the command line) and record the best value found per instance where it
    improves on the stored reference (a proven optimum is kept)."""
    chosen = registry.collection(collection)
    request = RunRequest(solver, Selection(collection, None), Budget(time_limit), chosen.problem, execution=execution or Execution())
    run(context, request, store, registry=registry)
    records = [r for r in store.records(collection, solver) if r.time_limit == time_limit]
    changes = []
    for entry in chosen.entries:
        old = entry.reference
        if old is not None and old.status == "optimal":
            continue
        sense = registry.sense(entry)
        record = _best_record([r for r in records if r.instance == entry.name], sense)
        if record is None or record.objective is None or not _better(sense, record.objective, old.value if old else None):
            continue
        status = "optimal" if record.proven else "best-known"
        source = f"{solver} {time_limit:g} s, seed {record.seed}" + (" (proven optimal)" if record.proven else "")
        changes.append(Change(entry.name, old.value if old else None, record.objective, source, status))
    if changes:
        write_changes(chosen.manifest, changes)
    return changes


def update_references(registry: Registry, store: ResultStore, collections: set[str] | None = None) -> list[Change]:
    """Take over every stored run (of ``collections`` when given) that beats its instance's reference, after
    re-verifying its solution. A run that beats a proven optimum is an error to investigate, never written. In a
    collection of a published set the set's own value stays beside the new one (``published_reference``)."""
    changes_by_collection: dict[str, list[Change]] = {}
    for record in store.records():
        if record.on_file or record.objective is None or record.status not in FEASIBLE_STATUSES:
            continue
        if collections is not None and record.collection not in collections:
            continue
        try:
            entry = registry.entry(f"{record.collection}/{record.instance}")
        except RegistryError:
            continue  # its collection or instance left the manifests since the run (the leaderboard counts these)
        reference = entry.reference
        pending = {c.instance: c for c in changes_by_collection.get(record.collection, [])}
        current = pending[record.instance].new if record.instance in pending else (reference.value if reference else None)
        sense = registry.sense(entry)
        if not _better(sense, record.objective, current):
            continue
        if reference is not None and reference.status == "optimal":
            raise UsageError(f"run {record.run_id} of {record.solver} beats the proven optimum of {entry.key}: check the reference")
        try:
            check = verify_run(store, record.run_id, registry)
        except SolutionUnavailable as exc:
            log.warning("run %s is not taken over: %s", record.run_id, exc)  # what cannot be re-checked is no reference
            continue
        if not check.agrees:
            raise UsageError(f"run {record.run_id} does not re-verify ({check.evaluation.reason or 'objective differs'})")
        published = None
        if reference is not None and registry.collection(record.collection).published_set is not None:
            published = reference.published if reference.published is not None else reference.value
        change = Change(
            record.instance,
            reference.value if reference else None,
            record.objective,
            f"{record.solver} run {record.run_id} (re-verified)",
            "best-known",
            published,
        )
        pending[record.instance] = change
        changes_by_collection[record.collection] = list(pending.values())
    for collection, changes in changes_by_collection.items():
        write_changes(registry.collection(collection).manifest, changes)
    return [c for changes in changes_by_collection.values() for c in changes]
