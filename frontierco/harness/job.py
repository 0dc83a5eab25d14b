"""A run's job: what the worker needs (solver, instance source, budget), and the run id."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from frontierco.problems import Instance
from frontierco.solver import Budget, SolverSpec

DEFAULT_MEMORY_MB = 8192  # the address space of a run (RLIMIT_AS) unless its collection says otherwise


@dataclass(frozen=True)
class RunSpec:
    """One (solver, instance, budget) run. ``instance_key`` is 'collection/name' or a file path."""

    solver: SolverSpec
    solver_version: str
    params: dict[str, Any]
    problem: str
    collection: str
    instance_key: str
    instance_sha256: str
    budget: Budget
    manifest: str = ""  # the collection's manifest file (the worker reads it alone, not every manifest)
    memory_mb: int | None = DEFAULT_MEMORY_MB
    reference: float | None = None
    reference_source: str = ""
    reference_status: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def instance_name(self) -> str:
        return self.instance_key.rsplit("/", 1)[-1]

    @property
    def run_id(self) -> str:
        """Hash of solver name, version and parameters, instance sha256, budget and seed."""
        identity = {
            "solver": self.solver.name,
            "version": self.solver_version,
            "params": self.params,
            "instance": self.instance_sha256,
            "time_limit": float(self.budget.time_limit),  # 60 and 60.0 are the same budget
            "threads": self.budget.threads,
            "device": self.budget.device,
            "seed": self.budget.seed,
        }
        return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]

    def job(self) -> dict[str, Any]:
        """What the worker reads (never the reference value)."""
        return {
            "solver": {key: value for key, value in asdict(self.solver).items() if key != "parameters"},  # checked when planned
            "params": self.params,
            "problem": self.problem,
            "instance_key": self.instance_key,
            "manifest": self.manifest,
            "budget": asdict(self.budget),
            "memory_mb": self.memory_mb,
        }


def load_job_instance(job: dict[str, Any]) -> Instance:
    """The instance a job names: a registry entry, or a file read by its format."""
    from frontierco.formats import read_instance
    from frontierco.manifests import read_manifest
    from frontierco.registry import Registry

    key = job["instance_key"]
    if job.get("manifest"):
        return Registry().load(read_manifest(Path(job["manifest"])).entry(key.rsplit("/", 1)[-1]))
    return read_instance(key)
