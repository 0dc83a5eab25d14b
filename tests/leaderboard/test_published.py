"""The leaderboard's section on FrontierCO's test sets, from synthetic records."""

import random
from pathlib import Path

import pytest
import tomli_w

from frontierco.leaderboard.build import build
from frontierco.leaderboard.data import boards
from frontierco.leaderboard.published import published_markdown
from frontierco.registry import Registry
from frontierco.results import ResultStore
from tests.helpers import SHA, record


def _collection(name: str, references: dict[str, float], status: str, source: str, published: dict[str, object] | None) -> str:
    entries = [
        {"name": n, "seed": seed, "content_sha256": SHA[n], "reference": value, "reference_source": source, "reference_status": status}
        for (n, value), seed in zip(sorted(references.items()), (1, 2), strict=False)
    ]
    top: dict[str, object] = {"name": name, "problem": "tsp", "generator": "tsp-uniform", "params": {"n": 5}, "instance": entries}
    return tomli_w.dumps(top | ({"published_set": published} if published else {}))


@pytest.fixture
def published_setup(tmp_path: Path) -> tuple[Registry, Path]:
    """'fco-tiny' reproduces 2 of the 5 instances of 'FrontierCO TSP tiny' (its values 10 and 10); 'tiny' holds
    the same two instances with proven optima 8 (better than FrontierCO's) and 10 (FrontierCO's)."""
    manifests = tmp_path / "manifests"
    manifests.mkdir()
    set_ = {"name": "FrontierCO TSP tiny", "size": 5}
    (manifests / "fco.toml").write_text(_collection("fco-tiny", {"t1": 10.0, "t2": 10.0}, "best-known", "FrontierCO bks.csv", set_))
    (manifests / "tiny.toml").write_text(_collection("tiny", {"t1": 8.0, "t2": 10.0}, "optimal", "hand", None))
    (manifests / "empty.toml").write_text(_collection("fco-empty", {"t1": 10.0}, "best-known", "FrontierCO bks.csv", set_ | {"size": 3}))
    runs = []
    for solver, instance, status, objective, bound, unrounded in (
        ("a", "t1", "feasible", 11.0, 11.0, 11.2),  # a lower bound of 11 above FrontierCO's 10: not FrontierCO's instance
        ("a", "t2", "feasible", 10.0, 10.0, 10.3),  # the bound reaches FrontierCO's value: proven
        ("b", "t1", "crash", None, None, None),  # no solution
        ("b", "t2", "feasible", 9.0, None, None),  # better than FrontierCO's value; a record older than `unrounded`
    ):
        run = record(solver, instance, status, objective, [(1.0, objective)] if objective is not None else [])
        run.collection, run.instance_key, run.bound, run.unrounded = "fco-tiny", f"fco-tiny/{instance}", bound, unrounded
        runs.append(run)
    store = ResultStore(tmp_path / "leaderboards" / "runs")
    for run in runs:
        store.append(run)
    return Registry(manifests), tmp_path / "leaderboards"


def _section(registry: Registry, folder: Path, shuffle: int | None = None) -> list[str]:
    records = list(ResultStore(folder / "runs").records())
    if shuffle is not None:
        random.Random(shuffle).shuffle(records)
    return published_markdown(registry, boards(registry, records), {"b"})


def test_the_section_gives_gap_unsolved_bounds_and_better_values(published_setup):
    lines = _section(*published_setup)
    assert "## FrontierCO's test sets" in lines
    # gaps 1/11 and 0; unrounded 1.2/11.2 and 0.3/10.3
    assert "| fco-tiny | TSP tiny: 2 of 5 | a | 10 | 2 | 4.545 | 6.813 | 0 | 1 (t2) | 1 (t1) |" in lines
    # gaps 1 and 1/10, no bounds; unrounded: the crash counts 1, the older record is not scored
    assert "| fco-tiny | TSP tiny: 2 of 5 | b | 10 | 2 | 55.000 | n/a (1 of 2 runs) | 1 (t1) | - | - |" in lines
    assert "| fco-empty | TSP tiny: 1 of 3 | no runs yet | | 0 | n/a | | | | |" in lines
    assert any("the boards rank by it" in line for line in lines)
    assert "- fco-tiny/t1: FrontierCO's value 10; here 8 (tiny's reference, hand)" in lines
    assert "- fco-tiny/t2: FrontierCO's value 10; here 9 (b at 10 s in fco-tiny)" in lines
    assert "- fco-tiny: 1 of 2 (tiny)" in lines  # t2's 10 is a proven optimum in tiny; t1's 8 is not FrontierCO's 10


