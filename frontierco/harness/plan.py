"""Planning: the runs a request makes (a solver over the selected instances of a collection, or over a
user's own file), with the options checked before anything runs. A run's parameters are the solver's full set:
the declared defaults overlaid with those given (``SolverSpec.full_params``)."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from frontierco.errors import BadSetting, UsageError
from frontierco.filestore import FileSource
from frontierco.harness.job import DEFAULT_MEMORY_MB, RunSpec
from frontierco.names import check_name
from frontierco.problems import get_problem, problem_of, size_of
from frontierco.problems.common.fingerprint import content_sha256, file_sha256
from frontierco.problems.files import read_instance
from frontierco.registry import Registry
from frontierco.results import ON_FILE
from frontierco.solver import Budget, SolverSpec


@dataclass(frozen=True)
class Plan:
    """What to run: the specs of one solver's runs (``harness/execute.run_plan`` runs them)."""

    specs: list[RunSpec]


MAX_TIME_LIMIT = 30 * 24 * 3600.0  # far past any protocol (FrontierCO: 3600 s); 1e308 s is a typo, not a budget
MAX_SEEDS = 10_000  # a run spec per instance and seed is planned at once: --seeds 1000000000 filled memory for minutes
MAX_THREADS = 4096  # past any machine's cores; the threads go to the solver's environment as counts


def check_budget(budget: Budget, seeds: int = 1, limit: int | None = None) -> None:
    """Options that make no sense are refused before anything runs or is recorded."""
    time_limit, threads = budget.time_limit, budget.threads
    if not (math.isfinite(time_limit) and 0 < time_limit <= MAX_TIME_LIMIT):
        wrong = f"time limit must be a positive number of seconds up to {MAX_TIME_LIMIT:g} (30 days), got {time_limit:g}"
        raise BadSetting("time_limit", wrong)
    for name, value, most in (("seeds", seeds, MAX_SEEDS), ("threads", threads, MAX_THREADS)):
        if not 1 <= value <= most:
            raise BadSetting(name, f"{name} must be in 1..{most}, got {value}")
    if limit is not None and limit < 1:
        raise BadSetting("limit", f"the instance limit must be at least 1 (leave it out for every instance), got {limit}")


def parse_params(items: list[str]) -> dict[str, Any]:
    """Solver parameters from ``KEY=VALUE`` strings; a value is read as TOML (``3``, ``0.5``, ``true``,
    ``"x"``) and otherwise kept as text, so ``heuristics=aggressive`` needs no quotes."""
    params: dict[str, Any] = {}
    for item in items:
        raw, sep, text = item.partition("=")
        key = raw.strip()
        if not sep or not key or not text.strip():
            raise UsageError(f"--param needs KEY=VALUE, got {item!r}")
        if key in params:
            raise UsageError(f"--param {key} is given twice")
        check_name(key, "--param")
        try:
            params[key] = tomllib.loads(f"v = {text}")["v"]
        except (ValueError, RecursionError):  # not TOML (an integer past 4,300 digits, nesting past the stack too): text
            params[key] = text
    return params


def check_support(spec: SolverSpec, problem: str) -> None:
    if problem not in spec.problems:
        raise UsageError(f"solver {spec.name} does not support {problem} (it supports {', '.join(spec.problems)})")


@dataclass(frozen=True)
class Selection:
    """Which instances of a collection: the problem's default collection when None, a split (None: all),
    only the named ones, only those of at most ``max_size`` (nodes, vertices or columns), the first ``limit``."""

    collection: str | None = None
    split: str | None = "test"
    limit: int | None = None
    max_size: int | None = None
    names: list[str] | None = None


def plan_collection(
    registry: Registry,
    solver: SolverSpec,
    problem: str,
    selection: Selection,
    budget: Budget,
    seeds: int = 1,
    params: dict[str, Any] | None = None,
) -> Plan:
    """The runs of ``solver`` on the selected instances under ``budget``, ``seeds`` seeds each (``budget.seed``
    .. ``budget.seed + seeds - 1``)."""
    collection, split, limit, max_size, names = selection.collection, selection.split, selection.limit, selection.max_size, selection.names
    check_budget(budget, seeds, limit)
    if max_size is not None and max_size < 1:
        raise BadSetting("max_size", f"the instance size limit must be at least 1 (leave it out for every size), got {max_size}")
    check_support(solver, problem)
    solver.check_params(params or {})
    name = collection or get_problem(problem).default_collection
    chosen = registry.collection(name)
    if chosen.problem != problem:
        raise UsageError(f"collection {name} holds {chosen.problem} instances, not {problem}")
    entries = chosen.split(split)
    if names is not None:
        unknown = sorted(set(names) - {e.name for e in entries})
        if unknown:
            raise UsageError(f"collection {name} has no instances {', '.join(unknown)} in split {split!r}")
        entries = [e for e in entries if e.name in names]
    if max_size is not None:
        entries = [e for e in entries if size_of(registry.load(e)) <= max_size]
    entries = entries[:limit] if limit else entries
    if not entries:
        within = "" if max_size is None else f" of size at most {max_size}"
        raise UsageError(f"collection {name} has no instances{within} in split {split!r}")
    version, full = solver.load().version, solver.full_params(params or {})
    specs = []
    for entry in entries:
        source = entry.source
        sha = source.sha256 if isinstance(source, FileSource) else (source.content_sha256 or content_sha256(registry.load(entry)))
        reference = entry.reference
        for seed in range(seeds):
            specs.append(
                RunSpec(
                    solver=solver,
                    solver_version=version,
                    params=full,
                    problem=problem,
                    collection=name,
                    instance_key=entry.key,
                    instance_sha256=sha,
                    budget=replace(budget, seed=budget.seed + seed),
                    manifest=str(chosen.manifest),
                    reference=reference.value if reference else None,
                    reference_source=reference.source if reference else "",
                    reference_status=reference.status if reference else "",
                    memory_mb=chosen.memory_mb if chosen.memory_mb is not None else DEFAULT_MEMORY_MB,
                    files=registry.store,
                )
            )
    return Plan(specs)


def plan_file(
    solver: SolverSpec,
    path: Path,
    budget: Budget,
    seeds: int = 1,
    params: dict[str, Any] | None = None,
) -> Plan:
    """Runs on a researcher's own instance file (the problem follows from the file) under ``budget``, ``seeds``
    seeds from ``budget.seed``."""
    check_budget(budget, seeds)
    instance = read_instance(path)
    problem = problem_of(instance).name
    check_support(solver, problem)
    solver.check_params(params or {})
    version = solver.load().version
    sha, full = file_sha256(str(path)), solver.full_params(params or {})
    specs = [
        RunSpec(solver, version, full, problem, ON_FILE, str(path.resolve()), sha, replace(budget, seed=budget.seed + seed))
        for seed in range(seeds)
    ]
    return Plan(specs)
