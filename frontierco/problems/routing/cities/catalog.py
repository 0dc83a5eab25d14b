"""The cities the suite knows (``instances/cities/cities.toml``): a shipped ``.npz`` checked against its
sha256, or an OpenStreetMap extract (from the cache, the mirror or its public origin, checked against its
sha256) built on first use into the cache with the recorded point count and seed."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from frontierco.errors import RegistryError
from frontierco.filestore import FileSource, FileStore
from frontierco.problems.common.fingerprint import file_sha256
from frontierco.problems.routing.cities.city import City, read_city
from frontierco.workspace import SUITE

CITIES_DIR = SUITE / "instances" / "cities"
CATALOG = CITIES_DIR / "cities.toml"


def catalog() -> dict[str, dict[str, Any]]:
    data = tomllib.loads(CATALOG.read_text())
    return {str(c["name"]): c for c in data.get("city", [])}


def load_city(name: str, files: FileStore | None = None) -> City:
    """The named city, built from its extract (found by ``files``, else a default ``FileStore()``) into the
    store's cache on first use when it is not shipped."""
    store = files if files is not None else FileStore()
    return _load_city(name, store.cache, store.mirror, store.offline)


@cache
def _load_city(name: str, cache_folder: Path, mirror: Path | None, offline: bool) -> City:
    entries = catalog()
    if name not in entries:
        raise RegistryError(f"unknown city {name!r}; known: {', '.join(sorted(entries))}")
    entry = entries[name]
    if "file" in entry:
        path = CITIES_DIR / str(entry["file"])
        if file_sha256(str(path)) != entry["sha256"]:
            raise RegistryError(f"checksum mismatch for {path}")
        return read_city(path)
    from frontierco.problems.routing.cities.build import build_city, save_city

    store = FileStore(cache_folder, mirror, offline)
    built = store.cache / "cities" / f"{name}-{entry['points']}-{entry['seed']}.npz"
    if not built.is_file():
        extract = store.path(FileSource(str(entry["osm"]), str(entry["url"]), str(entry["osm_sha256"])))
        save_city(build_city(Path(extract), name, int(entry["points"]), int(entry["seed"])), built)
    return read_city(built)
