"""Names that become paths, and manifest paths, checked in one place.

Collection, instance, solver and parameter names and run ids end up as file and folder names (records in
``<collection>/<solver>.jsonl``, pages in ``<collection>.md``, instance files in ``--out``), so each must be
one plain path component: letters, digits, ``.``, ``_``, ``-`` and ``+``, starting with a letter or digit,
never ``..``. A manifest's ``file`` and a record's ``solution_file`` are relative paths of such components
(``~`` allowed too), resolved only inside their root (the cache, the mirror, the record store).
"""

from __future__ import annotations

import re
from pathlib import Path

from frontierco.errors import RegistryError, UsageError

_COMPONENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,127}")
_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+~-]{0,254}")  # a path's parts may carry a '~' too (DIMES's tsp100~net100.pt)


class BadName(UsageError, RegistryError):
    """A name or path that would reach outside its place."""


def _plain(component: str, pattern: re.Pattern[str] = _COMPONENT) -> bool:
    return pattern.fullmatch(component) is not None and ".." not in component


def check_name(name: str, what: str) -> str:
    """``name`` when it is one plain path component; else a one-line BadName saying what it names."""
    if not isinstance(name, str) or not _plain(name):
        raise BadName(f"{what} {name!r} is not a plain name (letters, digits, '.', '_', '-', '+'; no '/' or '..')")
    return name


def check_relative(path: str, what: str) -> str:
    """``path`` when it is relative and made of plain components (no absolute path, no ``..``)."""
    parts = path.split("/") if isinstance(path, str) else []
    if not path or not all(_plain(part, _FILE) for part in parts):
        raise BadName(f"{what} {path!r} is not a relative path of plain names inside its folder")
    return path


def inside(root: Path, relative: str, what: str) -> Path:
    """``root / relative`` after checking ``relative``, and that it still lies inside ``root`` once symbolic
    links are resolved."""
    target = root / check_relative(relative, what)
    if not target.resolve().is_relative_to(root.resolve()):
        raise BadName(f"{what} {relative!r} leads outside {root}")
    return target
