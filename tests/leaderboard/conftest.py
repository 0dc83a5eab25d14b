from pathlib import Path

import pytest
import tomli_w

from frontierco.fingerprint import content_sha256
from frontierco.generators import generate
from frontierco.registry import Registry
from frontierco.results import ResultStore, RunRecord

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


@pytest.fixture
def board_setup(tmp_path: Path) -> tuple[Registry, Path]:
    """A two-instance collection (references 10 and 10) and runs of solvers a and b."""
    manifests = tmp_path / "manifests"
    manifests.mkdir()
    entries = [
        {
            "name": name,
            "seed": seed,
            "content_sha256": SHA[name],
            "reference": 10.0,
            "reference_source": "hand",
            "reference_status": "best-known",
        }
        for seed, name in ((1, "t1"), (2, "t2"))
    ]
    (manifests / "tiny.toml").write_text(
        tomli_w.dumps(
            {
                "name": "tiny",
                "problem": "tsp",
                "description": "a tiny test collection",
                "generator": "tsp-uniform",
                "params": {"n": 5},
                "instance": entries,
            }
        )
    )
    folder = tmp_path / "leaderboards"
    store = ResultStore(folder / "runs")
    store.append(record("a", "t1", "feasible", 11.0, [(1.0, 12.0), (4.0, 11.0)]))
    store.append(record("a", "t2", "optimal", 10.0, [(2.0, 10.0)]))
    store.append(record("b", "t1", "crash", None, []))
    store.append(record("b", "t2", "feasible", 9.0, [(5.0, 9.0)]))
    return Registry(manifests), folder
