"""Names and paths cannot reach outside their place: manifests, downloads, instance files, solver and
parameter names, the record store and the solution files records name."""

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import tomli_w

from frontierco.app.catalog import generate_collection
from frontierco.app.verify import verify_record
from frontierco.errors import RegistryError, UsageError
from frontierco.filestore import FileStore
from frontierco.harness.plan import parse_params
from frontierco.manifests import read_manifest
from frontierco.names import BadName, check_name, check_relative, inside
from frontierco.problems.common.fingerprint import file_sha256
from frontierco.registry import Registry
from frontierco.results import ResultStore
from frontierco.solver import discover
from tests.helpers import DATA, record

HOSTILE = ["..", "../x", "../../../../x", "/etc/passwd", "a/b", "evil.jsonl/y", "", ".hidden", "a\\b", "x..y", "<script>"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_refused(name):
    with pytest.raises(BadName):
        check_name(name, "collection")


@pytest.mark.parametrize("name", ["milp-cauction-easy", "X-n101-k25", "ctc-scip", "frb30-15-1", "E10k.0", "a280", "tsp_1+2"])
def test_the_suites_names_pass(name):
    assert check_name(name, "collection") == name


@pytest.mark.parametrize("path", ["../x.tsp", "/etc/passwd", "tsplib/../../x", "tsplib//a", "./a.tsp", ""])
def test_a_manifest_path_outside_its_root_is_refused(path):
    with pytest.raises(BadName):
        check_relative(path, "file")


def test_the_mirrors_paths_pass():
    assert check_relative("checkpoints/dimes/tsp100~net100.pt", "file") == "checkpoints/dimes/tsp100~net100.pt"


def test_a_symbolic_link_does_not_lead_outside(tmp_path):
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "link").symlink_to(tmp_path)
    with pytest.raises(BadName, match="leads outside"):
        inside(tmp_path / "root", "link/secret", "file")


def _manifest(
    tmp_path: Path, name: str = "tiny", instance: str = "tiny", file: str = "tiny/tiny.vrp", sha: str = "0" * 64, url: str = ""
) -> Path:
    folder = tmp_path / "manifests"
    folder.mkdir(exist_ok=True)
    entry = {"name": instance, "file": file, "url": url or "file:///nonexistent", "sha256": sha}
    (folder / "m.toml").write_text(tomli_w.dumps({"name": name, "problem": "cvrp", "instance": [entry]}))
    return folder


@pytest.mark.parametrize(
    "fields",
    [{"name": "../../../../x"}, {"name": "/tmp/x"}, {"instance": "../x"}, {"file": "../../outside.vrp"}, {"file": "/etc/passwd"}],
)
def test_a_manifest_that_reaches_outside_is_a_registry_error(tmp_path, fields):
    with pytest.raises(RegistryError, match="m.toml"):
        read_manifest(_manifest(tmp_path, **fields) / "m.toml")


def test_a_download_with_the_wrong_checksum_leaves_nothing_behind(tmp_path):
    source = DATA / "tiny.vrp"
    folder = _manifest(tmp_path, url=source.resolve().as_uri(), sha="0" * 64)
    registry = Registry(folder, FileStore(cache=tmp_path / "cache", mirror=None, offline=False))
    with pytest.raises(RegistryError, match="checksum mismatch.*not kept"):
        registry.load(registry.entry("tiny/tiny"))
    assert [p for p in (tmp_path / "cache").rglob("*") if p.is_file()] == []


def test_a_good_download_is_kept(tmp_path):
    source = DATA / "tiny.vrp"
    folder = _manifest(tmp_path, url=source.resolve().as_uri(), sha=file_sha256(str(source)))
    registry = Registry(folder, FileStore(cache=tmp_path / "cache", mirror=None, offline=False))
    assert registry.load(registry.entry("tiny/tiny")).n == 4
    assert [p.name for p in (tmp_path / "cache").rglob("*") if p.is_file()] == ["tiny.vrp"]


def test_instances_generate_writes_only_inside_its_folder(tmp_path):
    (tmp_path / "m").mkdir()
    manifest = {"name": "g", "problem": "tsp", "generator": "tsp-uniform", "params": {"n": 5}, "instance": [{"name": "g0", "seed": 1}]}
    (tmp_path / "m" / "g.toml").write_text(tomli_w.dumps(manifest))
    registry = Registry(tmp_path / "m")
    collection = registry.collection("g")
    evil = replace(collection.entries[0], name="../escape")  # past the manifest's own check
    registry.collections["g"] = replace(collection, entries=(evil,))
    with pytest.raises(BadName):
        generate_collection(registry, "g", tmp_path / "out")
    assert not (tmp_path / "escape.tsp").exists()


def test_a_solver_named_like_a_path_is_left_out_with_a_warning(tmp_path, caplog):
    folder = tmp_path / "solvers" / "evil"
    folder.mkdir(parents=True)
    shutil.copy(Path(__file__).parent / "solvers" / "hostile" / "solver.py", folder / "solver.py")
    text = (folder / "solver.py").read_text().replace('name = "hostile"', 'name = "evil.jsonl/y"')
    (folder / "solver.py").write_text(text)
    assert "evil.jsonl/y" not in discover(tmp_path / "solvers")  # and the other solvers are found (frontierco validate says why)
    assert "evil.jsonl/y" in caplog.text and "left out" in caplog.text


def test_a_parameter_named_like_a_path_is_refused():
    with pytest.raises(UsageError):
        parse_params(["../x=1"])


@pytest.mark.parametrize("collection, solver", [("../../x", "s"), ("/tmp", "s"), ("c", "evil.jsonl/y"), ("c", "../s")])
def test_the_store_writes_only_inside_its_root(tmp_path, collection, solver):
    store = ResultStore(tmp_path / "runs")
    with pytest.raises(BadName):
        store.append(replace(record("s", "t1", "feasible", 1.0, [(0.1, 1.0)]), collection=collection, solver=solver))
    with pytest.raises(BadName):
        store.save_solution(collection, solver, {})  # (the solver's place: the run id)
    assert list(tmp_path.rglob("*.jsonl")) == []


@pytest.mark.parametrize("path", ["/etc/passwd", "../../../../etc/passwd", "c/../../x.json.gz"])
def test_verify_refuses_a_solution_path_outside_the_store(tmp_path, path):
    forged = replace(record("s", "t1", "feasible", 1.0, [(0.1, 1.0)]), solution_file=path)
    with pytest.raises(BadName):
        verify_record(ResultStore(tmp_path / "runs"), forged, Registry())
