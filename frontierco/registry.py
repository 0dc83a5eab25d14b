"""Collections of instances described by TOML manifests in ``instances/``.

A manifest names a collection, its problem and version, and lists its instances. A file instance
gives its path (relative to the mirror layout), public origin URL and sha256; a generated one gives
its seed and the content sha256 of what the collection's generator builds. Either may carry a
reference value with its source. Files resolve from the cache directory, then the offline mirror,
then a download, and are always checked against their sha256.

Settings: ``FRONTIERCO_MIRROR`` (default: ``../shared/data`` beside the project, when it exists),
``FRONTIERCO_CACHE`` (default: ``~/.cache/frontierco``), ``FRONTIERCO_OFFLINE=1`` forbids downloads.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from frontierco.errors import FrontiercoError, RegistryError, UnknownName
from frontierco.fingerprint import content_sha256, file_sha256
from frontierco.formats import read_instance
from frontierco.generators import generate
from frontierco.problems import PROBLEMS, Instance
from frontierco.workspace import SUITE, layers

log = logging.getLogger(__name__)

INSTANCES_DIR = SUITE / "instances"
SPLITS = ("train", "dev", "test")
REFERENCE_STATUSES = ("optimal", "best-known", "infeasible")


@dataclass(frozen=True)
class Reference:
    """A reference objective and where it came from; ``status`` says how much it is worth."""

    value: float | None
    source: str
    status: str

    @property
    def is_optimal(self) -> bool:
        return self.status == "optimal"


@dataclass(frozen=True)
class FileSource:
    path: str
    url: str
    sha256: str


@dataclass(frozen=True)
class GeneratedSource:
    generator: str
    params: dict[str, object]
    seed: int
    content_sha256: str | None


@dataclass(frozen=True)
class InstanceEntry:
    """One instance of a collection; ``load`` builds or reads it and checks its checksum."""

    collection: str
    name: str
    split: str
    problem: str
    source: FileSource | GeneratedSource
    reference: Reference | None

    @property
    def key(self) -> str:
        return f"{self.collection}/{self.name}"

    def require_reference(self) -> Reference:
        """The reference, or a plain error saying the instance has none (never a silent drop)."""
        if self.reference is None:
            raise RegistryError(f"{self.key} has no reference value yet; compute one before scoring it")
        return self.reference


@dataclass(frozen=True)
class Collection:
    name: str
    problem: str
    version: int
    description: str
    entries: tuple[InstanceEntry, ...]
    origin: str = ""
    license: str = ""
    manifest: Path = field(default=Path(), compare=False)

    def split(self, split: str | None) -> list[InstanceEntry]:
        """Entries of one split (all of them when ``split`` is None)."""
        if split is not None and split not in SPLITS:
            raise UnknownName(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
        return [e for e in self.entries if split is None or e.split == split]

    def entry(self, name: str) -> InstanceEntry:
        for e in self.entries:
            if e.name == name:
                return e
        raise UnknownName(f"collection {self.name} has no instance {name!r}")


def _reference(raw: dict[str, object], where: str) -> Reference | None:
    status = raw.get("reference_status")
    if "reference" not in raw and status is None:
        return None
    status = str(status or "best-known")
    if status not in REFERENCE_STATUSES:
        raise RegistryError(f"{where}: reference_status must be one of {', '.join(REFERENCE_STATUSES)}")
    value = raw.get("reference")
    if value is None and status != "infeasible":
        raise RegistryError(f"{where}: a reference value is needed unless reference_status = 'infeasible'")
    return Reference(None if value is None else float(value), str(raw.get("reference_source", "")), status)  # type: ignore[arg-type]


def _table(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise RegistryError(f"{where}: params must be a table")
    return dict(value)


def _entry(collection: str, problem: str, top: dict[str, object], raw: dict[str, object], where: str) -> InstanceEntry:
    try:
        name, split = str(raw["name"]), str(raw.get("split", "test"))
        if split not in SPLITS:
            raise RegistryError(f"{where}: split must be one of {', '.join(SPLITS)}")
        source: FileSource | GeneratedSource
        if "file" in raw:
            source = FileSource(str(raw["file"]), str(raw["url"]), str(raw["sha256"]))
        else:
            digest = raw.get("content_sha256")
            params = _table(top.get("params", {}), where) | _table(raw.get("params", {}), where)
            seed = raw["seed"]
            if not isinstance(seed, int):
                raise RegistryError(f"{where}: seed must be an integer")
            source = GeneratedSource(str(top["generator"]), params, seed, None if digest is None else str(digest))
    except KeyError as exc:
        raise RegistryError(f"{where}: missing key {exc.args[0]!r}") from None
    return InstanceEntry(collection, name, split, problem, source, _reference(raw, where))


def read_manifest(path: Path) -> Collection:
    """Parse one manifest; any mistake is a one-line RegistryError naming the file."""
    try:
        top = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(f"{path}: not valid TOML ({exc})") from None
    try:
        name, problem = str(top["name"]), str(top["problem"])
    except KeyError as exc:
        raise RegistryError(f"{path}: missing key {exc.args[0]!r}") from None
    if problem not in PROBLEMS:
        raise RegistryError(f"{path}: unknown problem {problem!r}")
    raw_entries = top.get("instance", [])
    entries = tuple(_entry(name, problem, top, raw, f"{path} instance {k}") for k, raw in enumerate(raw_entries))
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise RegistryError(f"{path}: instance names repeat")
    return Collection(
        name,
        problem,
        int(top.get("version", 1)),
        str(top.get("description", "")),
        entries,
        str(top.get("origin", "")),
        str(top.get("license", "")),
        path,
    )


def default_mirror() -> Path | None:
    """The offline mirror ``FRONTIERCO_MIRROR`` names (CI and the tests set it), else none."""
    configured = os.environ.get("FRONTIERCO_MIRROR")
    return Path(configured) if configured else None


def default_cache() -> Path:
    return Path(os.environ.get("FRONTIERCO_CACHE", Path.home() / ".cache" / "frontierco"))


@dataclass
class FileStore:
    """Finds a file instance: cache, then mirror, then download; always checks the sha256."""

    cache: Path = field(default_factory=default_cache)
    mirror: Path | None = field(default_factory=default_mirror)
    offline: bool = field(default_factory=lambda: os.environ.get("FRONTIERCO_OFFLINE", "") == "1")

    def path(self, source: FileSource) -> Path:
        for root in (self.cache, self.mirror):
            if root is not None and (root / source.path).is_file():
                return self._checked(root / source.path, source)
        if self.offline:
            raise RegistryError(f"{source.path} is not in the cache or mirror and downloads are off (FRONTIERCO_OFFLINE=1)")
        return self._checked(self._download(source), source)

    def has(self, source: FileSource) -> bool:
        """Whether the cache or the mirror holds the file (nothing is downloaded or checked)."""
        return any(root is not None and (root / source.path).is_file() for root in (self.cache, self.mirror))

    def _checked(self, path: Path, source: FileSource) -> Path:
        actual = file_sha256(str(path))
        if actual != source.sha256:
            raise RegistryError(f"checksum mismatch for {path}: expected {source.sha256[:12]}..., got {actual[:12]}...")
        return path

    def _download(self, source: FileSource) -> Path:
        import urllib.request

        target = self.cache / source.path
        target.parent.mkdir(parents=True, exist_ok=True)
        log.info("downloading %s", source.url)
        try:
            with (
                urllib.request.urlopen(source.url, timeout=60) as response,
                tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp,
            ):
                shutil.copyfileobj(response, tmp)
        except OSError as exc:
            raise RegistryError(f"could not download {source.url}: {exc}") from None
        Path(tmp.name).replace(target)
        return target


@dataclass
class Registry:
    """All collections under one or more manifest folders (by default the suite's, then the workspace's own),
    loaded lazily, names unique across them."""

    directory: Path | tuple[Path, ...] | None = None
    store: FileStore = field(default_factory=FileStore)

    @property
    def directories(self) -> tuple[Path, ...]:
        if self.directory is None:
            return tuple(layers("instances"))
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
        """Read or generate the instance and check its checksum."""
        source = entry.source
        if isinstance(source, FileSource):
            return read_instance(self.store.path(source))
        instance = generate(source.generator, entry.name, source.seed, source.params).instance
        if source.content_sha256 is not None and content_sha256(instance) != source.content_sha256:
            raise RegistryError(f"{entry.key}: the generator no longer builds the pinned instance (content sha256 differs)")
        return instance

    def sense(self, entry: InstanceEntry) -> str:
        """min or max for this instance: its problem's, or for a MILP its own (which loads it)."""
        problem = PROBLEMS[entry.problem]
        return problem.sense_of(self.load(entry)) if entry.problem == "milp" else problem.sense

    def verify(self, entry: InstanceEntry) -> str:
        """'' when the entry loads and matches its checksum, else the one-line reason."""
        try:
            self.load(entry)
        except FrontiercoError as exc:
            return str(exc)
        return ""
