"""``frontierco validate``: the manifests, campaigns and solver folders of the suite and the workspace checked
without running anything, one line per problem found.

Each file is read the way the suite reads it when it is used (a manifest as the registry reads it, a
campaign as ``campaign run`` does, a solver folder as discovery does), so that what passes here loads there;
on top of that a manifest's generated instances are checked against their generator's signature, a campaign
step against the solvers and collections it names, and a solver folder against its own declarations (a README,
a solver class, parameters that fit its path parameters).
"""

from __future__ import annotations

import ast
import inspect
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from frontierco.app.campaigns import NamedCampaign, Step, read_campaign
from frontierco.errors import FrontiercoError
from frontierco.harness.plan import MAX_TIME_LIMIT
from frontierco.manifests import Collection, GeneratedSource, read_manifest
from frontierco.names import BadName, check_name
from frontierco.parameters import read_solver_file
from frontierco.problems import PROBLEMS
from frontierco.problems.generate import GENERATORS
from frontierco.solver import SolverSpec, describe_solver_file, read_entry_points
from frontierco.workspace import Context


@dataclass
class Findings:
    """What a validation read (how many of each) and the problems it found, one line each."""

    problems: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=lambda: {"manifests": 0, "campaigns": 0, "solver folders": 0})

    def summary(self) -> str:
        read = ", ".join(f"{count} {kind}" for kind, count in self.counts.items())
        return f"{len(self.problems)} problem{'' if len(self.problems) == 1 else 's'} in {read}"


def manifest_files(folders: Iterable[Path]) -> list[Path]:
    """The manifests of the instance folders, as the registry finds them (cities/ holds the city catalog)."""
    return [path for folder in folders for path in sorted(folder.rglob("*.toml")) if path.parent.name != "cities"]


def generator_problems(collection: Collection) -> list[str]:
    """What keeps the generated instances of a collection from being built: an unknown generator, one of another
    problem, parameters its function does not take, needs or takes of another type (checked against its signature:
    nothing is generated), one line each."""
    found: set[str] = set()
    for entry in collection.entries:
        source = entry.source
        if not isinstance(source, GeneratedSource):
            continue
        generator = GENERATORS.get(source.generator)
        if generator is None:
            found.add(f"unknown generator {source.generator!r}")
        elif generator.problem != collection.problem:
            found.add(f"generator {generator.name} builds {generator.problem} instances, not {collection.problem}")
        else:
            wrong = generator.parameter_problems(source.params)
            found.update(f"instance {entry.name}: bad parameters for generator {generator.name}: {problem}" for problem in wrong)
            try:
                inspect.signature(generator.build).bind(entry.name, source.seed, **source.params)
            except TypeError as exc:
                if not wrong:  # anything the parameters' own lines do not say already
                    found.add(f"instance {entry.name}: bad parameters for generator {generator.name}: {exc}")
    return [f"{collection.manifest}: {problem}" for problem in sorted(found)]


def check_manifests(folders: Iterable[Path], findings: Findings) -> dict[str, Collection]:
    """Every manifest read; the collections that load, by name (a name twice is a problem)."""
    collections: dict[str, Collection] = {}
    for path in manifest_files(folders):
        findings.counts["manifests"] += 1
        try:
            collection = read_manifest(path)
        except FrontiercoError as exc:
            findings.problems.append(str(exc))
            continue
        if collection.name in collections:
            findings.problems.append(f"{path}: collection {collection.name!r} is defined in {collections[collection.name].manifest} too")
            continue
        findings.problems += generator_problems(collection)
        collections[collection.name] = collection
    return collections


def _is_self_params(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "params" and isinstance(node.value, ast.Name) and node.value.id == "self"


@dataclass
class ParamReads:
    """How a solver folder's code reads its parameters by name: ``self.params["x"]`` (``indexed``: the value is
    always there, so it needs a declared default), ``self.params.get("x")`` (``optional``: a parameter declared
    without a default), and ``self.params.get("x", default)`` (``defaulted``, 'path:line: x': a default written
    in the code instead of solver.toml)."""

    indexed: set[str] = field(default_factory=set)
    optional: set[str] = field(default_factory=set)
    defaulted: list[str] = field(default_factory=list)

    @property
    def names(self) -> set[str]:
        return self.indexed | self.optional | {where.rpartition(": ")[2] for where in self.defaulted}


def parameter_reads(folder: Path) -> ParamReads:
    """The parameters a solver folder's code reads by name, by how it reads them."""
    reads = ParamReads()
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Subscript) and _is_self_params(node.value):
                if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                    reads.indexed.add(node.slice.value)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
                key = node.args[0]
                if not _is_self_params(node.func.value) or not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                    continue
                if len(node.args) > 1 or node.keywords:
                    reads.defaulted.append(f"{path}:{node.lineno}: {key.value}")
                else:
                    reads.optional.add(key.value)
    return reads


def parameters_read(folder: Path) -> set[str]:
    """The parameter names a solver folder's code reads by name (``self.params["x"]``, ``self.params.get("x")``)."""
    return parameter_reads(folder).names


