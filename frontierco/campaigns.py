"""Named campaigns: TOML files in ``campaigns/`` listing runs (solver, problem, collection, split, size
and count filters, time limit, seeds). ``frontierco campaign run NAME`` runs them in order, resumably."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from frontierco.errors import UsageError
from frontierco.harness.campaign import make_executor, plan_collection, run_campaign
from frontierco.harness.devices import check_device
from frontierco.registry import PROJECT_ROOT, Registry
from frontierco.results import ResultStore, RunRecord
from frontierco.solver import get_solver

CAMPAIGNS_DIR = PROJECT_ROOT / "campaigns"
STEP_KEYS = {"solver", "problem", "collection", "split", "limit", "max_size", "time_limit", "seeds", "threads", "device"}


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
        return f"{self.solver} on {self.collection} ({', '.join(filters) or 'all'}), {self.time_limit:g} s x {self.seeds} seeds{where}"


@dataclass(frozen=True)
class NamedCampaign:
    name: str
    description: str
    steps: tuple[Step, ...]


def load_campaign(name: str, directory: Path = CAMPAIGNS_DIR) -> NamedCampaign:
    path = directory / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in directory.glob("*.toml"))) or "none"
        raise UsageError(f"unknown campaign {name!r}; known: {known}")
    data = tomllib.loads(path.read_text())
    steps = []
    for k, raw in enumerate(data.get("run", [])):
        unknown = set(raw) - STEP_KEYS
        if unknown:
            raise UsageError(f"{path} run {k}: unknown keys {', '.join(sorted(unknown))}")
        try:
            steps.append(Step(**raw))
        except TypeError as exc:
            raise UsageError(f"{path} run {k}: {exc}") from None
    return NamedCampaign(str(data.get("name", name)), str(data.get("description", "")), tuple(steps))


def run_named(
    campaign: NamedCampaign,
    store: ResultStore,
    jobs: int = 1,
    registry: Registry | None = None,
    report: Callable[[Step, list[RunRecord]], None] | None = None,
) -> list[RunRecord]:
    """Run every step (finished runs are skipped); ``report`` hears about each step as it ends."""
    registry = registry or Registry()
    for device in sorted({step.device for step in campaign.steps}):
        check_device(device)  # before any run starts
    records = []
    for step in campaign.steps:
        executor = make_executor("local", jobs, device=step.device)
        planned = plan_collection(
            registry,
            get_solver(step.solver),
            step.problem,
            step.collection,
            step.split,
            step.limit,
            step.seeds,
            step.time_limit,
            step.threads,
            max_size=step.max_size,
            device=step.device,
        )
        done = run_campaign(planned, store, executor)
        records += done
        if report:
            report(step, done)
    return records
