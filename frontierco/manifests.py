"""Collection manifests: the TOML files in ``instances/`` that name a collection, its problem and version, and
list its instances. A file instance gives its path (relative to the mirror layout), public origin URL and
sha256; a generated one gives its seed and the content sha256 of what the collection's generator builds.
Either may carry a reference value with its source; a file instance may name one of its problem's transforms
(``transform = "complement"``) to apply to what is read. Any mistake is a one-line RegistryError naming the file.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from frontierco.errors import RegistryError, UnknownName, check_keys
from frontierco.filestore import FileSource
from frontierco.names import BadName, check_name, check_relative
from frontierco.problems import PROBLEMS

SPLITS = ("train", "dev", "test")
REFERENCE_STATUSES = ("optimal", "best-known", "infeasible")
# A collection's memory_mb (its runs' address space and process-tree limit, harness/runner) lies in 64 MB .. 1 TiB: a
# limit above any machine the suite runs on bounds nothing (10^15 MB passed, its byte count past setrlimit's 64 bits).
MEMORY_MB = (64, 1 << 20)
MANIFEST_KEYS = (
    *("name", "problem", "version", "description", "origin", "license"),
    *("generator", "params", "memory_mb", "published_set", "instance"),
)
INSTANCE_KEYS = ("name", "split", "size", "file", "url", "sha256", "transform", "seed", "params", "content_sha256")
REFERENCE_KEYS = ("reference", "reference_status", "reference_source", "published_reference")
SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Reference:
    """A reference objective and where it came from; ``status`` says how much it is worth."""

    value: float | None
    source: str
    status: str
    # a published set's own value (FrontierCO's) where a better, re-verified run became the reference: the value the
    # board's section on the published sets still scores against (``frontierco reference update`` keeps it)
    published: float | None = None

    @property
    def is_optimal(self) -> bool:
        return self.status == "optimal"


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
    size: int | None = None  # nodes, customers or vertices, as the manifest declares it (``size = 6000``)
    transform: str | None = None  # one of the problem's transforms, applied to the file once its checksum is checked

    @property
    def key(self) -> str:
        return f"{self.collection}/{self.name}"

    def require_reference(self) -> Reference:
        """The reference, or a plain error saying the instance has none (never a silent drop)."""
        if self.reference is None:
            raise RegistryError(f"{self.key} has no reference value yet; compute one before scoring it")
        return self.reference


@dataclass(frozen=True)
class PublishedSet:
    """A published test set that a collection reproduces by its names, as far as the mirror holds its files
    (``[published_set]`` in the manifest: ``name`` and ``size``, the count of the set's instances)."""

    name: str
    size: int

    def coverage(self, held: int) -> str:
        """'FrontierCO <set>: 18 of 37'."""
        return f"{self.name}: {held} of {self.size}"


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
    memory_mb: int | None = None  # the address space a run on this collection may use (RLIMIT_AS); None: the default
    published_set: PublishedSet | None = None

    @property
    def coverage(self) -> str:
        """How much of the published set it reproduces ('' when it reproduces none)."""
        return "" if self.published_set is None else self.published_set.coverage(len(self.entries))

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
    value = _number(raw, "reference", where)
    if value is None and status != "infeasible":
        raise RegistryError(f"{where}: a reference value is needed unless reference_status = 'infeasible'")
    return Reference(value, str(raw.get("reference_source", "")), status, _number(raw, "published_reference", where))


def _number(raw: dict[str, object], key: str, where: str) -> float | None:
    """A finite number under ``key``, or None where the key is absent. (TOML's own grammar has '_' between digits:
    ``1_000`` is 1000 to every TOML reader, so a manifest's numbers are taken as tomllib reads them; a string is never
    taken for a number, here or in a generator's parameters.)"""
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise RegistryError(f"{where}: {key} must be a finite number, not {value!r}")
    return float(value)


def _sha256(value: object, key: str, where: str) -> str:
    """A sha256 as manifests write it: 64 hexadecimal digits."""
    if not isinstance(value, str) or not SHA256.fullmatch(value):
        raise RegistryError(f"{where}: {key} must be 64 hexadecimal digits, not {value!r}")
    return value


def _table(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise RegistryError(f"{where}: params must be a table")
    return dict(value)


def _params(collection: dict[str, object], own: dict[str, object], where: str) -> dict[str, object]:
    """A generated instance's parameters: the collection's and its own, which may add to them but not change one."""
    changed = sorted(key for key in own if key in collection and own[key] != collection[key])
    if changed:
        key = changed[0]
        raise RegistryError(
            f"{where}: params {key} = {own[key]!r} contradicts the collection's {key} = {collection[key]!r}"
            " (an instance may add parameters, not change them)"
        )
    return collection | own


def _entry(collection: str, problem: str, top: dict[str, object], raw: object, where: str) -> InstanceEntry:
    if not isinstance(raw, dict):
        raise RegistryError(f"{where}: an instance must be a table ([[instance]])")
    check_keys(raw, INSTANCE_KEYS + REFERENCE_KEYS, where, RegistryError)
    try:
        name, split = str(raw["name"]), str(raw.get("split", "test"))
        if split not in SPLITS:
            raise RegistryError(f"{where}: split must be one of {', '.join(SPLITS)}")
        source: FileSource | GeneratedSource
        check_name(name, "instance name")
        if "file" in raw:
            stray = sorted(key for key in ("seed", "params", "content_sha256") if key in raw)
            if stray:
                raise RegistryError(f"{where}: a file instance takes no {', '.join(stray)} (they describe a generated one)")
            source = FileSource(check_relative(str(raw["file"]), "file"), str(raw["url"]), _sha256(raw["sha256"], "sha256", where))
        else:
            digest = raw.get("content_sha256")
            digest = None if digest is None else _sha256(digest, "content_sha256", where)
            params = _params(_table(top.get("params", {}), where), _table(raw.get("params", {}), where), where)
            seed = raw["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:  # numpy's generators take none below 0
                raise RegistryError(f"{where}: seed must be a non-negative integer, got {seed!r}")
            source = GeneratedSource(str(top["generator"]), params, seed, digest)
    except KeyError as exc:
        raise RegistryError(f"{where}: missing key {exc.args[0]!r}") from None
    except BadName as exc:
        raise RegistryError(f"{where}: {exc}") from None
    size = raw.get("size")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size < 1):
        raise RegistryError(f"{where}: size must be a positive integer")
    transform = raw.get("transform")
    known = PROBLEMS[problem].transforms
    if transform is not None and transform not in known:
        raise RegistryError(f"{where}: transform must be one of {', '.join(sorted(known)) or 'none (this problem has no transforms)'}")
    if transform is not None and not isinstance(source, FileSource):
        raise RegistryError(f"{where}: a transform applies to a file instance, not a generated one")
    transform = None if transform is None else str(transform)
    return InstanceEntry(collection, name, split, problem, source, _reference(raw, where), size, transform)


def _published_set(raw: object, held: int, path: Path) -> PublishedSet | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"name", "size"}:
        raise RegistryError(f"{path}: published_set must be a table of name and size")
    name, size = raw["name"], raw["size"]
    if not isinstance(name, str) or not name or not isinstance(size, int) or isinstance(size, bool) or size < max(held, 1):
        raise RegistryError(f"{path}: published_set needs a name and an integer size of at least the {held} instances listed")
    return PublishedSet(name, size)


def read_manifest(path: Path) -> Collection:
    """Parse one manifest; any mistake is a one-line RegistryError naming the file."""
    try:
        top = tomllib.loads(path.read_text())
    except (ValueError, RecursionError) as exc:  # (TOMLDecodeError; an integer past 4,300 digits; nesting past the stack)
        raise RegistryError(f"{path}: not valid TOML ({exc})") from None
    check_keys(top, MANIFEST_KEYS, str(path), RegistryError)
    if "params" in top and "generator" not in top:
        raise RegistryError(f"{path}: params are a generator's, but the manifest names no generator")
    try:
        name, problem = str(top["name"]), str(top["problem"])
    except KeyError as exc:
        raise RegistryError(f"{path}: missing key {exc.args[0]!r}") from None
    if problem not in PROBLEMS:
        raise RegistryError(f"{path}: unknown problem {problem!r}")
    try:
        check_name(name, "collection name")
    except BadName as exc:
        raise RegistryError(f"{path}: {exc}") from None
    raw_entries = top.get("instance", [])
    if not isinstance(raw_entries, list):
        raise RegistryError(f"{path}: instance must be an array of tables ([[instance]])")
    entries = tuple(_entry(name, problem, top, raw, f"{path} instance {k}") for k, raw in enumerate(raw_entries))
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise RegistryError(f"{path}: instance names repeat")
    version = top.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RegistryError(f"{path}: version must be a positive integer, got {version!r}")  # (an int() traceback)
    memory = top.get("memory_mb")
    low, high = MEMORY_MB
    if memory is not None and (not isinstance(memory, int) or isinstance(memory, bool) or not low <= memory <= high):
        raise RegistryError(f"{path}: memory_mb must be an integer in {low}..{high} (megabytes: 64 MB to 1 TiB), got {memory!r}")
    return Collection(
        name,
        problem,
        version,
        str(top.get("description", "")),
        entries,
        str(top.get("origin", "")),
        str(top.get("license", "")),
        path,
        memory,
        _published_set(top.get("published_set"), len(entries), path),
    )