def _folder_problems(folder: Path, specs: list[SolverSpec]) -> list[str]:
    """What is wrong with a solver folder that reads (its specs parsed, its solver.toml valid)."""
    found = []
    if not (folder / "README.md").is_file():
        found.append(f"{folder}: no README.md (what the solver is, its citation and licence)")
    if not specs:
        found.append(f"{folder / 'solver.py'}: no Solver class with a name and problems")
    names = {spec.name for spec in specs}
    parameters = specs[0].parameters if specs else ()
    reads = parameter_reads(folder)
    undeclared = sorted(reads.names - {param.name for param in parameters})
    if undeclared:
        found.append(f"{folder}: the code reads parameters that solver.toml does not declare: {', '.join(undeclared)}")
    no_default = sorted(reads.indexed & {param.name for param in parameters if param.default is None})
    if no_default:
        found.append(f"{folder}: the code reads self.params[...] of parameters solver.toml gives no default: {', '.join(no_default)}")
    found += [f"{where}: a default in the code; declare it in solver.toml and read self.params[...]" for where in reads.defaulted]
    for param in parameters:
        strangers = sorted(set(param.solvers) - names)
        if strangers:
            found.append(f"{folder / 'solver.toml'}: params.{param.name} names solvers not in this folder: {', '.join(strangers)}")
    for spec in specs:
        try:
            check_name(spec.name, "solver name")
        except BadName as exc:
            found.append(f"{spec.target}: {exc}")
        unknown = sorted(set(spec.problems) - set(PROBLEMS))
        if unknown:
            found.append(f"{spec.target}: unknown problem {', '.join(unknown)}")
        declared = {param.name: param for param in spec.declared}
        for name in spec.path_params:
            if name not in declared or declared[name].type != "path":
                found.append(f'{spec.target}: path parameter {name} is not declared in solver.toml with type = "path"')
    return found


def check_solver_folders(folders: Iterable[Path], findings: Findings) -> dict[str, SolverSpec]:
    """Every solver folder read as discovery reads it; the solvers that read, by name (a name twice is a problem)."""
    solvers: dict[str, SolverSpec] = {}
    for folder in (path for parent in folders for path in sorted(parent.iterdir()) if path.is_dir()):
        if folder.name.startswith(("_", ".")) or not (folder / "solver.py").is_file() and not (folder / "solver.toml").is_file():
            continue  # the template, caches, and folders that hold no solver (e.g. __pycache__)
        findings.counts["solver folders"] += 1
        try:
            read_solver_file(folder)
            specs = describe_solver_file(folder / "solver.py")
        except FrontiercoError as exc:
            findings.problems.append(str(exc))
            continue
        except (OSError, SyntaxError, ValueError) as exc:
            findings.problems.append(f"{folder / 'solver.py'}: cannot be read ({exc})")
            continue
        findings.problems += _folder_problems(folder, specs)
        for spec in specs:
            if spec.name in solvers:
                findings.problems.append(f"{spec.target}: solver {spec.name!r} is defined in {solvers[spec.name].target} too")
            solvers[spec.name] = spec
    return solvers


def _step_problems(step: Step, solvers: dict[str, SolverSpec], collections: dict[str, Collection]) -> list[str]:
    """What keeps a campaign step from running: a solver, collection or parameter that does not fit, a bad budget."""
    found = []
    if not (isinstance(step.time_limit, int | float) and math.isfinite(step.time_limit) and 0 < step.time_limit <= MAX_TIME_LIMIT):
        found.append(f"time_limit must be a positive number of seconds up to {MAX_TIME_LIMIT:g}, not {step.time_limit!r}")
    for name, value in (("seeds", step.seeds), ("threads", step.threads), ("limit", step.limit)):
        if value is not None and (not isinstance(value, int) or value < 1):
            found.append(f"{name} must be a whole number of at least 1, not {value!r}")
    collection = collections.get(step.collection)
    if collection is None:
        found.append(f"unknown collection {step.collection!r}")
    elif collection.problem != step.problem:
        found.append(f"collection {step.collection} holds {collection.problem} instances, not {step.problem}")
    spec = solvers.get(step.solver)
    if spec is None:
        return [*found, f"unknown solver {step.solver!r}"]
    if step.problem not in spec.problems:
        found.append(f"solver {spec.name} does not support {step.problem} (it supports {', '.join(spec.problems)})")
    try:
        spec.check_params(step.params)
    except FrontiercoError as exc:
        found.append(str(exc))
    return found


def check_campaigns(
    folders: Iterable[Path], solvers: dict[str, SolverSpec], collections: dict[str, Collection], findings: Findings
) -> None:
    """Every campaign read as ``campaign run`` reads it, each step checked against the solvers and collections."""
    seen: dict[str, Path] = {}
    for path in (path for folder in folders for path in sorted(folder.glob("*.toml"))):
        findings.counts["campaigns"] += 1
        if path.stem in seen:
            findings.problems.append(f"{path}: campaign {path.stem!r} is defined in {seen[path.stem]} too")
        seen[path.stem] = path
        try:
            campaign: NamedCampaign = read_campaign(path)
        except FrontiercoError as exc:
            findings.problems.append(str(exc))
            continue
        for k, step in enumerate(campaign.steps):
            findings.problems += [f"{path} run {k}: {problem}" for problem in _step_problems(step, solvers, collections)]


def validate(
    context: Context | None = None,
    instances: Iterable[Path] | None = None,
    solvers: Iterable[Path] | None = None,
    campaigns: Iterable[Path] | None = None,
) -> Findings:
    """Check the manifests, solver folders and campaigns (by default: the context's layers, the suite's and the
    workspace's own; without a context, the suite's)."""
    context = context if context is not None else Context()
    findings = Findings()
    collections = check_manifests(context.layers("instances") if instances is None else instances, findings)
    known_solvers = check_solver_folders(context.layers("solvers") if solvers is None else solvers, findings)
    if solvers is None:  # the installed packages' solvers (entry points) may run in a campaign too
        entries, bad = read_entry_points()
        findings.problems += [str(exc) for exc in bad]
        twice = [spec for spec in entries if spec.name in known_solvers]
        findings.problems += [f"{spec.target}: solver {spec.name!r} is defined in {known_solvers[spec.name].target} too" for spec in twice]
        known_solvers = {spec.name: spec for spec in entries} | known_solvers
    check_campaigns(context.layers("campaigns") if campaigns is None else campaigns, known_solvers, collections, findings)
    return findings
