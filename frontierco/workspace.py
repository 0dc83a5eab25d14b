"""Where the suite reads and writes: its own content, and the user's workspace.

- The **suite's own content** (collection manifests, solver folders with their shipped checkpoints,
  campaigns, the shipped city): the repository's top-level folders in a checkout, the same folders packed
  into the wheel as ``frontierco/_suite/`` in an installed suite.
- A **workspace** is a folder marked by a ``frontierco.toml`` file (``frontierco init DIR`` makes one; the
  repository has one at its root). It holds the records and leaderboards (``leaderboards/``), training
  state (``runs/``) and may add manifests, solvers and campaigns of its own, layered over the suite's (a name
  defined twice is an error). It is found once, where the program starts (``Context.discover``): ``--root``,
  else ``FRONTIERCO_ROOT``, else the nearest folder at or above the current one that holds the marker; the
  ``Context`` then travels down as a parameter. Commands that write need one; nothing is ever written into the
  installation.

The **settings** are fields of the ``Context`` too, read from the environment in one place (``read_settings``,
called by ``Context.discover``; the CLI builds its context there): the sandbox wanted (``FRONTIERCO_SANDBOX``),
the file store (``FRONTIERCO_MIRROR``, ``FRONTIERCO_CACHE``, ``FRONTIERCO_OFFLINE``), the folders that hold
solution files by sha256 (``FRONTIERCO_SOLUTIONS``) and the size above which a solution stays out of the record
store (``FRONTIERCO_SOLUTION_LIMIT``), the figure cache (``FRONTIERCO_FIGURE_CACHE``) and the processes that
draw into it (``FRONTIERCO_FIGURE_JOBS``). Below, nothing reads them from the environment: the context passes
them down, and each run's job carries what its worker needs (``harness/job.RunSpec.job``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from frontierco.errors import UsageError

if TYPE_CHECKING:
    from frontierco.filestore import FileStore
    from frontierco.results import ResultStore

MARKER = "frontierco.toml"
ROOT_VARIABLE = "FRONTIERCO_ROOT"
OFF = "off"  # the figure cache's setting that draws every figure afresh
_PACKAGE = Path(__file__).resolve().parent
SUITE = _PACKAGE.parent if (_PACKAGE.parent / "instances").is_dir() and (_PACKAGE.parent / MARKER).is_file() else _PACKAGE / "_suite"


@dataclass(frozen=True)
class Workspace:
    root: Path

    @property
    def leaderboards(self) -> Path:
        return self.root / "leaderboards"

    @property
    def runs(self) -> Path:
        """The record store."""
        return self.leaderboards / "runs"

    @property
    def references(self) -> Path:
        """The record store of reference runs."""
        return self.leaderboards / "references"

    @property
    def training(self) -> Path:
        """Training state and teacher data of learned solvers."""
        return self.root / "runs"


def find(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that holds the marker file."""
    for folder in (start, *start.parents):
        if (folder / MARKER).is_file():
            return folder
    return None


def _file_store(**settings: Any) -> FileStore:
    from frontierco.filestore import FileStore  # imported when a context is made: the CLI's --version stays light

    return FileStore(**settings)


def _number(environ: Mapping[str, str], name: str, default: int | None) -> int | None:
    value = environ.get(name, "")
    try:
        return int(value) if value.strip() else default
    except ValueError:
        raise UsageError(f"{name} must be a whole number, not {value!r}") from None


def read_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """The settings of a context as ``environ`` (the environment, as ``Context.discover`` passes it) gives them:
    the keyword arguments of ``Context`` other than the root. The one place that reads ``FRONTIERCO_*`` but
    the root (``tests/test_settings.py``)."""
    files: dict[str, Any] = {"offline": environ.get("FRONTIERCO_OFFLINE", "") == "1"}
    if environ.get("FRONTIERCO_MIRROR"):
        files["mirror"] = Path(environ["FRONTIERCO_MIRROR"])
    if environ.get("FRONTIERCO_CACHE"):
        files["cache"] = Path(environ["FRONTIERCO_CACHE"])
    folders = tuple(Path(folder) for folder in environ.get("FRONTIERCO_SOLUTIONS", "").split(os.pathsep) if folder)
    return {
        "files": _file_store(**files),
        "sandbox": environ.get("FRONTIERCO_SANDBOX", ""),
        "solution_folders": folders,
        "solution_limit": _number(environ, "FRONTIERCO_SOLUTION_LIMIT", None),
        "figure_cache": environ.get("FRONTIERCO_FIGURE_CACHE", ""),
        "figure_jobs": _number(environ, "FRONTIERCO_FIGURE_JOBS", 0) or 0,
    }


