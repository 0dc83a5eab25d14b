"""Errors a user can cause: each renders as one line in the CLI."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path


class FrontiercoError(Exception):
    """An error a user can cause and fix; the CLI prints it as one line and exits non-zero."""

    exit_code = 1


class FormatError(FrontiercoError):
    """A file that does not follow its format: names the file, the line (1-based, 0 if unknown) and what was expected."""

    exit_code = 2

    def __init__(self, path: str | Path, line: int, expected: str) -> None:
        self.path = str(path)
        self.line = line
        self.expected = expected
        where = f"{self.path}:{line}" if line > 0 else self.path
        super().__init__(f"{where}: {expected}")


class RegistryError(FrontiercoError):
    """Unknown collection or instance, bad manifest, checksum mismatch, missing file or reference."""


class UsageError(FrontiercoError):
    """A command asked for something that does not exist or does not fit (unknown solver or problem,
    a solver that does not support the problem, a missing extra)."""

    exit_code = 2


class BadSetting(UsageError):
    """A setting of a run out of range (its time limit, seeds, threads, instance limit, jobs or executor), worded by
    what was wrong; ``setting`` names it, so that the command line can add its flag."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(message)
        self.setting = setting


class UnknownName(UsageError, RegistryError):
    """A name the user typed that names nothing: a collection, instance, split or run id (a usage error,
    exit code 2)."""


class StoreError(FrontiercoError):
    """The record store could not be written (a full disk, no permission): names the file."""


class SolutionUnavailable(FrontiercoError):
    """A record's solution is kept outside the committed store (it was over the size limit) and is in none of
    the places this machine can read it from: the record can be read, its solution not re-checked."""

    def __init__(self, sha256: str) -> None:
        super().__init__(f"solution not available locally (sha256 {sha256})")
        self.sha256 = sha256


def check_keys(table: Mapping[str, object], known: Iterable[str], where: str, error: type[FrontiercoError] = UsageError) -> None:
    """Refuse a table (of a manifest, campaign or solver file) with a key that is not ``known``, in one line
    naming the file, the keys and the keys it may hold: a misspelt key is never silently ignored."""
    allowed = sorted(set(known))
    unknown = sorted(str(key) for key in table if key not in allowed)
    if unknown:
        raise error(f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} (known: {', '.join(allowed)})")
