"""The worker's sandbox, under each mechanism that works here (Landlock, bubblewrap): a solver reads no
manifest, writes nothing outside its temporary folder, cannot append to the record store nor read the
harness's memory, and finds no reference value in its own; where no mechanism works, record and board say
"unsandboxed"."""

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from frontierco.filestore import FileStore
from frontierco.harness.bubblewrap import bubblewrap_version
from frontierco.harness.execute import run_plan
from frontierco.harness.sandbox import BUBBLEWRAP, LANDLOCK, UNSANDBOXED, choose, landlock_abi
from frontierco.results import ResultStore
from frontierco.workspace import SUITE
from tests.leaderboard.conftest import board_setup  # noqa: F401


def _probe(tmp_path, hostile_plan, sandbox: str = ""):
    store = ResultStore(tmp_path / "runs")
    records_file = store.path("c", "s")
    records_file.parent.mkdir(parents=True)
    records_file.write_text("")
    manifest = next((SUITE / "instances").rglob("*.toml"))
    plan = hostile_plan(
        "probe", read=str(manifest), write=str(tmp_path / "outside.txt"), store=str(records_file), harness=os.getpid(), sandbox=sandbox
    )
    (record,) = run_plan(plan, store)
    assert record.status == "error", record
    report = json.loads(record.reason.split(": ", 1)[1])
    return record, report, records_file


@pytest.mark.parametrize("mechanism", [LANDLOCK, BUBBLEWRAP])
def test_a_sandboxed_solver_reads_no_manifest_writes_nothing_outside_and_cannot_append_to_the_store(
    tmp_path, hostile_plan, monkeypatch, mechanism
):
    if choose(mechanism) != mechanism:
        pytest.skip(f"{mechanism} does not work on this machine")
    record, report, records_file = _probe(tmp_path, hostile_plan, mechanism)
    assert report["read"].startswith("refused") and report["write"].startswith("refused") and report["append"].startswith("refused")
    assert report["peek"].startswith("refused")  # nor the memory of the harness, which holds the references
    assert report["scratch"] == "done"  # its own temporary folder stays writable
    assert not (tmp_path / "outside.txt").exists() and records_file.read_text() == ""
    expected = f"landlock ABI {landlock_abi()}" if mechanism == LANDLOCK else bubblewrap_version()
    assert record.provenance["sandbox"] == expected


@pytest.mark.parametrize("mechanism", [LANDLOCK, BUBBLEWRAP])
def test_a_solver_killed_by_a_signal_is_a_crash_by_that_signal_in_either_sandbox(tmp_path, hostile_plan, monkeypatch, mechanism):
    if choose(mechanism) != mechanism:
        pytest.skip(f"{mechanism} does not work on this machine")
    (record,) = run_plan(hostile_plan("abort", sandbox=mechanism), ResultStore(tmp_path / "runs"))
    assert record.status == "crash" and record.exit_signal == 6 and "signal 6" in record.reason, record


@pytest.mark.parametrize("mechanism", [LANDLOCK, BUBBLEWRAP])
def test_a_sandboxed_solver_keeps_the_network_in_either_sandbox(tmp_path, hostile_plan, mechanism):
    """Issue 44, group 11: both mechanisms leave the network as it is (Landlock refused TCP connects and
    listeners from ABI 4, bubblewrap shares the host's network namespace); a solver may fetch its weights."""
    import socket

    if choose(mechanism) != mechanism:
        pytest.skip(f"{mechanism} does not work on this machine")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        (record,) = run_plan(hostile_plan("network", port=server.getsockname()[1], sandbox=mechanism), ResultStore(tmp_path / "runs"))
    assert record.status == "error", record
    assert json.loads(record.reason.split(": ", 1)[1]) == {"connect": "done", "listen": "done", "datagram": "done"}


def test_this_machine_has_a_sandbox():
    """A run here (and in CI, where solvers from pull requests run) is never unsandboxed by default: the
    project's machines offer Landlock (ABI 7, used) and unprivileged user namespaces (bubblewrap, tested
    above with the sandbox setting bubblewrap)."""
    assert choose("") != UNSANDBOXED, "neither Landlock nor bubblewrap works on this machine: runs would be unsandboxed"
    assert choose("") == LANDLOCK or landlock_abi() == 0


def test_a_sandboxed_solver_still_solves(tmp_path, monkeypatch):
    from frontierco.harness.plan import plan_file
    from frontierco.solver import Budget, discover
    from tests.helpers import DATA

    monkeypatch.chdir(Path(__file__).parent)
    hostile = discover(Path("solvers"))["hostile"]  # a relative path: bubblewrap's sandbox has another working folder
    for mechanism in (m for m in (LANDLOCK, BUBBLEWRAP) if choose(m) == m):
        plan = plan_file(hostile, DATA / "tiny.vrp", Budget(5.0), 1, params={"mode": "good"})
        wanted = replace(plan, specs=[replace(spec, sandbox=mechanism) for spec in plan.specs])
        (record,) = run_plan(wanted, ResultStore(tmp_path / mechanism))
        assert record.status == "feasible" and record.objective == 100.0, (mechanism, record)


