"""Run records and their append-only JSONL store.

Records live in ``<root>/<collection>/<solver>.jsonl``, one JSON object per line, each line written
whole, flushed and fsynced; the best solution of a run is stored beside them as
``<root>/<collection>/solutions/<run_id>.json.gz`` (written before the record that names it). A torn last
line (a run killed mid-write) is cut off when the file is next opened; every earlier line is kept.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class RunRecord:
    """One finished run: identity, measures, parameters and provenance (long format)."""

    run_id: str
    solver: str
    solver_version: str
    params: dict[str, Any]
    problem: str
    collection: str
    instance: str
    instance_key: str
    instance_sha256: str
    time_limit: float
    seed: int
    threads: int
    status: str
    reason: str
    objective: float | None
    reference: float | None
    reference_source: str
    reference_status: str
    trace: list[tuple[float, float]]
    time_to_best: float | None
    proven: bool
    solve_time: float
    setup_time: float
    solutions_received: int
    exit_code: int | None
    exit_signal: int | None
    stderr_tail: str
    solution_file: str | None
    provenance: dict[str, Any] = field(default_factory=dict)
    sense: str = ""  # "min" or "max" of the instance (a MILP states its own); "" in records older than the field
    device: str = "cpu"  # where the solver ran (cpu, cuda, cuda:N); records older than the field ran on the CPU

    @property
    def row_name(self) -> str:
        """The solver as the leaderboard names its rows: a run on another device than the CPU is its own row."""
        return self.solver if self.device == "cpu" else f"{self.solver}@{self.device}"

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, line: str) -> RunRecord:
        data = json.loads(line)
        data["trace"] = [tuple(point) for point in data["trace"]]
        return cls(**data)


def _repair(path: Path) -> None:
    """Cut a torn (unterminated or unparsable) last line off a JSONL file."""
    data = path.read_bytes()
    if not data:
        return
    keep = len(data)
    if not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
    else:
        last_start = data.rfind(b"\n", 0, len(data) - 1) + 1
        try:
            json.loads(data[last_start:])
        except json.JSONDecodeError:
            keep = last_start
    if keep != len(data):
        log.warning("repairing %s: dropping a torn last line of %d bytes", path, len(data) - keep)
        with open(path, "r+b") as handle:
            handle.truncate(keep)
            handle.flush()
            os.fsync(handle.fileno())


def latest(records: list[RunRecord]) -> list[RunRecord]:
    """One record per run id, the last appended: a run redone with --force supersedes the earlier one."""
    by_id: dict[str, RunRecord] = {}
    for record in records:
        by_id.pop(record.run_id, None)
        by_id[record.run_id] = record
    return list(by_id.values())


class ResultStore:
    """Append-only store of run records under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, collection: str, solver: str) -> Path:
        return self.root / collection / f"{solver}.jsonl"

    def records(self, collection: str | None = None, solver: str | None = None) -> Iterator[RunRecord]:
        """Every stored record (optionally of one collection and/or solver), repairing torn files."""
        pattern = f"{collection or '*'}/{solver or '*'}.jsonl"
        for path in sorted(self.root.glob(pattern)):
            _repair(path)
            with open(path) as handle:
                for line in handle:
                    if line.strip():
                        yield RunRecord.from_json(line)

    def finished(self, collection: str, solver: str) -> set[str]:
        return {r.run_id for r in self.records(collection, solver)}

    def save_solution(self, collection: str, run_id: str, solution: dict[str, Any]) -> str:
        """Write a best solution (atomically) and return its path relative to the store root."""
        relative = Path(collection) / "solutions" / f"{run_id}.json.gz"
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_suffix(".tmp")
        with gzip.GzipFile(temporary, "wb", mtime=0) as handle:
            handle.write(json.dumps(solution, sort_keys=True).encode())
        temporary.replace(target)
        return str(relative)

    def load_solution(self, relative: str) -> dict[str, Any]:
        with gzip.open(self.root / relative) as handle:
            return json.loads(handle.read())

    def append(self, record: RunRecord) -> None:
        """Append one record as one line: written whole, flushed, fsynced."""
        path = self.path(record.collection, record.solver)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            _repair(path)
        with open(path, "a") as handle:
            handle.write(record.to_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