@dataclass(frozen=True)
class Context:
    """Where a program reads and writes: the workspace (``root``, None for none), the layered folders of the suite
    and the workspace, the file store (``files``) and the record stores, and the settings. Built once where the
    program starts (the command line, or a script: ``Context.discover()``, which reads the settings from the
    environment, or ``Context(root=...)`` with the defaults) and passed down; two contexts in one process do not
    meet."""

    root: Path | None = None
    files: FileStore = field(default_factory=_file_store)
    sandbox: str = ""  # the sandbox wanted: landlock, bubblewrap, 0 (none); "" or auto: the first that works
    solution_folders: tuple[Path, ...] = ()  # folders that hold solution files by sha256 (a mirror of them)
    solution_limit: int | None = None  # bytes of a compressed solution kept out of the store (None: results.SOLUTION_LIMIT)
    figure_cache: str = ""  # the folder of drawn figures; "" its default (figures/ in the file store's cache), "off" none
    figure_jobs: int = 0  # processes drawing the figures the cache lacks; 0: one per core this process may use

    def __post_init__(self) -> None:
        if self.root is not None:
            object.__setattr__(self, "root", Path(self.root).resolve())

    @classmethod
    def discover(cls, root: Path | None = None) -> Context:
        """The context of ``root`` when given, else of ``FRONTIERCO_ROOT``, else of the nearest marked folder at or
        above the current one (none: no workspace), with the settings the environment gives (``read_settings``).
        The one place that reads ``FRONTIERCO_ROOT``."""
        if root is None:
            configured = os.environ.get(ROOT_VARIABLE)
            root = Path(configured) if configured else find(Path.cwd().resolve())
        return cls(root, **read_settings(os.environ))

    @property
    def solution_cache(self) -> Path:
        """Where this machine keeps solutions over the limit: ``solutions/`` in the file store's cache."""
        return self.files.cache / "solutions"

    def records(self, root: Path) -> ResultStore:
        """The record store in ``root`` with this context's solution settings (the cache, the folders, the limit)."""
        from frontierco.results import ResultStore

        return ResultStore(root, self.solution_cache, self.solution_folders, self.solution_limit)

    def figures(self) -> Path | None:
        """The folder of drawn figures: the one set, else ``figures/`` in the file store's cache; None when off."""
        if self.figure_cache.strip().lower() == OFF:
            return None
        return Path(self.figure_cache) if self.figure_cache else self.files.cache / "figures"

    @property
    def workspace(self) -> Workspace | None:
        """The workspace, None when there is none; a root without the marker is a one-line error."""
        if self.root is None:
            return None
        if not (self.root / MARKER).is_file():
            raise UsageError(f"{self.root} is not a frontierco workspace (no {MARKER}); make one with 'frontierco init {self.root}'")
        return Workspace(self.root)

    def required(self) -> Workspace:
        """The workspace for a command that writes; a one-line error when there is none."""
        workspace = self.workspace
        if workspace is None:
            raise UsageError(
                f"no frontierco workspace here: run 'frontierco init DIR', then pass --root DIR or work inside DIR (or set {ROOT_VARIABLE})"
            )
        return workspace

    def layers(self, kind: str) -> list[Path]:
        """The folders of one kind of content (``instances``, ``solvers``, ``campaigns``): the suite's, then the
        workspace's when it has its own."""
        folders = [SUITE / kind]
        workspace = self.workspace
        if workspace is not None and (workspace.root / kind).is_dir() and (workspace.root / kind).resolve() != (SUITE / kind).resolve():
            folders.append(workspace.root / kind)
        return [folder for folder in folders if folder.is_dir()]

    def closed(self) -> tuple[str, ...]:
        """The folders of this context a solver may never read (besides the suite and the file store, which the
        worker closes itself): the workspace and its manifests."""
        workspace = self.workspace
        own = [workspace.root] if workspace is not None else []
        return tuple(str(folder.resolve()) for folder in [*own, *self.layers("instances")])


def init(root: Path) -> Workspace:
    """Make an empty workspace in ``root`` (created if missing; an existing workspace is left as it is); a path that
    cannot be one (a file, a folder without write permission) is a UsageError."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        marker = root / MARKER
        if not marker.exists():
            marker.write_text(
                "# A frontierco workspace: records and leaderboards go to leaderboards/; manifests in instances/, solver\n"
                "# folders in solvers/ and campaigns in campaigns/ add to the suite's own.\n"
            )
        for folder in ("instances", "solvers", "campaigns", "leaderboards/runs"):
            (root / folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # (a FileExistsError traceback for a file)
        raise UsageError(f"cannot make a workspace in {root}: {exc.strerror or exc}") from None
    return Workspace(root.resolve())
