"""Resume: killing a campaign at any moment and running it again loses and duplicates nothing."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from frontierco.errors import UsageError
from frontierco.harness.execute import run_plan
from frontierco.harness.executors import LocalExecutor
from frontierco.harness.plan import Selection, plan_collection
from frontierco.registry import Registry
from frontierco.results import ResultStore, RunRecord, latest
from frontierco.solver import Budget
from tests.helpers import TEST_SOLVERS

SCRIPT = """
import signal
import sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # a shell that started us in the background ignores SIGINT
from dataclasses import replace
from pathlib import Path
from frontierco.harness.execute import run_plan
from frontierco.harness.plan import plan_file
from frontierco.results import ResultStore, RunRecord, latest
from frontierco.solver import Budget, discover
spec = discover(Path(sys.argv[1]))["faulty"]
plan = plan_file(spec, Path(sys.argv[2]), Budget(5.0), seeds=6, params={"mode": "slow", "seconds": 0.4})
run_plan(plan, ResultStore(Path(sys.argv[3])))
"""


def _lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


@pytest.mark.slow
@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGINT])
def test_killed_campaign_resumes_without_loss_or_duplicates(tmp_path, plan_for, kill):
    from tests.helpers import DATA

    root = tmp_path / "runs"
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, str(TEST_SOLVERS), str(DATA / "tiny.vrp"), str(root)])
    jsonl = root / "files" / "faulty.jsonl"
    deadline = time.monotonic() + 60
    while _lines(jsonl) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(kill)
    process.wait(timeout=30)
    assert 2 <= _lines(jsonl) < 6
    store = ResultStore(root)
    finished = {r.run_id for r in store.records()}  # what the killed campaign completed
    assert 2 <= len(finished) < 6
    plan = plan_for("slow", seeds=6, seconds=0.4)
    # the same runs, planned again here (the reference is not part of the run id)
    planned = {spec.run_id for spec in plan.specs}
    assert finished < planned
    again = run_plan(plan, store)
    records = list(store.records())
    assert len(records) == 6 and {r.run_id for r in records} == planned
    assert sorted(r.run_id for r in again) == sorted(planned - finished)  # exactly the runs the kill left undone, each once
    assert run_plan(plan, store) == []  # finished runs are skipped


def test_a_torn_last_line_is_read_around_and_quarantined_by_the_next_writer(tmp_path, plan_for):
    store = ResultStore(tmp_path / "runs")
    run_plan(plan_for("good", seeds=2), store)
    path = store.path("files", "faulty")
    with open(path, "a") as handle:
        handle.write('{"run_id": "torn", "sol')  # a write cut short by kill -9
    before = path.read_bytes()
    assert len(list(store.records())) == 2
    assert path.read_bytes() == before  # reading never writes
    run_plan(plan_for("good", seeds=3), store)  # a writer: seals the file before appending
    assert len(list(store.records())) == 3 and path.read_text().endswith("\n")
    assert path.with_name("faulty.jsonl.quarantine").read_text() == '{"run_id": "torn", "sol\n'


def test_a_complete_last_record_without_its_newline_is_kept(tmp_path, plan_for):
    store = ResultStore(tmp_path / "runs")
    run_plan(plan_for("good", seeds=2), store)
    path = store.path("files", "faulty")
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    assert len(list(store.records())) == 2
    run_plan(plan_for("good", seeds=3), store)
    assert len(list(store.records())) == 3 and not path.with_name("faulty.jsonl.quarantine").exists()


def test_foreign_lines_are_skipped_and_newer_fields_kept(tmp_path, plan_for, caplog):
    store = ResultStore(tmp_path / "runs")
    run_plan(plan_for("good", seeds=2), store)
    path = store.path("files", "faulty")
    first, second = path.read_text().splitlines()
    newer = json.loads(second) | {"energy_joules": 12.5}
    missing = {k: v for k, v in json.loads(first).items() if k != "status"}
    path.write_text("\n".join([first, "garbage", "{}", "[1, 2]", json.dumps(missing), json.dumps(newer), '{"run_id": "x", "tra']) + "\n")
    with caplog.at_level("WARNING"):
        records = list(store.records())
    assert [r.run_id for r in records] == [json.loads(first)["run_id"], newer["run_id"]]
    assert records[1].extra == {"energy_joules": 12.5} and json.loads(records[1].to_json()) == newer
    assert sum("5 line(s) that are not run records" in m for m in caplog.messages) == 1


def test_force_redoes_runs(tmp_path, plan_for):
    store = ResultStore(tmp_path / "runs")
    plan = plan_for("good")
    run_plan(plan, store)
    assert len(run_plan(plan, store, force=True)) == 1
    records = list(store.records())
    assert len(records) == 2  # append-only: the redo is a second record...
    assert latest(records) == [records[1]]  # ...that supersedes the first


def test_only_named_instances(tmp_path):
    from frontierco.solver import get_solver

    selection = Selection("mis-rb-small", "dev", names=["mis-rb-small-dev-2"])
    plan = plan_collection(Registry(), get_solver("greedy"), "mis", selection, Budget(5.0))
    assert [s.instance_name for s in plan.specs] == ["mis-rb-small-dev-2"]
    with pytest.raises(UsageError, match="no instances nope"):
        plan_collection(Registry(), get_solver("greedy"), "mis", Selection("mis-rb-small", "dev", names=["nope"]), Budget(5.0))


def test_run_id_does_not_depend_on_how_the_limit_is_written(plan_for):
    assert plan_for("good", time_limit=5).specs[0].run_id == plan_for("good", time_limit=5.0).specs[0].run_id


def test_run_id_depends_on_identity_only(plan_for):
    a = plan_for("good", time_limit=5.0).specs[0]
    assert a.run_id == plan_for("good", time_limit=5.0).specs[0].run_id
    assert a.run_id != plan_for("good", time_limit=6.0).specs[0].run_id
    assert a.run_id != plan_for("raises", time_limit=5.0).specs[0].run_id
    assert "reference" not in json.dumps(a.job())


def test_greedy_on_default_collection(tmp_path):
    from frontierco.solver import get_solver

    plan = plan_collection(Registry(), get_solver("greedy"), "mis", Selection(None, "dev", limit=2), Budget(5.0))
    records = run_plan(plan, ResultStore(tmp_path), LocalExecutor(2))
    assert [r.status for r in records] == ["feasible", "feasible"]
    assert all(r.collection == "mis-rb-small" and r.reference is not None for r in records)


@pytest.mark.parametrize(
    "problem, collection, message",
    [("tsp", None, "does not support tsp"), ("mis", "tsplib", "holds tsp instances, not mis"), ("cvrptw", None, "does not support")],
)
def test_usage_errors(problem, collection, message):
    from frontierco.solver import get_solver

    with pytest.raises(UsageError, match=message):
        plan_collection(Registry(), get_solver("greedy"), problem, Selection(collection), Budget(1.0))


def test_a_redone_run_keeps_the_solution_file_of_the_earlier_record(tmp_path, plan_for):
    """The issue's hgs case: a redo overwrote the file an older record of the same run id pointed at."""
    from frontierco.app.verify import verify_record

    store = ResultStore(tmp_path / "runs")
    run_plan(plan_for("good"), store)
    (first,) = store.records()
    kept = store.load_solution(first.solution_file)
    other = store.save_solution("files", first.run_id, {"routes": [[3], [1, 2]]})  # a redo with another answer
    assert other != first.solution_file and store.load_solution(first.solution_file) == kept
    assert verify_record(store, first, Registry()).agrees