def test_where_no_mechanism_works_the_run_is_unsandboxed(monkeypatch):
    from frontierco.harness import bubblewrap, sandbox

    monkeypatch.setattr(sandbox, "landlock_abi", lambda: 0)
    monkeypatch.setattr(bubblewrap, "bubblewrap_version", lambda: "")
    assert [choose(s) for s in ("", "auto", LANDLOCK, BUBBLEWRAP, "0")] == [UNSANDBOXED] * 5
    monkeypatch.setattr(bubblewrap, "bubblewrap_version", lambda: "bubblewrap 0.11.0")
    assert choose("") == BUBBLEWRAP and choose(LANDLOCK) == UNSANDBOXED


def test_a_run_without_the_sandbox_says_so(tmp_path, hostile_plan, monkeypatch):
    record, report, _ = _probe(tmp_path, hostile_plan, "0")
    assert record.provenance["sandbox"] == "unsandboxed" and report["read"] == "done" and report["peek"] == "done"


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


def test_the_working_folder_is_not_granted(tmp_path, monkeypatch):
    """The worker's Python starts with -m, which puts the harness's working folder on its import path: with
    --root the workspace lies elsewhere, and the working folder (a home folder, its keys) must stay closed."""
    from frontierco.harness.sandbox import readable_paths

    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.chdir(home)
    monkeypatch.syspath_prepend(str(home))
    paths = readable_paths(None, [], [(tmp_path / "workspace").resolve()])
    assert not any(home.resolve().is_relative_to(p) or p.is_relative_to(home.resolve()) for p in paths if p != Path("/"))


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


def test_a_solver_finds_no_reference_in_its_own_memory(tmp_path, hostile_plan, monkeypatch):
    """The worker never reads the manifest (its job carries the entry without the reference), so not even
    a solver reading its process's memory (/proc/self/mem, allowed) finds a reference value there (before,
    the text of the manifest the worker had parsed stayed in freed memory: 'reference = 987895.321')."""
    import shutil
    from dataclasses import replace

    import tomli_w

    from frontierco.problems.common.fingerprint import file_sha256
    from tests.helpers import DATA

    (tmp_path / "mirror" / "secret").mkdir(parents=True)
    shutil.copy(DATA / "tiny.vrp", tmp_path / "mirror" / "secret" / "tiny.vrp")
    entry = {"name": "tiny", "file": "secret/tiny.vrp", "url": "file:///nonexistent", "sha256": file_sha256(str(DATA / "tiny.vrp"))}
    entry |= {"reference": 987654.321, "reference_source": "hand", "reference_status": "best-known"}
    manifest = tmp_path / "secret.toml"
    others = [entry | {"name": f"other{k}", "reference": 987654.321 + k} for k in range(1, 300)]  # a manifest of some size
    manifest.write_text(tomli_w.dumps({"name": "secret", "problem": "cvrp", "instance": [entry, *others]}))
    files = FileStore(cache=tmp_path / "cache", mirror=tmp_path / "mirror")
    plan = hostile_plan("scan", pattern=r"98[0-9]{4}\.[0-9]")  # any reference (the pattern itself does not match)
    specs = [replace(s, collection="secret", instance_key="secret/tiny", manifest=str(manifest), files=files) for s in plan.specs]
    (record,) = run_plan(replace(plan, specs=specs), ResultStore(tmp_path / "runs"))
    assert record.status == "error", record
    assert json.loads(record.reason.split(": ", 1)[1]) == {"found": []}


def test_a_row_of_unsandboxed_runs_is_marked_on_its_board(board_setup):  # noqa: F811
    from dataclasses import replace

    from frontierco.leaderboard.build import build
    from tests.helpers import record

    registry, folder = board_setup
    before = build(folder / "runs", registry)["tiny.md"].decode()
    assert "unsandboxed" not in before  # records from before the sandbox: the page as it was
    loose = replace(record("c", "t1", "feasible", 12.0, [(1.0, 12.0)]), provenance={"sandbox": UNSANDBOXED})
    ResultStore(folder / "runs").append(loose)
    page = build(folder / "runs", registry)["tiny.md"].decode()
    row = next(line for line in page.splitlines() if line.startswith("| c |"))
    assert "⚠ 1 unsandboxed" in row and "| a |" in page and "⚠" not in next(x for x in page.splitlines() if x.startswith("| a |"))
    assert "runs made without a sandbox" in page and "- solver sandbox: not recorded, unsandboxed" in page


@pytest.mark.parametrize("found", [None, "/bin/false"])
def test_a_bwrap_that_is_missing_or_cannot_make_a_sandbox_is_not_used(monkeypatch, found):
    from frontierco.harness import bubblewrap

    monkeypatch.setattr(bubblewrap, "binary", lambda: found)
    assert bubblewrap.bubblewrap_version.__wrapped__() == ""  # (uncached: the real one is cached per process)
