"""What the ``instances`` commands do, as plain functions over a Registry."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from frontierco.errors import UsageError
from frontierco.filestore import FileSource
from frontierco.manifests import Collection, InstanceEntry
from frontierco.names import inside
from frontierco.problems.files import natural_suffix, write_instance
from frontierco.registry import Registry


@dataclass(frozen=True)
class CollectionSummary:
    name: str
    problem: str
    kind: str
    splits: dict[str, int]
    with_reference: int
    description: str

    @property
    def size(self) -> int:
        return sum(self.splits.values())


def summarise(collection: Collection) -> CollectionSummary:
    splits: dict[str, int] = {}
    for entry in collection.entries:
        splits[entry.split] = splits.get(entry.split, 0) + 1
    kind = "files" if collection.entries and isinstance(collection.entries[0].source, FileSource) else "generated"
    with_reference = sum(1 for e in collection.entries if e.reference is not None)
    return CollectionSummary(collection.name, collection.problem, kind, splits, with_reference, collection.description)


def list_collections(registry: Registry, problem: str | None = None) -> list[CollectionSummary]:
    """A summary per collection, optionally of one problem, sorted by problem then name."""
    summaries = [summarise(c) for c in registry.collections.values() if problem is None or c.problem == problem]
    return sorted(summaries, key=lambda s: (s.problem, s.name))


Progress = Callable[[Iterable[InstanceEntry]], Iterable[InstanceEntry]]


def _plain(entries: Iterable[InstanceEntry]) -> Iterable[InstanceEntry]:
    return entries


def generate_collection(registry: Registry, name: str, out: Path, split: str | None = None, progress: Progress = _plain) -> list[Path]:
    """Write every instance of a collection (or one split) to ``out`` in its natural format (``out`` is made
    once the collection is known)."""
    entries = registry.collection(name).split(split)
    written: list[Path] = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for entry in progress(entries):
            instance = registry.load(entry)
            path = inside(out, f"{entry.name}{natural_suffix(instance)}", "instance file")
            write_instance(path, instance)
            written.append(path)
    except OSError as exc:  # (an --out that is a file, a full disk: tracebacks)
        raise UsageError(f"cannot write the instances to {out}: {exc.strerror or exc}") from None
    return written


def verify_collection(
    registry: Registry, name: str, split: str | None = None, progress: Progress = _plain
) -> list[tuple[InstanceEntry, str]]:
    """Load every instance, checking checksums and readability; the failures with their reasons."""
    failures = []
    for entry in progress(registry.collection(name).split(split)):
        problem = registry.verify(entry)
        if problem:
            failures.append((entry, problem))
    return failures
