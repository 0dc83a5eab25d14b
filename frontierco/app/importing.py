"""``frontierco instances import DIR``: a downloaded FrontierCO data tree becomes workspace collections.

FrontierCO's data (its Hugging Face dataset ``CO-Bench/FrontierCO``) lays each problem out as ``<P>/config.py`` beside
``<P>/easy_test_instances``, ``<P>/hard_test_instances`` and ``<P>/valid_instances`` (``P`` the problem's
``frontierco_folder``, in capitals). Each such folder becomes one collection, ``<prefix>-<problem>-<easy|hard|
valid>``, of FrontierCO's instances by FrontierCO's names (the file name, without a suffix the suite reads by), split
``test`` (easy and hard) or ``dev`` (valid), each with its sha256 and, where the tree's Python files state it
(``OPTIMAL_SCORES`` or ``norm_score``'s ``optimal_scores``: ``{'easy_test_instances/<file>': [value], ...}``,
read as data by ``ast``, never run), FrontierCO's value as the reference. Every file is read here as the registry will
read it (``problems.files.read_instance``: its form decided by its content where the suffix does not say, as
FrontierCO's ``E10k.0`` and its ``.txt`` files need) and must be an instance of the folder's problem; a problem whose
FrontierCO loader reads its files otherwise than their format does gets that transform (``frontierco_transform``).

Nothing is written until the whole tree has been read: then each file is linked (or copied) into the file store's
cache at ``frontierco/<P>/<folder>/<file>`` (the manifest's ``file``, its ``url`` the dataset's address of it) and the
manifests are written to ``<workspace>/instances/<prefix>/``. A name from the tree becomes a path or a name only once
checked (``names.check_name``); any problem is one line (``ImportFailed``), and nothing is left written.
"""

from __future__ import annotations

import ast
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from frontierco.errors import FrontiercoError
from frontierco.names import check_name, inside
from frontierco.problems import PROBLEMS, problem_of
from frontierco.problems.common.checks import finite_number
from frontierco.problems.common.fingerprint import file_sha256
from frontierco.problems.common.text import base_suffix
from frontierco.problems.files import INSTANCE_SUFFIXES, read_instance
from frontierco.registry import Registry

DATASET = "https://huggingface.co/datasets/CO-Bench/FrontierCO/resolve/main"
SETS = {"easy_test_instances": ("easy", "test"), "hard_test_instances": ("hard", "test"), "valid_instances": ("valid", "dev")}
VALUE_NAMES = ("optimal_scores",)  # the dictionaries of FrontierCO's values (any case: OPTIMAL_SCORES too)
CACHED = "frontierco"  # the cache folder of the imported files


class ImportFailed(FrontiercoError):
    """The tree cannot be imported as it is (one line: what and where)."""


@dataclass(frozen=True)
class ImportedFile:
    source: Path
    name: str  # FrontierCO's name: the file's, without a suffix the suite reads by
    cached: str  # its path in the file store: frontierco/<P>/<folder>/<file>
    sha256: str
    value: float | None
    transform: str | None


@dataclass(frozen=True)
class ImportedSet:
    collection: str
    problem: str
    folder: str  # FrontierCO's problem folder (its name in capitals)
    subset: str  # easy_test_instances, ...
    split: str
    files: list[ImportedFile]
    published: int  # how many instances FrontierCO's values list for the set (0: the tree states none)

    def manifest(self) -> dict[str, object]:
        kind, _ = SETS[self.subset]
        with_value = sum(1 for f in self.files if f.value is not None)
        data: dict[str, object] = {
            "name": self.collection,
            "problem": self.problem,
            "version": 1,
            "description": (
                f"FrontierCO's {self.folder} {kind} set ({self.folder}/{self.subset} of its data, imported by 'frontierco instances "
                f"import'): {len(self.files)} files, {with_value} with FrontierCO's value"
            ),
            "origin": "https://huggingface.co/datasets/CO-Bench/FrontierCO",
        }
        if self.split == "test":
            data["published_set"] = {"name": f"FrontierCO {self.folder} {kind}", "size": max(self.published, len(self.files))}
        data["instance"] = [_entry(self.split, f) for f in self.files]
        return data


def _entry(split: str, imported: ImportedFile) -> dict[str, object]:
    entry: dict[str, object] = {
        "name": imported.name,
        "split": split,
        "file": imported.cached,
        "url": f"{DATASET}/{imported.cached.removeprefix(CACHED + '/')}",
        "sha256": imported.sha256,
    }
    if imported.transform is not None:
        entry["transform"] = imported.transform
    if imported.value is not None:
        entry |= {"reference": imported.value, "reference_source": "FrontierCO's values in its data", "reference_status": "best-known"}
    return entry


MAX_CONFIG_BYTES = 1 << 20  # FrontierCO's config.py files are a few KB


def _values(folder: Path) -> dict[str, float | None]:
    """'<set folder>/<file>' -> FrontierCO's value, from the dictionaries its Python files assign (read, never run);
    None for a file holding several instances (a list of several values)."""
    found: dict[str, float | None] = {}
    for path in sorted(folder.glob("*.py")):
        if path.stat().st_size > MAX_CONFIG_BYTES:  # parsing takes ~2 KB a byte: 12 MB of Python took 4 GB
            raise ImportFailed(f"{path}: {path.stat().st_size} bytes, over the {MAX_CONFIG_BYTES} a FrontierCO config.py may have")
        try:
            tree = ast.parse(path.read_bytes(), filename=str(path))
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            raise ImportFailed(f"{path}: not readable as Python ({exc})") from None
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                if any(isinstance(t, ast.Name) and t.id.lower() in VALUE_NAMES for t in node.targets):
                    found |= _literal_values(path, node.value)
    return found


