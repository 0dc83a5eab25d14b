"""A run's job: what the worker needs (solver, instance source, budget, the file store it loads the instance
from, the folders of the workspace its solver may not read, the sandbox wanted), and the run id. The settings
come from the context (``harness/request.plan_request``): the worker reads none from the environment."""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from frontierco.filestore import FileSource, FileStore
from frontierco.manifests import GeneratedSource, InstanceEntry
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
    files: FileStore = field(default_factory=FileStore)  # where the worker finds a file instance
    closed: tuple[str, ...] = ()  # the workspace's folders the solver may not read (``Context.closed``)
    sandbox: str = ""  # the sandbox wanted (``Context.sandbox``): landlock, bubblewrap, 0; "": the first that works

    @property
    def instance_name(self) -> str:
        return self.instance_key.rsplit("/", 1)[-1]

    @property
    def run_id(self) -> str:
        """Hash of solver name, version and parameters, instance sha256, budget and seed. Only the parameters
        that differ from their declared default count, so a run given a default and one that leaves it out are one
        run, and the ids of runs planned before defaults were filled in (their params as given) stay as they were."""
        identity = {
            "solver": self.solver.name,
            "version": self.solver_version,
            "params": self.solver.chosen(self.params),
            "instance": self.instance_sha256,
            "time_limit": float(self.budget.time_limit),  # 60 and 60.0 are the same budget
            "threads": self.budget.threads,
            "device": self.budget.device,
            "seed": self.budget.seed,
        }
        return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]

    def job(self) -> dict[str, Any]:
        """What the worker reads (never the reference value: a collection's instance comes as its manifest
        entry without the reference, so the worker never reads the manifest itself)."""
        return {
            "solver": {key: value for key, value in asdict(self.solver).items() if key != "parameters"},  # checked when planned
            "params": self.params,
            "problem": self.problem,
            "instance_key": self.instance_key,
            "entry": _entry_without_reference(self.manifest, self.instance_name) if self.manifest else None,
            "budget": asdict(self.budget),
            "memory_mb": self.memory_mb,
            "files": {
                "cache": str(self.files.cache),
                "mirror": str(self.files.mirror) if self.files.mirror else None,
                "offline": self.files.offline,
            },
            "closed": list(self.closed),
            "sandbox": self.sandbox,
        }


def _entry_without_reference(manifest: str, name: str) -> dict[str, Any]:
    """The manifest's entry ``name`` as the worker needs it: how to load it, not what its optimum is."""
    path = Path(manifest)
    entry = _entries(str(path.resolve()), path.stat().st_mtime_ns)[name]
    fields = {key: value for key, value in asdict(entry).items() if key not in ("reference", "source")}
    kind = "file" if isinstance(entry.source, FileSource) else "generated"
    return fields | {"source": asdict(entry.source), "kind": kind}


@functools.lru_cache(maxsize=8)
def _entries(path: str, mtime_ns: int) -> dict[str, InstanceEntry]:
    """A manifest's entries by name, read once per version of the file (a campaign plans many runs of one)."""
    from frontierco.manifests import read_manifest

    return {entry.name: entry for entry in read_manifest(Path(path)).entries}


def _entry_of(fields: dict[str, Any]) -> InstanceEntry:
    source = FileSource(**fields["source"]) if fields["kind"] == "file" else GeneratedSource(**fields["source"])
    rest = {key: value for key, value in fields.items() if key not in ("source", "kind")}
    return InstanceEntry(**rest, source=source, reference=None)


def job_files(job: dict[str, Any]) -> FileStore:
    """The file store a job names."""
    files = job["files"]
    return FileStore(Path(files["cache"]), Path(files["mirror"]) if files["mirror"] else None, files["offline"])


def load_job_instance(job: dict[str, Any]) -> Instance:
    """The instance a job names: a registry entry (from the job's file store), or a file read by its format."""
    from frontierco.problems.files import read_instance
    from frontierco.registry import Registry

    if job.get("entry"):
        return Registry(store=job_files(job)).load(_entry_of(job["entry"]))
    return read_instance(job["instance_key"])
