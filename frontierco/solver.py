"""The solver contract and solver discovery.

A solver is a class with ``name``, ``problems`` and ``solve(instance, budget)``, a generator that yields
each improving solution (anytime); ``setup()`` runs before the clock starts (load a model, warm up).
A solver that proves a solution optimal yields it wrapped in ``Proven``; one that proves a bound on the
optimum (a lower bound when minimising) yields ``Bound(value)``: the record keeps it as the solver's claim.
A solver that runs other code and cannot turn one of its outputs into a solution yields ``Rejected(reason)``:
the run goes on, and the reason is recorded like that of any malformed yield.

Discovery: every ``solvers/<name>/solver.py`` of the project, and the entry-point group
``frontierco.solvers`` (``name = "package.module:Class"``) for solvers in other packages. Listing
reads each ``solver.py`` as text (its class attributes ``name``, ``problems``, ``requires``) and never
imports it, so a solver whose library is missing is listed as unavailable with the ``pip install``
that fixes it. An entry point is imported to read its class; one that names no solver (its module fails to import,
its target is no Solver class, its name is no plain name) is left out with a one-line warning (``BadEntryPoint``),
and every other solver is still found.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import importlib.util
import inspect
import logging
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from frontierco.errors import FrontiercoError, UsageError
from frontierco.names import BadName, check_name
from frontierco.parameters import Param, check_values, parse_params_table, read_solver_file
from frontierco.workspace import SUITE

if TYPE_CHECKING:
    from frontierco.filestore import FileStore

log = logging.getLogger(__name__)

SOLVERS_DIR = SUITE / "solvers"
SOURCE_LIMIT = 1 << 20  # bytes a solver.py may have to be read at all (the suite's largest is 18 KB)
ENTRY_POINT_GROUP = "frontierco.solvers"


@dataclass(frozen=True)
class Budget:
    """What a run may use: wall-clock seconds for ``solve``, the seed, CPU threads and device."""

    time_limit: float
    seed: int = 0
    threads: int = 1
    device: str = "cpu"


@dataclass(frozen=True)
class Proven:
    """A solution the solver has proven optimal."""

    solution: Any


@dataclass(frozen=True)
class Bound:
    """A bound on the optimum the solver has proven (lower when minimising, upper when maximising)."""

    value: float


@dataclass(frozen=True)
class Rejected:
    """A yield that could not be made a solution (e.g. a malformed dict from a FrontierCO-style file), and why."""

    reason: str


class Solver:
    """Base class of solvers. ``requires`` maps import names to pip requirements; ``deterministic`` says
    that the same seed gives the same solutions whenever the search ends before the time limit; ``learned``
    marks a solver driven by a trained model (the leaderboard's learned-vs-classical figure)."""

    name: ClassVar[str] = ""
    problems: ClassVar[tuple[str, ...]] = ()
    version: ClassVar[str] = "0"
    requires: ClassVar[dict[str, str]] = {}
    deterministic: ClassVar[bool] = False
    learned: ClassVar[bool] = False
    path_params: ClassVar[tuple[str, ...]] = ()  # parameters that name a file or folder it reads (its sandbox allows them)
    # the parameters of a solver from another package, as the [params] tables of a folder's solver.toml
    parameters: ClassVar[dict[str, dict[str, Any]]] = {}
    files: FileStore | None = None  # the run's file store (where its published weights are), set by the worker from the job

    def __init__(self, **params: Any) -> None:
        """``params`` over the declared defaults: a run's job holds them all already (``SolverSpec.full_params``);
        a test or script that builds a solver directly gets the defaults from the same declarations."""
        self.params = declared_defaults(type(self)) | params

    def setup(self) -> None:
        """Untimed preparation (load a checkpoint, compile); called once before ``solve``."""

    def solve(self, instance: Any, budget: Budget) -> Iterator[Any]:
        raise NotImplementedError


def declared_defaults(cls: type[Solver]) -> dict[str, Any]:
    """The defaults ``cls`` declares: its ``parameters`` (a solver of another package), else the ``solver.toml`` of
    the folder its class is defined in; parameters declared without a default are left out."""
    if cls.parameters:
        parameters = parse_params_table(cls.parameters, f"{cls.__module__}:{cls.__qualname__}")
    else:
        try:
            parameters = read_solver_file(Path(inspect.getfile(cls)).parent)
        except (TypeError, OSError):  # a class made at run time has no file
            parameters = ()
    return _defaults(parameters, cls.name)


def _defaults(parameters: tuple[Param, ...], solver: str) -> dict[str, Any]:
    return {p.name: p.default for p in parameters if p.applies_to(solver) and p.default is not None}


class SolverUnavailable(UsageError):
    """Unknown solver, or one whose dependencies are not installed."""


@dataclass(frozen=True)
class SolverSpec:
    """A discovered solver, described without importing it."""

    name: str
    problems: tuple[str, ...]
    target: str  # "path/to/solver.py:Class" or "package.module:Class"
    requires: dict[str, str] = field(default_factory=dict)
    learned: bool = False
    path_params: tuple[str, ...] = ()  # parameters naming a path the solver may read in its sandbox
    parameters: tuple[Param, ...] = ()  # what it declares (solver.toml), all of them for its folder

    @property
    def declared(self) -> tuple[Param, ...]:
        """The parameters this solver takes (those of its folder not limited to its siblings)."""
        return tuple(p for p in self.parameters if p.applies_to(self.name))

    def details(self) -> list[str]:
        """What ``frontierco solvers NAME`` prints: problems, availability, where it lives, its parameters."""
        lines = [
            f"{self.name}: {', '.join(self.problems)}" + (" (learned)" if self.learned else ""),
            "available" if self.available else f"unavailable: {self.fix}",
            f"from {self.target}",
        ]
        if not self.declared:
            return [*lines, "parameters: none"]
        return [*lines, "parameters:", *(f"  {param.describe()}" for param in self.declared)]

    @property
    def defaults(self) -> dict[str, Any]:
        """The declared defaults of the parameters this solver takes (one declared without a default is absent
        unless given: its default depends on the run, e.g. the problem's example file)."""
        return _defaults(self.parameters, self.name)

    def full_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters a run of this solver gets: the declared defaults overlaid with ``params``."""
        return self.defaults | dict(params)

    def chosen(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters of ``params`` that are not the declared default (what makes a run differ from one that
        leaves them out; 1 is the float default 1.0: the declared types leave no other equal values of two types)."""
        defaults = self.defaults
        return {key: value for key, value in params.items() if key not in defaults or defaults[key] != value}

    def check_params(self, params: dict[str, Any]) -> None:
        """Refuse an undeclared parameter or a value of the wrong type in one line, before anything runs."""
        check_values(self.name, self.parameters, params)

    @property
    def missing(self) -> list[str]:
        return [pip for module, pip in self.requires.items() if importlib.util.find_spec(module) is None]

    @property
    def available(self) -> bool:
        return not self.missing

    @property
    def fix(self) -> str:
        return "pip install " + " ".join(f"'{r}'" for r in self.missing) if self.missing else ""

    def load(self) -> type[Solver]:
        """Import the solver class; a missing dependency is a one-line SolverUnavailable."""
        if self.missing:
            raise SolverUnavailable(f"solver {self.name} needs {', '.join(self.missing)}: {self.fix}")
        location, _, attribute = self.target.rpartition(":")
        if location.endswith(".py"):
            module = _load_solver_file(Path(location), _package_name(Path(location).parent.name))
        else:
            module = importlib.import_module(location)
        return getattr(module, attribute)


def _package_name(folder: str) -> str:
    """The module name a solver folder is imported under (one per folder, whatever its solvers are called)."""
    return f"frontierco_solver_{folder.replace('-', '_')}"


def _exec_module(name: str, location: Path, package_dir: Path | None = None) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, location, submodule_search_locations=[str(package_dir)] if package_dir else None)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _load_solver_file(path: Path, package: str) -> ModuleType:
    """Import a solver folder's module; a folder with an ``__init__.py`` is imported as a package first, so
    its modules can import each other (``from .model import Net``)."""
    if package in sys.modules and (path.parent / "__init__.py").is_file():
        return importlib.import_module(f"{package}.{path.stem}")
    if (path.parent / "__init__.py").is_file():
        _exec_module(package, path.parent / "__init__.py", path.parent)
        return importlib.import_module(f"{package}.{path.stem}")
    return _exec_module(package, path)