def test_the_section_does_not_depend_on_the_order_of_the_records_and_is_in_the_index(published_setup):
    registry, folder = published_setup
    assert _section(registry, folder, 1) == _section(registry, folder, 2) == _section(registry, folder)
    first, second = build(folder / "runs", registry)["README.md"], build(folder / "runs", registry)["README.md"]
    assert first == second and "\n## FrontierCO's test sets\n" in first.decode()


def test_without_frontierco_sets_there_is_no_section(board_setup):
    registry, folder = board_setup
    assert _section(registry, folder) == []
    assert "FrontierCO's test sets" not in build(folder / "runs", registry)["README.md"].decode()


def test_for_a_maximum_a_bound_below_frontierco_s_value_excludes_it():
    from frontierco.leaderboard.published import _row
    from frontierco.metrics import score_run

    runs = []
    for instance, bound in (("u1", 12.0), ("u2", 9.5), ("u3", 10.0)):
        run = record("c", instance, "feasible", 9.0, [(1.0, 9.0)])
        run.bound = bound
        runs.append(score_run(run, 10.0, "max"))
    row = _row(runs, {"u1": 10.0, "u2": 10.0, "u3": 10.0}, "max")
    assert (row.proves, row.excludes, row.claimed) == (["u3"], ["u2"], 3)  # u1's upper bound 12 leaves 10 open


@pytest.mark.parametrize("sense", ["min", "max"])
def test_a_bound_the_record_s_own_solution_refutes_is_not_read(sense):
    """Issue 44, group 6: a lower bound above the run's own objective (min), or an upper bound below it (max),
    claims nothing about FrontierCO's value; a proven optimum of the same run still does."""
    from frontierco.leaderboard.published import _row
    from frontierco.metrics import score_run

    lying = 20.0 if sense == "min" else 5.0  # refuted by the objective 12 (min) or 9 (max)
    objective = 12.0 if sense == "min" else 9.0
    runs = []
    for instance, proven in (("v1", False), ("v2", True)):
        run = record("d", instance, "feasible", objective, [(1.0, objective)])
        run.bound, run.proven = lying, proven
        runs.append(score_run(run, 10.0, sense))
    row = _row(runs, {"v1": 10.0, "v2": 10.0}, sense)
    assert (row.claimed, row.proves) == (1, [])  # v1 claims nothing; v2's proven objective is its claim
    assert row.excludes == ["v2"]  # FrontierCO's 10 is better than v2's proven optimum


def test_the_section_pairs_the_best_learned_row_with_the_best_classical_row(published_setup):
    """'b' is learned here: on the instances it ran (t1 unsolved: gap 1; t2: 0.1) against 'a', the one classical row
    on every instance (t1: 1/11, t2: 0); 'b' loses on both."""
    lines = _section(*published_setup)
    assert "| fco-tiny | 10 | a | 4.545 | b (2 of 2) | 55.000 | +50.455 | 2 | 0 / 0 / 2 |" in lines
    assert not any(line.startswith("| fco-empty | 10 |") for line in lines)  # no runs there: nothing to compare


def test_without_a_learned_row_the_comparison_says_so_and_the_excerpt_carries_it(published_setup):
    from frontierco.leaderboard.frontier import comparison_markdown
    from frontierco.leaderboard.tables import excerpt_markdown

    registry, folder = published_setup
    every = boards(registry, list(ResultStore(folder / "runs").records()))
    assert comparison_markdown(every, set()) == ["No FrontierCO set has both a learned row and a classical row on all its instances yet."]
    assert "| fco-tiny | 10 | a | 4.545 | b (2 of 2) | 55.000 | +50.455 | 2 | 0 / 0 / 2 |" in excerpt_markdown(every, {"b"}).splitlines()


def test_a_better_run_taken_over_as_reference_leaves_the_section_scored_against_frontierco_s_value(published_setup):
    """After `reference update` takes b's 9 over on t2 (FrontierCO's 10 kept as published_reference), the section
    reads as before: the same gaps, bounds and better value, all against FrontierCO's 10."""
    import tomlkit

    registry, folder = published_setup
    before = _section(registry, folder)
    manifest = registry.collection("fco-tiny").manifest
    document = tomlkit.parse(manifest.read_text())
    t2 = next(raw for raw in document["instance"] if raw["name"] == "t2")
    t2.update(reference=9.0, reference_source="b run x (re-verified)", published_reference=10.0)
    manifest.write_text(tomlkit.dumps(document))
    taken = Registry(manifest.parent)
    assert taken.collection("fco-tiny").entry("t2").reference.value == 9.0
    after = _section(taken, folder)
    rows = "| fco-tiny | TSP"
    assert [line for line in after if line.startswith(rows)] == [line for line in before if line.startswith(rows)]
    assert "- fco-tiny/t2: FrontierCO's value 10; here 9 (b at 10 s in fco-tiny)" in after
