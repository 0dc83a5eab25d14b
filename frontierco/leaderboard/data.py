"""From run records to scored runs and per-solver aggregates, against the references in the manifests
now (a record's own copy of the reference may predate a better one)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from frontierco.errors import FrontiercoError
from frontierco.filestore import FileSource
from frontierco.manifests import Collection, InstanceEntry
from frontierco.metrics import Aggregate, ScoredRun, aggregate, score_run
from frontierco.registry import Registry
from frontierco.results import RunRecord


@dataclass(frozen=True)
class CollectionBoard:
    collection: Collection
    runs: list[ScoredRun]
    aggregates: list[Aggregate]
    instances_without_reference: list[str]
    dropped: int = 0  # records left out: their instance left the collection or changed since the run

    @property
    def instances(self) -> int:
        """How many instances the board's rows ran on, together."""
        return len({run.record.instance for run in self.runs})

    def coverage(self, aggregate: Aggregate) -> int:
        """How many instances a row ran on."""
        return len({run.record.instance for run in self.runs if run.group == (aggregate.solver, aggregate.time_limit)})

    def solver_of(self, row: str) -> str:
        """The solver of a row of this board (``solver``, ``solver{k=v}``, ``solver@device``), as its records say."""
        return next((run.record.solver for run in self.runs if run.record.row_name == row), row)

    def unsandboxed(self, aggregate: Aggregate) -> int:
        """How many of a row's runs had no sandbox (``provenance.sandbox``: where neither Landlock nor
        bubblewrap worked, or it was turned off); records from before the sandbox are not counted."""
        row = [run for run in self.runs if run.group == (aggregate.solver, aggregate.time_limit)]
        return sum(1 for run in row if run.record.unsandboxed)

    def comparable(self, aggregate: Aggregate) -> bool:
        """A row that ran on every instance of the board: only such rows are ranked (bold, leader: ``ranking.rank``)."""
        return self.coverage(aggregate) == self.instances


def _sense(registry: Registry, collection: Collection, record: RunRecord) -> str:
    """The record's own sense; for records older than that field, the instance's."""
    return record.sense or registry.sense(collection.entry(record.instance))


def _sha(entry: InstanceEntry) -> str:
    source = entry.source
    return source.sha256 if isinstance(source, FileSource) else (source.content_sha256 or "")


def newest_versions(records: list[RunRecord]) -> list[RunRecord]:
    """The records of each solver's newest version (the version of its latest finished run): a solver whose
    code changed gets a new version, and its older runs stay in the store but leave the board."""
    latest: dict[str, tuple[str, str]] = {}
    for record in records:
        finished = str(record.provenance.get("finished_at", ""))
        if record.solver not in latest or finished > latest[record.solver][0]:
            latest[record.solver] = (finished, record.solver_version)
    return [r for r in records if r.solver_version == latest[r.solver][1]]


def boards(registry: Registry, records: list[RunRecord]) -> list[CollectionBoard]:
    """One board per collection that has records (runs on loose files are left out)."""
    by_collection: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        if not record.on_file:
            by_collection[record.collection].append(record)
    result = []
    for name in sorted(by_collection):
        try:
            collection = registry.collection(name)
        except FrontiercoError:
            continue
        references = {e.name: (e.reference.value if e.reference else None) for e in collection.entries}
        current = {e.name: _sha(e) for e in collection.entries}
        runs, dropped = [], 0
        for record in sorted(newest_versions(by_collection[name]), key=lambda r: (r.solver, r.time_limit, r.instance, r.seed, r.run_id)):
            expected = current.get(record.instance)
            if expected is None or (expected and expected != record.instance_sha256):
                dropped += 1  # the instance was removed from the collection, or changed since this run
                continue
            reference = references.get(record.instance)
            sense = _sense(registry, collection, record) if reference is not None else "min"
            runs.append(score_run(record, reference, sense))
        groups: dict[tuple[str, float], list[ScoredRun]] = defaultdict(list)
        for run in runs:
            groups[run.group].append(run)
        aggregates = [aggregate(groups[key], collection.problem) for key in sorted(groups)]
        missing = sorted({r.record.instance for r in runs if r.reference is None})
        result.append(CollectionBoard(collection, runs, aggregates, missing, dropped))
    return result
