"""Named campaigns: TOML files in ``campaigns/`` listing runs (solver, problem, collection, split, size
and count filters, time limit, seeds). ``frontierco campaign run NAME`` runs them in order, resumably."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from frontierco.errors import UsageError, check_keys
from frontierco.harness.devices import check_device
from frontierco.harness.plan import Selection
from frontierco.harness.request import Execution, RunRequest, run
from frontierco.registry import Registry
from frontierco.results import ResultStore, RunRecord
from frontierco.solver import Budget, get_solver
from frontierco.workspace import SUITE, Context

CAMPAIGNS_DIR = SUITE / "campaigns"
STEP_KEYS = ("solver", "problem", "collection", "split", "limit", "max_size", "time_limit", "seeds", "threads", "device", "params")
CAMPAIGN_KEYS = ("name", "description", "run")


@dataclass(frozen=True)
class Step:
    solver: str
    problem: str
    collection: str
    time_limit: float
    split: str | None = "test"
    limit: int | None = None
    max_size: int | None = None
    seeds: int = 1
    threads: int = 1
    device: str = "cpu"
    params: dict[str, Any] = field(default_factory=dict)  # the solver's parameters (its own leaderboard row)

    def describe(self) -> str:
        filters = [
            f
            for f in (
                f"split {self.split}" if self.split else "",
                f"first {self.limit}" if self.limit else "",
                f"size <= {self.max_size}" if self.max_size else "",
            )
            if f
        ]
        where = "" if self.device == "cpu" else f" on {self.device}"
        where += "".join(f", {key}={value}" for key, value in sorted(self.params.items()))
        return f"{self.solver} on {self.collection} ({', '.join(filters) or 'all'}), {self.time_limit:g} s x {self.seeds} seeds{where}"


@dataclass(frozen=True)
class NamedCampaign:
    name: str
    description: str
    steps: tuple[Step, ...]


def campaign_files(directory: Path | Sequence[Path] | None = None) -> dict[str, Path]:
    """The campaign files by name in one folder or several (a context's ``layers("campaigns")``: the suite's,
    then the workspace's own; default: the suite's); a name twice is an error."""
    found: dict[str, Path] = {}
    folders = [CAMPAIGNS_DIR] if directory is None else [directory] if isinstance(directory, Path) else directory
    for folder in folders:
        for path in sorted(folder.glob("*.toml")):
            if path.stem in found:
                raise UsageError(f"two campaigns are named {path.stem!r}: {found[path.stem]} and {path}")
            found[path.stem] = path
    return found


def load_campaign(name: str, directory: Path | Sequence[Path] | None = None) -> NamedCampaign:
    files = campaign_files(directory)
    if name not in files:
        raise UsageError(f"unknown campaign {name!r}; known: {', '.join(sorted(files)) or 'none'}")
    path = files[name]
    return read_campaign(path, name)


def read_campaign(path: Path, name: str | None = None) -> NamedCampaign:
    """Parse one campaign file; any mistake (bad TOML, an unknown key, a value of the wrong kind) is one UsageError line."""
    try:
        data = tomllib.loads(path.read_text())
    except (ValueError, RecursionError) as exc:  # (TOMLDecodeError; an integer past 4,300 digits; nesting past the stack)
        raise UsageError(f"{path}: not valid TOML ({exc})") from None
    check_keys(data, CAMPAIGN_KEYS, str(path))
    runs = data.get("run", [])
    if not isinstance(runs, list) or not all(isinstance(raw, dict) for raw in runs):
        raise UsageError(f"{path}: run must be an array of tables ([[run]])")
    steps = []
    for k, raw in enumerate(runs):
        check_keys(raw, STEP_KEYS, f"{path} run {k}")
        if not isinstance(raw.get("params", {}), dict):
            raise UsageError(f"{path} run {k}: params must be a table of the solver's parameters")
        try:
            steps.append(Step(**raw))
        except TypeError as exc:
            raise UsageError(f"{path} run {k}: {exc}") from None
    return NamedCampaign(str(data.get("name", name or path.stem)), str(data.get("description", "")), tuple(steps))


def select_steps(campaign: NamedCampaign, indices: list[int]) -> NamedCampaign:
    """Only the steps at ``indices`` (0-based, file order); all of them when none are named."""
    if not indices:
        return campaign
    wrong = [k for k in indices if not 0 <= k < len(campaign.steps)]
    if wrong:
        raise UsageError(f"campaign {campaign.name} has steps 0 to {len(campaign.steps) - 1}, not {', '.join(map(str, wrong))}")
    return NamedCampaign(campaign.name, campaign.description, tuple(campaign.steps[k] for k in sorted(set(indices))))


def with_time_limit(campaign: NamedCampaign, seconds: float | None) -> NamedCampaign:
    """Every step at ``seconds`` instead of its own limit (the same campaign as it is when None): how a
    campaign written for 60 s runs under a published protocol's longer limit. Runs at another limit are
    other runs: those already done at the file's limits are neither skipped nor replaced. Steps that differ only in
    their limits (a campaign at 60 s and at 300 s) become one."""
    if seconds is None:
        return campaign
    if not (math.isfinite(seconds) and seconds > 0):
        raise UsageError(f"a time limit is a positive number of seconds, not {seconds:g}")
    steps: list[Step] = []
    for step in campaign.steps:
        if (moved := replace(step, time_limit=float(seconds))) not in steps:
            steps.append(moved)
    return NamedCampaign(campaign.name, campaign.description, tuple(steps))


def run_named(
    context: Context,
    campaign: NamedCampaign,
    store: ResultStore,
    jobs: int = 1,
    registry: Registry | None = None,
    report: Callable[[Step, list[RunRecord]], None] | None = None,
    force: bool = False,
) -> list[RunRecord]:
    """Run every step (finished runs are skipped unless ``force``) as a run request of ``context``; ``report``
    hears about each step as it ends."""
    registry = registry if registry is not None else Registry.of(context)
    for device in sorted({step.device for step in campaign.steps}):
        check_device(device)  # before any run starts
    for step in campaign.steps:  # a typo in a later step stops the campaign before its first run
        get_solver(step.solver, context.layers("solvers")).check_params(step.params)
    records = []
    for step in campaign.steps:
        selection = Selection(step.collection, step.split, step.limit, step.max_size)
        budget = Budget(step.time_limit, threads=step.threads, device=step.device)
        request = RunRequest(step.solver, selection, budget, step.problem, step.params, step.seeds, Execution(jobs=jobs), force)
        done = run(context, request, store, registry=registry).records
        records += done
        if report:
            report(step, done)
    return records
