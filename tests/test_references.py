from pathlib import Path

import pytest
import tomli_w

from frontierco.app.references import Change, compute_references, update_references, write_changes
from frontierco.errors import UsageError
from frontierco.harness.execute import run_plan
from frontierco.harness.executors import LocalExecutor
from frontierco.harness.plan import Selection, plan_collection
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.generate import generate
from frontierco.registry import Registry
from frontierco.results import ResultStore
from frontierco.solver import Budget, get_solver
from frontierco.workspace import Context


def _collection(folder: Path, reference: dict | None = None, published: dict | None = None) -> Registry:
    folder.mkdir()
    entries = []
    for seed in (1, 2):
        name = f"t{seed}"
        entry = {
            "name": name,
            "split": "test",
            "seed": seed,
            "content_sha256": content_sha256(generate("tsp-uniform", name, seed, {"n": 9}).instance),
        }
        entries.append(entry | (reference or {}))
    manifest = {"name": "tiny-tsp", "problem": "tsp", "generator": "tsp-uniform", "params": {"n": 9}, "instance": entries}
    manifest |= {"published_set": published} if published else {}
    (folder / "tiny-tsp.toml").write_text(tomli_w.dumps(manifest))
    return Registry(folder)


@pytest.mark.slow
def test_compute_writes_proven_optima_with_provenance(tmp_path):
    registry = _collection(tmp_path / "m")
    changes = compute_references(Context(), registry, "tiny-tsp", "exact-tsp", 5.0, ResultStore(tmp_path / "refs"))
    assert len(changes) == 2 and {c.status for c in changes} == {"optimal"}
    fresh = Registry(tmp_path / "m").collection("tiny-tsp")
    assert all(e.reference.status == "optimal" and e.reference.source == "exact-tsp 5 s, seed 0 (proven optimal)" for e in fresh.entries)
    # resumable and idempotent: nothing reruns, nothing changes
    assert compute_references(Context(), Registry(tmp_path / "m"), "tiny-tsp", "exact-tsp", 5.0, ResultStore(tmp_path / "refs")) == []


def _runs(registry: Registry, store: ResultStore) -> None:
    plan = plan_collection(registry, get_solver("nn-2opt"), "tsp", Selection("tiny-tsp"), Budget(5.0))
    run_plan(plan, store, LocalExecutor(1))


def test_update_takes_over_better_runs_after_verifying(tmp_path):
    registry = _collection(tmp_path / "m", {"reference": 1e9, "reference_source": "a bad guess", "reference_status": "best-known"})
    store = ResultStore(tmp_path / "runs")
    _runs(registry, store)
    changes = update_references(registry, store)
    assert len(changes) == 2 and all(c.old == 1e9 and c.new < 10 for c in changes)
    fresh = Registry(tmp_path / "m").collection("tiny-tsp")
    assert all("nn-2opt run" in e.reference.source and "re-verified" in e.reference.source for e in fresh.entries)
    assert update_references(Registry(tmp_path / "m"), store) == []


def test_in_a_published_set_the_set_s_value_stays_beside_the_better_run(tmp_path):
    """The published value is written once, at the first take-over, and survives later ones; only the named
    collections are taken over."""
    published = {"name": "FrontierCO TSP tiny", "size": 2}
    registry = _collection(tmp_path / "m", {"reference": 1e9, "reference_source": "FrontierCO bks.csv"}, published)
    store = ResultStore(tmp_path / "runs")
    _runs(registry, store)
    assert update_references(registry, store, {"another"}) == []
    changes = update_references(registry, store, {"tiny-tsp"})
    assert len(changes) == 2 and all(c.published == 1e9 for c in changes)
    fresh = Registry(tmp_path / "m").collection("tiny-tsp")
    assert all(e.reference.published == 1e9 and e.reference.value < 10 for e in fresh.entries)
    write_changes(fresh.manifest, [Change("t1", fresh.entries[0].reference.value, 1.0, "hand", "best-known", 5.0)])
    again = Registry(tmp_path / "m").collection("tiny-tsp").entry("t1").reference
    assert (again.value, again.published) == (1.0, 1e9)


def test_outside_published_sets_no_published_value_is_written(tmp_path):
    registry = _collection(tmp_path / "m", {"reference": 1e9, "reference_source": "a bad guess"})
    store = ResultStore(tmp_path / "runs")
    _runs(registry, store)
    assert all(c.published is None for c in update_references(registry, store))
    assert all(e.reference.published is None for e in Registry(tmp_path / "m").collection("tiny-tsp").entries)


def test_beating_a_proven_optimum_is_refused(tmp_path):
    registry = _collection(tmp_path / "m", {"reference": 1e9, "reference_source": "wrong", "reference_status": "optimal"})
    store = ResultStore(tmp_path / "runs")
    _runs(registry, store)
    with pytest.raises(UsageError, match="beats the proven optimum"):
        update_references(registry, store)


def test_update_passes_over_runs_whose_instance_left_the_collection(tmp_path):
    registry = _collection(tmp_path / "m", {"reference": 1e9, "reference_source": "a bad guess", "reference_status": "best-known"})
    store = ResultStore(tmp_path / "runs")
    _runs(registry, store)
    (record, *_) = store.records()
    record.instance, record.run_id = "gone", "gone-run"  # an instance removed from the manifest since its run
    store.append(record)
    assert len(update_references(Registry(tmp_path / "m"), store)) == 2  # the other runs still count


COMMENTED = """# a collection kept by hand
name = "tiny-tsp"   # its name
problem = "tsp"

# References: see the notes below.
[[instance]]
name = "t1"
seed = 1
reference = 5.0  # a guess
reference_source = "a guess"
reference_status = "best-known"

# the second one has none yet
[[instance]]
name = "t2"
seed = 2
"""


def test_writing_references_keeps_the_manifests_comments_and_layout(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text(COMMENTED)
    write_changes(path, [Change("t1", 5.0, 4.5, "lkh run ab (re-verified)", "best-known"), Change("t2", None, 7.0, "x", "optimal")])
    expected = (
        COMMENTED.replace("reference = 5.0  # a guess", "reference = 4.5  # a guess").replace(
            'reference_source = "a guess"', 'reference_source = "lkh run ab (re-verified)"'
        )
        + 'reference = 7.0\nreference_source = "x"\nreference_status = "optimal"\n'
    )
    assert path.read_text() == expected  # every comment and blank line as it was (tomli_w dropped them all)