def _folders(directory: Path | Sequence[Path] | None) -> list[Path]:
    """Solver folders: the one or several given (a context's ``layers("solvers")``), else the suite's."""
    if directory is None:
        return [SUITE / "solvers"]
    return [directory] if isinstance(directory, Path) else list(directory)


def load_solver_module(name: str, module: str, directory: Path | Sequence[Path] | None = None) -> ModuleType:
    """Another module of a solver folder's package (e.g. ``train`` of ``rrnco``), by folder name (in the
    folders given, by default the suite's solvers)."""
    folders = _folders(directory)
    folder = next((d / name for d in folders if (d / name).is_dir()), folders[0] / name if folders else Path(name))
    if not (folder / "__init__.py").is_file() or not (folder / f"{module}.py").is_file():
        raise SolverUnavailable(f"solver {name!r} has no {module}.py in {folder}")
    return _load_solver_file(folder / f"{module}.py", _package_name(name))


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _source(path: Path) -> str:
    """The text of a ``solver.py`` that is a regular file of at most ``SOURCE_LIMIT`` bytes, else a one-line error: a
    link to /dev/zero was read until memory ran out, a FIFO blocked discovery for ever."""
    if not path.is_file():
        raise FrontiercoError(f"{path}: not a regular file (a device, a pipe, or a link to one)")
    with open(path, encoding="utf-8") as handle:
        text = handle.read(SOURCE_LIMIT + 1)
    if len(text) > SOURCE_LIMIT:
        raise FrontiercoError(f"{path}: longer than the {SOURCE_LIMIT} characters a solver.py may have")
    return text


