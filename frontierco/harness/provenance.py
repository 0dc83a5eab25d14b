"""Where a record came from: versions, commit, Python, CPU, parallel jobs."""

from __future__ import annotations

import datetime
import importlib.metadata
import platform
import subprocess
from functools import cache
from pathlib import Path

from frontierco.results import package_name
from frontierco.workspace import SUITE


@cache
def _git_commit() -> str:
    try:
        result = subprocess.run(["git", "rev-parse", "HEAD"], cwd=SUITE, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return result.stdout.strip() or "unknown"


@cache
def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(requirement: str) -> str:
    try:
        return importlib.metadata.version(package_name(requirement))
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def provenance(requires: dict[str, str], jobs: int) -> dict[str, object]:
    return {
        "frontierco": importlib.metadata.version("frontierco"),
        "git_commit": _git_commit(),
        "python": platform.python_version(),
        "cpu": _cpu_model(),
        "jobs": jobs,
        "libraries": {package_name(requirement): _version(requirement) for requirement in requires.values()},
        "finished_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