def test_a_full_disk_is_one_line_naming_the_file_and_leaves_no_temporary_file(tmp_path, plan_for, monkeypatch):
    import errno
    import os

    from frontierco import results
    from frontierco.errors import StoreError

    store = ResultStore(tmp_path / "runs")
    run_plan(plan_for("good"), store)
    before = store.path("files", "faulty").read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(results.os, "fsync", full)
    with pytest.raises(StoreError, match=r"could not write .*faulty.jsonl: No space left on device"):
        run_plan(plan_for("good", seeds=2), store)
    monkeypatch.setattr(results.Path, "replace", full)
    with pytest.raises(StoreError, match="No space left on device"):
        store.save_solution("files", "x", {"routes": [[1]]})
    assert not list((tmp_path / "runs").rglob("*.tmp"))
    monkeypatch.undo()
    assert store.path("files", "faulty").read_bytes().startswith(before)  # earlier records intact


def test_every_record_as_one_table_and_exported(tmp_path, plan_for):
    pd = pytest.importorskip("pandas")
    from typer.testing import CliRunner

    from frontierco.cli import app

    store = ResultStore(tmp_path / "runs")
    run_plan(plan_for("good", seeds=3), store)
    frame = store.to_frame()
    assert len(frame) == 3 and set(frame["status"]) == {"feasible"} and list(frame["seed"]) == [0, 1, 2]
    assert json.loads(frame["trace"][0])[-1][1] == 100.0
    result = CliRunner().invoke(app, ["results", "export", str(tmp_path / "all.csv"), "--results", str(tmp_path / "runs")])
    assert result.exit_code == 0 and "wrote 3 records" in result.output
    assert pd.read_csv(tmp_path / "all.csv")["objective"].tolist() == [100.0] * 3


def test_records_export_to_parquet(tmp_path, plan_for):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    from typer.testing import CliRunner

    from frontierco.cli import app

    store = ResultStore(tmp_path / "runs")
    run_plan(plan_for("good", seeds=2), store)
    args = ["results", "export", str(tmp_path / "all.parquet"), "--format", "parquet", "--results", str(tmp_path / "runs")]
    assert CliRunner().invoke(app, args).exit_code == 0
    assert pd.read_parquet(tmp_path / "all.parquet")["run_id"].tolist() == store.to_frame()["run_id"].tolist()


def test_one_run_id_in_two_collections_is_two_runs(tmp_path, plan_for):
    """Two collections that list one file give its runs one run id (it names the instance, not the collection)."""
    store = ResultStore(tmp_path / "runs")
    run_plan(plan_for("good"), store)
    (first,) = list(store.records())
    twin = RunRecord.from_json(first.to_json())
    twin.collection, twin.instance_key = "twin", f"twin/{first.instance}"
    assert latest([first, twin]) == [first, twin]
