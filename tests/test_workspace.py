"""The workspace: found once, where the context is built (--root, FRONTIERCO_ROOT, the nearest marked folder),
required by commands that write, layered over the suite's own content; two contexts in one process apart;
nothing else reads FRONTIERCO_ROOT (tests/test_settings.py); and an installed wheel that works from any folder."""

import os
from pathlib import Path

import pytest

from frontierco import workspace
from frontierco.errors import UsageError
from frontierco.harness.plan import Selection
from frontierco.harness.request import RunRequest, run
from frontierco.registry import Registry
from frontierco.results import ResultStore
from frontierco.solver import Budget, discover
from frontierco.workspace import Context

REPOSITORY = Path(__file__).resolve().parents[1]


def test_the_workspace_is_the_nearest_marked_folder_or_the_one_named(tmp_path, monkeypatch):
    monkeypatch.delenv(workspace.ROOT_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)
    assert Context.discover().workspace is None
    with pytest.raises(UsageError, match="no frontierco workspace here"):
        Context.discover().required()
    made = workspace.init(tmp_path / "ws")
    (made.root / "deep" / "er").mkdir(parents=True)
    monkeypatch.chdir(made.root / "deep" / "er")
    found = Context.discover().required()
    assert found == made and found.runs == made.root / "leaderboards" / "runs"
    assert Context.discover(tmp_path / "ws").required() == made == Context(root=tmp_path / "ws").required()
    monkeypatch.setenv(workspace.ROOT_VARIABLE, str(tmp_path))
    with pytest.raises(UsageError, match="is not a frontierco workspace"):
        _ = Context.discover().workspace


def test_a_workspace_adds_its_own_manifests_and_solvers_to_the_suite_s(tmp_path, monkeypatch):
    made = workspace.init(tmp_path / "ws")
    context = Context(root=made.root)
    manifest = (workspace.SUITE / "instances" / "generated" / "mis-rb-small.toml").read_text()
    (made.root / "instances" / "mine.toml").write_text(manifest.replace('name = "mis-rb-small"', 'name = "my-rb"', 1))
    collections = Registry.of(context).collections
    assert {"my-rb", "mis-rb-small", "tsplib"} <= set(collections)
    assert "my-rb" not in Registry().collections  # without a context: the suite's alone
    from frontierco.app.scaffold import new_solver

    new_solver("my-greedy", ["mis"], made.root / "solvers")
    solvers = discover(context.layers("solvers"))
    assert (made.root / "solvers" / "my-greedy" / "solver.py").is_file() and "my-greedy" in solvers and "greedy" in solvers
    (made.root / "instances" / "twice.toml").write_text(manifest)  # mis-rb-small a second time
    with pytest.raises(Exception, match="defined twice"):
        _ = Registry.of(context).collections


def _workspace_with(tmp_path: Path, name: str, collection: str) -> Context:
    """A workspace ``name`` whose own collection ``collection`` is the suite's mis-rb-small under another name."""
    made = workspace.init(tmp_path / name)
    manifest = (workspace.SUITE / "instances" / "generated" / "mis-rb-small.toml").read_text()
    (made.root / "instances" / f"{collection}.toml").write_text(manifest.replace('name = "mis-rb-small"', f'name = "{collection}"', 1))
    return Context(root=made.root)


def test_two_contexts_in_one_process_do_not_meet(tmp_path, monkeypatch):
    """Each context sees its own workspace's collections and closes its own folders to the solver, whatever the
    environment says; neither writes the environment."""
    monkeypatch.setenv(workspace.ROOT_VARIABLE, str(tmp_path / "elsewhere"))
    first, second = _workspace_with(tmp_path, "one", "rb-one"), _workspace_with(tmp_path, "two", "rb-two")
    assert "rb-one" in Registry.of(first).collections and "rb-one" not in Registry.of(second).collections
    assert "rb-two" in Registry.of(second).collections and "rb-two" not in Registry.of(first).collections
    for context, collection in ((first, "rb-one"), (second, "rb-two")):
        request = RunRequest("greedy", Selection(collection, "dev", limit=1), Budget(5.0), "mis")
        (record,) = run(context, request, ResultStore(tmp_path / f"runs-{collection}")).records
        assert record.collection == collection and record.status in ("feasible", "optimal")
    assert str(first.root) in first.closed() and str(second.root) not in first.closed()
    assert os.environ[workspace.ROOT_VARIABLE] == str(tmp_path / "elsewhere")


@pytest.mark.parametrize("where", ["a file", "below a file"])
def test_a_workspace_where_none_can_be_is_one_usage_error(tmp_path, where):
    (tmp_path / "f.txt").write_text("x")
    target = tmp_path / "f.txt" if where == "a file" else tmp_path / "f.txt" / "ws"
    with pytest.raises(UsageError, match="cannot make a workspace in"):  # was a FileExistsError traceback
        workspace.init(target)
    assert (tmp_path / "f.txt").read_text() == "x"
