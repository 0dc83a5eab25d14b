"""Records are evidence: the boards show only records the harness wrote (or ``verify --admit`` re-checked), so
a line appended by anyone else never reaches them."""

import json
from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from frontierco.app.verify import admit_store
from frontierco.cli import app
from frontierco.harness.execute import run_plan
from frontierco.leaderboard.build import build
from frontierco.registry import Registry
from frontierco.results import ResultStore, index_path
from tests.helpers import load_script, record
from tests.leaderboard.conftest import board_setup  # noqa: F401


def _forge(path: Path, line: dict) -> None:
    with open(path, "a") as handle:
        handle.write(json.dumps(line) + "\n")


def test_a_forged_record_never_reaches_a_board(board_setup):  # noqa: F811
    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    forged = replace(record("c", "t1", "optimal", 10.0, [(0.1, 10.0)]), run_id="forged")
    _forge(store.path("tiny", "c"), json.loads(forged.to_json()))
    assert "forged" in {r.run_id for r in store.records()}  # in the store, as a line
    page = build(folder / "runs", registry)["tiny.md"].decode()
    assert "| a | 10 |" in page and "| c |" not in page
    refused = []
    assert admit_store(store, lambda r, reason: refused.append((r.run_id, reason)), Registry()) == 0
    assert refused == [("forged", "status optimal with objective 10.0 and solution None")]


def test_verify_admit_admits_what_re_checks_and_refuses_the_rest(tmp_path, hostile_plan):
    store = ResultStore(tmp_path / "runs")
    (honest,) = run_plan(hostile_plan("good"), store)
    assert honest.status == "feasible" and honest.run_id in {r.run_id for r in store.records(only_admitted=True)}
    path = store.path(honest.collection, honest.solver)
    line = json.loads(honest.to_json())
    index_path(path).unlink()  # as a store made by older code: nothing admitted
    forgeries = [("better", {"objective": 50.0}), ("nan", {"objective": float("nan")}), ("inf", {"objective": float("-inf")})]
    for run_id, changes in [*forgeries, ("elsewhere", {"solver": "other"})]:
        _forge(path, line | changes | {"run_id": run_id})
    result = CliRunner().invoke(app, ["verify", "--admit", "--results", str(tmp_path / "runs")])
    assert result.exit_code == 1, result.output
    assert "admitted 1 records; 2 refused" in result.output  # the NaN and -inf lines are no records at all: the store skips them
    assert {"nan", "inf"}.isdisjoint({r.run_id for r in store.records()})
    assert "run better" in result.output and "re-checks to 100.0" in result.output
    assert "run elsewhere" in result.output and "a record of files/other in files/hostile.jsonl" in result.output
    assert {r.run_id for r in store.records(only_admitted=True)} == {honest.run_id}


def test_verify_changed_since_re_checks_the_records_a_commit_adds(tmp_path, hostile_plan):
    import subprocess

    store = ResultStore(tmp_path / "runs")
    (honest,) = run_plan(hostile_plan("good"), store)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    path = store.path(honest.collection, honest.solver)
    _forge(path, json.loads(honest.to_json()) | {"run_id": "forged", "objective": 1.0, "status": "optimal"})
    result = CliRunner().invoke(app, ["verify", "--changed-since", "HEAD", "--results", str(tmp_path / "runs")])
    assert result.exit_code == 1 and "1 records added or admitted since HEAD; 1 do not re-check" in result.output, result.output
    assert "run forged" in result.output


def test_verify_changed_since_re_checks_an_older_record_a_commit_admits_by_a_digest_alone(tmp_path, hostile_plan):
    """Issue 44, group 7: the index is an unkeyed digest, so a forged line committed unadmitted and then given its
    digest in a later commit reached the boards unchecked (before: '0 records added since HEAD', exit 0)."""
    import subprocess

    from frontierco.results import line_digest

    store = ResultStore(tmp_path / "runs")
    (honest,) = run_plan(hostile_plan("good"), store)
    path = store.path(honest.collection, honest.solver)
    forged = json.loads(honest.to_json()) | {"run_id": "forged", "objective": 1.0, "status": "optimal"}
    _forge(path, forged)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)  # the forged line is in, not admitted
    with open(index_path(path), "a") as handle:
        handle.write(line_digest(json.dumps(forged).encode()) + "\n")
    assert "forged" in {r.run_id for r in store.records(only_admitted=True)}  # the digest alone admits it
    result = CliRunner().invoke(app, ["verify", "--changed-since", "HEAD", "--results", str(tmp_path / "runs")])
    assert result.exit_code == 1 and "1 records added or admitted since HEAD; 1 do not re-check" in result.output, result.output
    assert "run forged" in result.output and "re-checks to 100.0" in result.output


def test_a_record_no_board_scores_is_admitted_as_left_out(board_setup):  # noqa: F811
    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    gone = replace(record("c", "t9", "feasible", 3.0, [(1.0, 3.0)]), run_id="gone", instance_key="tiny/t9", solution_file="tiny/none")
    path = store.path("tiny", "c")
    path.parent.mkdir(parents=True, exist_ok=True)
    _forge(path, json.loads(gone.to_json()))
    assert admit_store(store, lambda r, reason: None, registry) == 1  # against the test collection
    assert "Runs left out because their instance left the collection" in build(folder / "runs", registry)["tiny.md"].decode()


def test_verify_changed_since_re_checks_solutions_a_commit_moved_out_of_the_store_from_the_files_it_removed(
    tmp_path, hostile_plan, monkeypatch
):
    """A commit that moves solution files out of the store by hash (scripts/move_large_solutions.py) rewrites their
    records; CI, which has no local solution cache, re-checks them from the files the commit removed (before:
    'not re-checked: solution not available locally', exit 1). A record naming a hash no removed file has is
    still refused."""
    import subprocess

    monkeypatch.setenv("FRONTIERCO_CACHE", str(tmp_path / "cache"))
    store = ResultStore(tmp_path / "runs")
    (honest,) = run_plan(hostile_plan("good"), store)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "runs"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    module = load_script("move_large_solutions")
    monkeypatch.setenv("FRONTIERCO_SOLUTION_LIMIT", "10")
    (address,) = module.move(store.root, tmp_path / "elsewhere", delete=True).values()
    (moved,) = [r for r in store.records() if r.run_id == honest.run_id]
    assert moved.solution_file == address and not (tmp_path / "cache" / "solutions").exists()  # not on this machine
    verify_since = ["verify", "--changed-since", "HEAD", "--results", str(tmp_path / "runs")]
    result = CliRunner().invoke(app, verify_since)
    assert result.exit_code == 0 and "1 records added or admitted since HEAD; 0 do not re-check" in result.output, result.output
    nowhere = {"run_id": "forged", "solution_file": "sha256:" + "0" * 64}
    _forge(store.path(honest.collection, honest.solver), json.loads(moved.to_json()) | nowhere)
    result = CliRunner().invoke(app, verify_since)
    assert result.exit_code == 1 and "2 records added or admitted since HEAD; 1 do not re-check" in result.output, result.output
    assert "run forged" in result.output and "solution not available locally" in result.output
