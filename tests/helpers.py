"""Helpers the tests share (fixtures stay in the conftest files)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.generate import generate
from frontierco.registry import Registry
from frontierco.results import RunRecord
from frontierco.workspace import Context

DATA = Path(__file__).parent / "data"  # small instance and solution files
SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def suite_registry() -> Registry:
    """The suite's own collections with the file store the environment sets (``FRONTIERCO_MIRROR``, which the
    conftest sets, read by ``Context.discover``): ``Registry()`` alone has no mirror."""
    return Registry(store=Context.discover().files)


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` imported as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TEST_SOLVERS = Path(__file__).parent / "solvers"  # test-only solvers (faulty)

SHA = {name: content_sha256(generate("tsp-uniform", name, seed, {"n": 5}).instance) for seed, name in ((1, "t1"), (2, "t2"))}


def record(solver: str, instance: str, status: str, objective: float | None, trace: list[tuple[float, float]], seed: int = 0) -> RunRecord:
    return RunRecord(
        run_id=f"{solver}-{instance}-{seed}",
        solver=solver,
        solver_version="1",
        params={},
        problem="tsp",
        collection="tiny",
        instance=instance,
        instance_key=f"tiny/{instance}",
        instance_sha256=SHA.get(instance, "x"),
        time_limit=10.0,
        seed=seed,
        threads=1,
        status=status,
        reason="",
        objective=objective,
        reference=None,
        reference_source="",
        reference_status="",
        trace=trace,
        time_to_best=trace[-1][0] if trace else None,
        proven=status == "optimal",
        solve_time=10.0,
        setup_time=0.1,
        solutions_received=len(trace),
        exit_code=0,
        exit_signal=None,
        stderr_tail="",
        solution_file=None,
        provenance={
            "cpu": "test cpu",
            "python": "3.11",
            "jobs": 1,
            "frontierco": "0.1.0",
            "libraries": {"lib": "1.0"},
            "finished_at": "2026-01-02T03:04:05+00:00",
        },
    )


TUNED_SOLVER = """
import numpy as np

from frontierco.problems import MISSolution
from frontierco.solver import Solver


class Tuned(Solver):
    name = "tuned"
    problems = ("mis",)
    version = "1"

    def solve(self, instance, budget):
        yield MISSolution(np.zeros(1, dtype=np.int64))
"""

TUNED_PARAMETERS = """
[params.flavour]
type = "str"
default = "plain"
choices = ["plain", "spicy"]

[params.level]
type = "int"
default = 1
help = "how much"
"""


def tuned_solver(solvers: Path) -> Path:
    """A workspace solver ``tuned`` (MIS: one vertex) that declares two parameters, flavour and level."""
    folder = solvers / "tuned"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "solver.py").write_text(TUNED_SOLVER)
    (folder / "solver.toml").write_text(TUNED_PARAMETERS)
    return folder