def _literal_values(path: Path, node: ast.Dict) -> dict[str, float | None]:
    try:
        table = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ImportFailed(f"{path}, line {node.lineno}: FrontierCO's values are not a plain dictionary of lists of numbers") from None
    values: dict[str, float | None] = {}
    for key, listed in table.items():
        if isinstance(key, str) and isinstance(listed, list):
            values[key] = finite_number(listed[0]) if len(listed) == 1 else None  # (a 400-digit value was an OverflowError)
    return values


def _name(path: Path) -> str:
    """FrontierCO's name of a file: without the suffix the suite reads it by (``73.txt``: ``73``; ``E10k.0``, whose
    ``.0`` is no suffix the suite knows, keeps it), checked as a name."""
    suffix = base_suffix(path)
    name = path.name[: path.name.lower().rindex(suffix)] if suffix in INSTANCE_SUFFIXES else path.name
    return check_name(name, "instance")


def _read(path: Path, problem: str, where: str) -> str | None:
    """Read the file as the registry will; the transform its problem's FrontierCO loader implies, if it applies."""
    try:
        instance = read_instance(path)
    except FrontiercoError as exc:  # (a FormatError names the file and its line)
        raise ImportFailed(str(exc)) from None
    except (OSError, ValueError) as exc:
        raise ImportFailed(f"{where}: not readable ({exc})") from None
    found = problem_of(instance).name
    if found != problem:
        raise ImportFailed(f"{where}: a {found} instance in FrontierCO's {PROBLEMS[problem].frontierco_folder} folder")
    transform = PROBLEMS[problem].frontierco_transform
    if transform is None:
        return None
    try:
        PROBLEMS[problem].transforms[transform](instance)
    except ValueError:
        return None  # (a file its transform does not fit, e.g. distances that are not Euclidean: read as it is)
    return transform


def _set(tree: Path, problem: str, folder: str, subset: str, prefix: str, values: dict[str, float | None]) -> ImportedSet | None:
    directory = tree / folder / subset
    if not directory.is_dir():
        return None
    kind, split = SETS[subset]
    collection = check_name(f"{prefix}-{problem}-{kind}", "collection")
    files, names = [], dict[str, str]()
    for path in sorted(directory.iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        where = f"{folder}/{subset}/{path.name}"
        try:
            name = _name(path)
        except FrontiercoError as exc:
            raise ImportFailed(f"{where}: {exc}") from None
        if name in names:
            raise ImportFailed(f"{where}: FrontierCO's name {name!r} again (also {names[name]})")
        names[name] = path.name
        transform = _read(path, problem, where)
        cached = "/".join((CACHED, folder, subset, check_name(path.name, "file")))
        files.append(ImportedFile(path, name, cached, file_sha256(str(path)), values.get(f"{subset}/{path.name}"), transform))
    if not files:
        return None
    published = sum(1 for key in values if key.startswith(f"{subset}/"))
    return ImportedSet(collection, problem, folder, subset, split, files, published)


def read_tree(tree: Path, prefix: str = "fco") -> list[ImportedSet]:
    """The collections a FrontierCO data tree makes (nothing written); ImportFailed when it cannot be imported."""
    if not tree.is_dir():
        raise ImportFailed(f"{tree} is not a folder")
    check_name(prefix, "collection prefix")
    folders = {p.frontierco_folder: name for name, p in sorted(PROBLEMS.items()) if p.frontierco_folder is not None}
    present = sorted(folder for folder in folders if (tree / folder).is_dir())
    if not present:
        raise ImportFailed(f"{tree} holds none of FrontierCO's problem folders ({', '.join(sorted(folders))})")
    sets = []
    for folder in present:
        values = _values(tree / folder)
        for subset in SETS:
            made = _set(tree, folders[folder], folder, subset, prefix, values)
            if made is not None:
                sets.append(made)
    if not sets:
        raise ImportFailed(f"{tree} holds no instance files in {', '.join(SETS)} of {', '.join(present)}")
    return sets


def _place(source: Path, target: Path) -> None:
    """The file at ``target``: a hard link where the file system allows one, else a copy (through a temporary name)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.part")
    partial.unlink(missing_ok=True)
    try:
        os.link(source, partial)
    except OSError:
        shutil.copyfile(source, partial)
    os.replace(partial, target)


def import_tree(tree: Path, registry: Registry, manifests: Path, prefix: str = "fco") -> list[ImportedSet]:
    """Read the tree (``read_tree``), then place its files in ``registry``'s file store cache and write one manifest per
    collection into ``manifests`` (the workspace's ``instances/<prefix>``): all of it, or nothing (a collection or
    manifest of the same name is refused before anything is written)."""
    sets = read_tree(tree, prefix)
    for made in sets:
        if made.collection in registry.collections:
            raise ImportFailed(
                f"collection {made.collection!r} exists already ({registry.collections[made.collection].manifest}); choose another --prefix"
            )
        if (manifests / f"{made.collection}.toml").exists():
            raise ImportFailed(f"{manifests / f'{made.collection}.toml'} exists already")
    cache = registry.store.cache
    written: list[Path] = []
    try:
        for made in sets:
            for imported in made.files:
                target = inside(cache, imported.cached, "file")
                if not (target.is_file() and file_sha256(str(target)) == imported.sha256):
                    _place(imported.source, target)
                    written.append(target)
        manifests.mkdir(parents=True, exist_ok=True)
        for made in sets:
            path = manifests / f"{made.collection}.toml"
            path.write_text(tomli_w.dumps(made.manifest()))
            written.append(path)
    except OSError as exc:
        for path in written:
            path.unlink(missing_ok=True)
        raise ImportFailed(f"could not write {getattr(exc, 'filename', None) or 'a file'}: {exc.strerror or exc}") from None
    return sets
