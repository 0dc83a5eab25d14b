"""scripts/record_unrounded.py: records written before the ``unrounded`` field get it, computed from their stored
solution and instance; what does not re-check is left as it is; admitted lines stay admitted; the board's FrontierCO
section then scores them, and a forged value is refused by admission."""

from __future__ import annotations

from dataclasses import replace

import tomli_w

from frontierco.app.verify import admission
from frontierco.problems import TSPSolution, evaluate
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.generate import generate
from frontierco.registry import Registry
from frontierco.results import ResultStore
from tests.helpers import load_script, record


def _setup(tmp_path):
    """Two DIMACS-style instances (EUC_2D: TSPLIB's nint) and a run on each with a stored tour; 'd2' claims a
    wrong objective."""
    generated = {name: generate("tsp-dimacs-uniform", name, seed, {"n": 6}).instance for seed, name in ((3, "d1"), (4, "d2"))}
    entries = [
        {"name": name, "seed": seed, "content_sha256": content_sha256(generated[name]), "reference": 1.0}
        for seed, name in ((3, "d1"), (4, "d2"))
    ]
    manifest = {"name": "fco", "problem": "tsp", "generator": "tsp-dimacs-uniform", "params": {"n": 6}, "instance": entries}
    (tmp_path / "manifests").mkdir()
    (tmp_path / "manifests" / "fco.toml").write_text(tomli_w.dumps(manifest))
    store = ResultStore(tmp_path / "runs")
    tour = TSPSolution(list(range(6)))
    for name, instance in generated.items():
        objective = evaluate(instance, tour).objective
        assert objective is not None
        solution = store.save_solution("fco", f"s-{name}", {"tour": list(range(6))})
        run = record("s", name, "feasible", objective + (name == "d2"), [(1.0, objective)])
        store.append(
            replace(
                run,
                run_id=f"s-{name}",
                collection="fco",
                instance_key=f"fco/{name}",
                instance_sha256=entries[0 if name == "d1" else 1]["content_sha256"],
                solution_file=solution,
            )
        )
    return store, Registry(tmp_path / "manifests"), generated


def test_old_records_get_the_unrounded_length_of_their_stored_solution(tmp_path):
    store, registry, generated = _setup(tmp_path)
    script = load_script("record_unrounded")
    count, skipped = script.record_unrounded(store, registry)
    assert count == 1 and len(skipped) == 1 and skipped[0].startswith("s-d2 (fco/d2): re-checks to")
    by_name = {r.instance: r for r in store.records(only_admitted=True)}
    coords = generated["d1"].weights.coords
    by_hand = sum(((coords[k] - coords[(k + 1) % 6]) ** 2).sum() ** 0.5 for k in range(6))
    assert by_name["d1"].unrounded == by_hand != by_name["d1"].objective  # rewritten and still admitted
    assert by_name["d2"].unrounded is None
    assert script.record_unrounded(store, registry) == (0, skipped)  # done once


def test_admission_refuses_an_unrounded_objective_its_solution_does_not_give(tmp_path):
    store, registry, _ = _setup(tmp_path)
    load_script("record_unrounded").record_unrounded(store, registry)
    good = next(r for r in store.records() if r.instance == "d1")
    path = store.path("fco", "s")
    assert admission(store, good, path, registry) == ""
    forged = replace(good, unrounded=good.unrounded - 1.0)  # type: ignore[operator]
    assert admission(store, forged, path, registry).startswith("its solution re-checks to ")
    assert "unrounded, the record says" in admission(store, forged, path, registry)