def describe_solver_file(path: Path) -> list[SolverSpec]:
    """Read the Solver subclasses of a ``solver.py`` by parsing it (no import); a file may define several."""
    tree = ast.parse(_source(path), filename=str(path))
    parameters = read_solver_file(path.parent)
    specs = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        attributes = {
            target.id: _literal(statement.value)
            for statement in node.body
            if isinstance(statement, ast.Assign | ast.AnnAssign)
            for target in ([statement.target] if isinstance(statement, ast.AnnAssign) else statement.targets)
            if isinstance(target, ast.Name) and statement.value is not None
        }
        if isinstance(attributes.get("name"), str) and attributes.get("problems"):
            requires = dict(attributes.get("requires") or {})
            target = f"{path}:{node.name}"
            paths = tuple(str(p) for p in attributes.get("path_params") or ())
            learned = attributes.get("learned") is True
            specs.append(SolverSpec(attributes["name"], tuple(attributes["problems"]), target, requires, learned, paths, parameters))
    return specs


class BadEntryPoint(FrontiercoError):
    """An entry point of ``ENTRY_POINT_GROUP`` that names no solver the suite can list; ``names``: the solver names it
    may be asked for by (its own, and the name its class gives, when it got that far)."""

    def __init__(self, message: str, names: tuple[str, ...]) -> None:
        super().__init__(message)
        self.names = names


def _entry_point_spec(entry: importlib.metadata.EntryPoint) -> SolverSpec:
    """The solver an entry point names, read from its class; a BadEntryPoint in one line when it names none. A module
    that a missing package keeps from importing is a solver listed as unavailable, with that package as its fix."""
    dist = getattr(entry, "dist", None)  # the package that declares it (None for an entry point made by hand)
    where = f"entry point {entry.name} = {entry.value} (package {dist.name if dist is not None else '?'})"
    if importlib.metadata.EntryPoint.pattern.match(entry.value) is None:
        raise BadEntryPoint(f"{where}: a 'module:Class' target", (entry.name,))
    try:
        cls = entry.load()
    except ModuleNotFoundError as exc:
        if not exc.name:
            raise BadEntryPoint(f"{where}: cannot be imported ({exc})", (entry.name,)) from None
        return SolverSpec(entry.name, (), entry.value, {exc.name: exc.name})
    except Exception as exc:  # whatever its module raises on import: one line, and the other solvers are still found
        raise BadEntryPoint(f"{where}: cannot be imported ({type(exc).__name__}: {exc})", (entry.name,)) from None
    if not (isinstance(cls, type) and issubclass(cls, Solver)):
        raise BadEntryPoint(f"{where}: a Solver class, not {type(cls).__name__} {cls!r:.40}", (entry.name,))
    name = cls.name or entry.name
    problems = cls.problems
    try:
        check_name(name, "solver name")
        if not isinstance(problems, tuple | list) or not problems or not all(isinstance(p, str) for p in problems):
            raise FrontiercoError(f"problems must be a tuple of problem names, not {problems!r:.40}")
        parameters = parse_params_table(cls.parameters, entry.value)
    except (BadName, FrontiercoError) as exc:
        raise BadEntryPoint(f"{where}: {exc}", tuple(dict.fromkeys((entry.name, name)))) from None
    paths = tuple(cls.path_params)
    return SolverSpec(name, tuple(problems), entry.value, dict(cls.requires), bool(cls.learned), paths, parameters)


