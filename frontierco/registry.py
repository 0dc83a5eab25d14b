"""The registry: every collection of the suite's manifests and the workspace's own, and its instances loaded
(read from files through the file store, or generated and checked against their content hash)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from frontierco.errors import FrontiercoError, RegistryError, UnknownName
from frontierco.filestore import FileSource, FileStore
from frontierco.manifests import Collection, InstanceEntry, read_manifest
from frontierco.problems import PROBLEMS, Instance
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.files import read_instance
from frontierco.problems.generate import generate
from frontierco.workspace import SUITE, Context

INSTANCES_DIR = SUITE / "instances"


@dataclass
class Registry:
    """All collections under one or more manifest folders (by default the suite's; ``Registry.of(context)``: the
    suite's, then the workspace's own), loaded lazily, names unique across them."""

    directory: Path | tuple[Path, ...] | None = None
    store: FileStore = field(default_factory=FileStore)

    @classmethod
    def of(cls, context: Context) -> Registry:
        """The registry of a context: its manifest folders, its file store."""
        return cls(tuple(context.layers("instances")), context.files)

    @property
    def directories(self) -> tuple[Path, ...]:
        if self.directory is None:
            return (INSTANCES_DIR,)
        return (self.directory,) if isinstance(self.directory, Path) else self.directory

    @cached_property
    def collections(self) -> dict[str, Collection]:
        found: dict[str, Collection] = {}
        paths = [p for folder in self.directories for p in sorted(folder.rglob("*.toml")) if p.parent.name != "cities"]
        for path in paths:  # cities/ holds the city catalog
            collection = read_manifest(path)
            if collection.name in found:
                raise RegistryError(f"collection {collection.name!r} is defined twice: {found[collection.name].manifest} and {path}")
            found[collection.name] = collection
        return found

    def collection(self, name: str) -> Collection:
        if name not in self.collections:
            raise UnknownName(f"unknown collection {name!r}; see 'frontierco instances list'")
        return self.collections[name]

    def entry(self, key: str) -> InstanceEntry:
        """An entry by 'collection/instance'."""
        collection, _, name = key.partition("/")
        return self.collection(collection).entry(name)

    def load(self, entry: InstanceEntry) -> Instance:
        """Read or generate the instance and check its checksum (a file's, before the entry's transform if any)."""
        source = entry.source
        if isinstance(source, FileSource):
            instance = read_instance(self.store.path(source))
        else:
            try:
                instance = generate(source.generator, entry.name, source.seed, source.params, self.store).instance
            except MemoryError as exc:  # parameters past this machine (n = 10^12: 7.28 TiB), refused by numpy at once
                raise RegistryError(f"{entry.key}: cannot generate it with {source.params} ({exc})") from None
            if source.content_sha256 is not None and content_sha256(instance) != source.content_sha256:
                raise RegistryError(f"{entry.key}: the generator no longer builds the pinned instance (content sha256 differs)")
        if entry.transform is None:
            return instance
        try:
            return PROBLEMS[entry.problem].transforms[entry.transform](instance)
        except ValueError as exc:
            raise RegistryError(f"{entry.key}: cannot apply {entry.transform!r}: {exc}") from None

    def sense(self, entry: InstanceEntry) -> str:
        """min or max for this instance: its problem's, or its own where instances state one (which loads it)."""
        problem = PROBLEMS[entry.problem]
        return problem.sense_of(self.load(entry)) if problem.sense_varies else problem.sense

    def verify(self, entry: InstanceEntry) -> str:
        """'' when the entry loads and matches its checksum, else the one-line reason."""
        try:
            self.load(entry)
        except FrontiercoError as exc:
            return str(exc)
        return ""
