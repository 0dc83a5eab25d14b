"""The worker's sandbox: a solver reads no manifest, writes nothing outside its temporary folder and cannot
append to the record store."""

import json
from pathlib import Path

import pytest

from frontierco.harness.campaign import run_campaign
from frontierco.harness.sandbox import abi
from frontierco.results import ResultStore
from frontierco.workspace import SUITE


def _probe(tmp_path, hostile_campaign):
    store = ResultStore(tmp_path / "runs")
    records_file = store.path("c", "s")
    records_file.parent.mkdir(parents=True)
    records_file.write_text("")
    manifest = next((SUITE / "instances").rglob("*.toml"))
    campaign = hostile_campaign("probe", read=str(manifest), write=str(tmp_path / "outside.txt"), store=str(records_file))
    (record,) = run_campaign(campaign, store)
    assert record.status == "error", record
    report = json.loads(record.reason.split(": ", 1)[1])
    return record, report, records_file


@pytest.mark.skipif(abi() < 1, reason="this kernel offers no Landlock")
def test_a_sandboxed_solver_reads_no_manifest_writes_nothing_outside_and_cannot_append_to_the_store(tmp_path, hostile_campaign):
    record, report, records_file = _probe(tmp_path, hostile_campaign)
    assert report["read"].startswith("refused") and report["write"].startswith("refused") and report["append"].startswith("refused")
    assert report["scratch"] == "done"  # its own temporary folder stays writable
    assert not (tmp_path / "outside.txt").exists() and records_file.read_text() == ""
    assert record.provenance["sandbox"] == f"landlock ABI {abi()}"


def test_a_run_without_the_sandbox_says_so(tmp_path, hostile_campaign, monkeypatch):
    monkeypatch.setenv("FRONTIERCO_SANDBOX", "0")
    record, report, _ = _probe(tmp_path, hostile_campaign)
    assert record.provenance["sandbox"] == "unsandboxed" and report["read"] == "done"


def test_a_grant_never_covers_the_workspace(tmp_path, monkeypatch):
    import frontierco
    from frontierco.harness.sandbox import readable_paths

    workspace = tmp_path / "workspace"
    (workspace / "solvers" / "mine").mkdir(parents=True)
    (tmp_path / "library").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))  # a PYTHONPATH above the workspace
    paths = readable_paths(workspace / "solvers" / "mine", [], [workspace.resolve()])
    assert tmp_path.resolve() not in paths and workspace.resolve() not in paths
    assert (tmp_path / "library").resolve() in paths  # the rest of that folder stays readable
    assert (workspace / "solvers" / "mine").resolve() in paths
    assert Path(frontierco.__file__).resolve().parent in paths


def test_the_board_says_which_sandbox_its_runs_had():
    from dataclasses import replace

    from frontierco.leaderboard.protocol import Protocol
    from tests.helpers import record

    old = record("a", "t1", "feasible", 1.0, [(0.1, 1.0)])
    assert "sandbox" not in Protocol.of([old]).markdown()  # records made before the sandbox: the page as it was
    new = replace(old, provenance={"sandbox": "unsandboxed"})
    assert "- solver sandbox: not recorded, unsandboxed" in Protocol.of([old, new]).markdown()


def test_a_folder_holding_a_forbidden_one_is_granted_entry_by_entry():
    import frontierco
    from frontierco.harness.sandbox import readable_paths

    package = Path(frontierco.__file__).resolve().parent
    paths = readable_paths(None, [], [package / "harness"])  # as an installed suite's frontierco/_suite
    assert package not in paths and package / "harness" not in paths
    assert package / "problems" in paths and package / "solver.py" in paths
