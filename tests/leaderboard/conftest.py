from pathlib import Path

import pytest
import tomli_w

from frontierco.registry import Registry
from frontierco.results import ResultStore
from tests.helpers import SHA, record


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