def read_entry_points() -> tuple[list[SolverSpec], list[BadEntryPoint]]:
    """The solvers the installed packages declare in ``ENTRY_POINT_GROUP``, and the entries that name none."""
    specs, bad = [], []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            specs.append(_entry_point_spec(entry))
        except BadEntryPoint as exc:
            bad.append(exc)
    return specs, bad


def _described(path: Path) -> list[SolverSpec]:
    """``describe_solver_file``, or none with a warning for a folder that cannot be read (a syntax error, NUL bytes,
    nesting past the parser, a broken solver.toml): one broken folder does not stop every command (``frontierco
    validate`` reports it)."""
    try:
        return describe_solver_file(path)
    except (SyntaxError, ValueError, RecursionError, MemoryError, FrontiercoError) as exc:
        log.warning("%s: cannot be read (%s); the solver is left out", path, exc)
        return []


def discover(directory: Path | Sequence[Path] | None = None) -> dict[str, SolverSpec]:
    """All solvers by name: the solver folders in ``directory`` (one folder or several, as a context's
    ``layers("solvers")``: the suite's, then the workspace's own; default: the suite's), then entry points. A solver
    whose name is no plain name (it becomes a path), or a name two solvers share, is left out with a warning, so that
    one such folder does not stop every command (``frontierco validate`` reports it; ``get_solver`` refuses the
    shared name in one line)."""
    return _discover(directory)[0]


def _discover(directory: Path | Sequence[Path] | None) -> tuple[dict[str, SolverSpec], dict[str, str], dict[str, str]]:
    """``discover``'s solvers; for each name two solvers share the line that says which; for each name only a bad
    entry point gives, the line that says what is wrong with it."""
    found: dict[str, SolverSpec] = {}
    shared: dict[str, str] = {}
    folders = _folders(directory)
    files = [path for folder in folders if folder.is_dir() for path in sorted(folder.glob("*/solver.py"))]
    specs = [spec for path in files if not path.parent.name.startswith("_") for spec in _described(path)]
    entries, bad = read_entry_points()
    refused: dict[str, str] = {}
    for exc in bad:
        log.warning("%s; the solver is left out", exc)
        refused |= {name: str(exc) for name in exc.names}
    for spec in specs + entries:
        try:
            check_name(spec.name, "solver name")
        except BadName as exc:
            log.warning("%s: %s; the solver is left out", spec.target, exc)
            continue
        if spec.name in shared:
            log.warning("%s: another solver named %r too; left out", spec.target, spec.name)
            continue
        if spec.name in found:
            shared[spec.name] = f"two solvers are named {spec.name!r}: {found.pop(spec.name).target} and {spec.target}"
            log.warning("%s; both are left out", shared[spec.name])
            continue
        found[spec.name] = spec
    return found, shared, {name: line for name, line in refused.items() if name not in found and name not in shared}


def get_solver(name: str, directory: Path | Sequence[Path] | None = None) -> SolverSpec:
    solvers, shared, refused = _discover(directory)
    if name in shared:
        raise FrontiercoError(f"{shared[name]}; rename one")
    if name in refused:
        raise SolverUnavailable(refused[name])
    if name not in solvers:
        raise SolverUnavailable(f"unknown solver {name!r}; known: {', '.join(sorted(solvers)) or 'none'}")
    return solvers[name]
