import shutil
from pathlib import Path

import pytest
import tomli_w

from frontierco.errors import RegistryError
from frontierco.filestore import FileStore
from frontierco.manifests import read_manifest
from frontierco.problems.common.fingerprint import file_sha256
from frontierco.registry import INSTANCES_DIR, Registry
from tests.helpers import DATA, suite_registry

REQUIRED = {
    "tsplib",
    "tsplib-large",
    "cvrplib-x",
    "cvrplib-xxl",
    "bhoslib",
    "satlib-mis",
    "miplib-small",
    "tsp-uniform-100",
    "tsp-uniform-500",
    "tsp-uniform-1000",
    "cvrp-uniform-50",
    "cvrp-uniform-100",
    "cvrp-xlike-200",
    "mis-er-700",
    "mis-rb-small",
    "milp-setcover-easy",
    "milp-cauction-easy",
    "milp-facility-easy",
    "milp-indset-easy",
}


@pytest.fixture(scope="module")
def registry():
    return suite_registry()


def test_required_collections_exist(registry):
    assert REQUIRED <= set(registry.collections)


def test_generated_collections_have_disjoint_dev_and_test(registry):
    for collection in registry.collections.values():
        dev, test = collection.split("dev"), collection.split("test")
        if not dev:
            continue
        assert test, collection.name
        assert not {e.source.seed for e in dev} & {e.source.seed for e in test}, collection.name
        assert not {e.source.content_sha256 for e in dev} & {e.source.content_sha256 for e in test}, collection.name


def test_real_references_present_and_infeasible_marked(registry):
    for name in ("tsplib", "tsplib-large", "cvrplib-x", "cvrplib-xxl", "bhoslib", "satlib-mis", "miplib-small", "dimacs-mis"):
        assert all(e.reference is not None for e in registry.collection(name).entries), name
    infeasible = [e.name for e in registry.collection("miplib-small").entries if e.reference.status == "infeasible"]
    assert infeasible == ["p2m2p1m1p0n100"]


def test_missing_reference_is_said_plainly(tmp_path):
    manifest = {"name": "g", "problem": "tsp", "generator": "tsp-uniform", "params": {"n": 5}, "instance": [{"name": "g0", "seed": 1}]}
    (tmp_path / "g.toml").write_text(tomli_w.dumps(manifest))
    with pytest.raises(RegistryError, match="no reference value yet"):
        read_manifest(tmp_path / "g.toml").entries[0].require_reference()


@pytest.mark.parametrize("name", ["mis-rb-small", "milp-setcover-easy", "cvrp-xlike-200", "tsp-uniform-1000"])
def test_generated_collections_verify(registry, name):
    assert all(registry.verify(e) == "" for e in registry.collection(name).entries)


@pytest.mark.slow
def test_all_generated_collections_verify(registry):
    for collection in registry.collections.values():
        if collection.manifest.parent.name == "generated" and not collection.name.startswith("realcity-"):
            assert [registry.verify(e) for e in collection.entries] == [""] * len(collection.entries), collection.name


@pytest.mark.slow
def test_realcity_collections_verify(registry, mirror):
    """Real-city instances from the shipped city, and from cities built out of the mirror's extracts."""
    for collection in registry.collections.values():
        if collection.name.startswith("realcity-"):
            assert [registry.verify(e) for e in collection.entries] == [""] * len(collection.entries), collection.name


@pytest.mark.slow
def test_all_real_collections_verify_from_the_mirror(registry, mirror):
    for name in ("tsplib", "tsplib-large", "cvrplib-x", "cvrplib-xxl", "bhoslib", "satlib-mis", "miplib-small", "dimacs-mis"):
        entries = registry.collection(name).entries
        assert [registry.verify(e) for e in entries] == [""] * len(entries), name


def _one_file_manifest(tmp_path: Path, sha: str, url: str) -> Path:
    folder = tmp_path / "manifests"
    folder.mkdir()
    manifest = {
        "name": "tiny",
        "problem": "cvrp",
        "instance": [
            {
                "name": "tiny",
                "file": "tiny/tiny.vrp",
                "url": url,
                "sha256": sha,
                "reference": 100,
                "reference_source": "hand",
                "reference_status": "optimal",
            }
        ],
    }
    (folder / "tiny.toml").write_text(tomli_w.dumps(manifest))
    return folder


def test_download_checks_checksum_and_caches(tmp_path):
    source = DATA / "tiny.vrp"
    folder = _one_file_manifest(tmp_path, file_sha256(str(source)), source.resolve().as_uri())
    registry = Registry(folder, FileStore(cache=tmp_path / "cache", mirror=None, offline=False))
    entry = registry.entry("tiny/tiny")
    assert registry.load(entry).n == 4
    assert (tmp_path / "cache" / "tiny" / "tiny.vrp").is_file()
    offline = Registry(folder, FileStore(cache=tmp_path / "cache", mirror=None, offline=True))
    assert offline.load(entry).n == 4  # now served from the cache


def test_checksum_mismatch_is_an_error(tmp_path):
    mirror = tmp_path / "mirror" / "tiny"
    mirror.mkdir(parents=True)
    shutil.copy(DATA / "tiny.vrp", mirror / "tiny.vrp")
    folder = _one_file_manifest(tmp_path, "0" * 64, "file:///nonexistent")
    registry = Registry(folder, FileStore(cache=tmp_path / "cache", mirror=tmp_path / "mirror", offline=True))
    with pytest.raises(RegistryError, match="checksum mismatch"):
        registry.load(registry.entry("tiny/tiny"))


def test_offline_without_file_is_an_error(tmp_path):
    folder = _one_file_manifest(tmp_path, "0" * 64, "file:///nonexistent")
    registry = Registry(folder, FileStore(cache=tmp_path / "cache", mirror=None, offline=True))
    with pytest.raises(RegistryError, match="downloads are off"):
        registry.load(registry.entry("tiny/tiny"))


def test_generator_drift_is_caught(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    manifest = {
        "name": "g",
        "problem": "tsp",
        "generator": "tsp-uniform",
        "params": {"n": 5},
        "instance": [{"name": "g0", "split": "dev", "seed": 1, "content_sha256": "f" * 64}],
    }
    (folder / "g.toml").write_text(tomli_w.dumps(manifest))
    registry = Registry(folder)
    assert "no longer builds" in registry.verify(registry.entry("g/g0"))


def test_duplicate_collection_names_refused(tmp_path):
    folder = tmp_path / "m"
    (folder / "a").mkdir(parents=True)
    (folder / "b").mkdir()
    text = tomli_w.dumps({"name": "same", "problem": "tsp", "generator": "tsp-uniform", "params": {"n": 5}, "instance": []})
    (folder / "a" / "x.toml").write_text(text)
    (folder / "b" / "y.toml").write_text(text)
    with pytest.raises(RegistryError, match="defined twice"):
        _ = Registry(folder).collections


@pytest.mark.parametrize(
    "manifest, message",
    [
        ({"problem": "tsp"}, "missing key 'name'"),
        ({"name": "x", "problem": "knapsack"}, "unknown problem"),
        ({"name": "x", "problem": "tsp", "instance": [{"name": "a", "file": "f"}]}, "missing key 'url'"),
        ({"name": "x", "problem": "tsp", "instance": [{"name": "a", "seed": 1, "split": "nope"}]}, "split must be"),
    ],
)
def test_bad_manifests(tmp_path, manifest, message):
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps(manifest))
    with pytest.raises(RegistryError, match=message):
        read_manifest(path)


@pytest.mark.parametrize(
    "manifest, message",
    [
        ({"name": "x", "problem": "tsp", "refrence": 123}, r"bad.toml: unknown key refrence \(known: description, generator, instance, "),
        (
            {"name": "x", "problem": "tsp", "generator": "tsp-uniform", "instance": [{"name": "a", "seed": 1, "refrence": 123}]},
            r"bad.toml instance 0: unknown key refrence \(known: content_sha256, file, name, params, published_reference, reference, ",
        ),
        ({"name": "x", "problem": "tsp", "instance": [{"name": "a", "seed": 1, "sead": 2, "splt": "dev"}]}, "unknown keys sead, splt"),
        ({"name": "x", "problem": "tsp", "instance": {"name": "a"}}, "instance must be an array of tables"),
    ],
)
def test_a_manifest_with_a_key_it_does_not_know_is_refused_in_one_line(tmp_path, manifest, message):
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps(manifest))
    with pytest.raises(RegistryError, match=message) as caught:
        read_manifest(path)
    assert "\n" not in str(caught.value)


def test_a_misspelt_reference_no_longer_loads_without_its_reference(tmp_path):
    entry = {"name": "a", "seed": 1, "reference": 5.0, "reference_status": "optimal"}
    good = {"name": "x", "problem": "tsp", "generator": "tsp-uniform", "params": {"n": 5}, "instance": [entry]}
    path = tmp_path / "m.toml"
    path.write_text(tomli_w.dumps(good))
    assert read_manifest(path).entry("a").require_reference().value == 5.0
    path.write_text(tomli_w.dumps(good | {"instance": [{"name": "a", "seed": 1, "refrence": 5.0}]}))
    with pytest.raises(RegistryError, match="unknown key refrence"):
        read_manifest(path)


def test_manifests_live_in_instances_dir():
    assert sorted(p.parent.name for p in INSTANCES_DIR.rglob("*.toml"))


def test_a_collection_can_set_the_memory_its_runs_may_use(tmp_path) -> None:
    from frontierco.harness.plan import Selection, plan_collection
    from frontierco.solver import Budget, get_solver

    text = (INSTANCES_DIR / "generated" / "mis-rb-small.toml").read_text()
    (tmp_path / "small.toml").write_text(text.replace('name = "mis-rb-small"', 'name = "mis-rb-small"\nmemory_mb = 2048', 1))
    registry = Registry(tmp_path)
    assert registry.collection("mis-rb-small").memory_mb == 2048
    plan = plan_collection(registry, get_solver("greedy"), "mis", Selection("mis-rb-small", "dev"), Budget(5.0))
    assert {spec.memory_mb for spec in plan.specs} == {2048}
    for wrong in ('"lots"', "32", "1000000000000000", "true"):  # 10^15 MB was taken: RLIMIT_AS then bounds nothing
        (tmp_path / "small.toml").write_text(text.replace('name = "mis-rb-small"', f'name = "mis-rb-small"\nmemory_mb = {wrong}', 1))
        with pytest.raises(RegistryError, match=r"memory_mb must be an integer in 64\.\.1048576"):
            _ = Registry(tmp_path).collections


def _graph_manifest(tmp_path: Path, **extra: object) -> Path:
    """A one-instance MIS collection of a 4-vertex path (a DIMACS file in a mirror folder), with ``extra`` keys."""
    mirror = tmp_path / "mirror" / "g"
    mirror.mkdir(parents=True)
    (mirror / "p4.clq").write_text("4 3\ne 1 2\ne 2 3\ne 3 4\n")
    entry = {"name": "p4", "file": "g/p4.clq", "url": "file:///nonexistent", "sha256": file_sha256(str(mirror / "p4.clq"))}
    instance = entry | {k: v for k, v in extra.items() if k == "transform"}
    top = {"name": "g", "problem": "mis"} | {k: v for k, v in extra.items() if k != "transform"}
    folder = tmp_path / "manifests"
    folder.mkdir()
    (folder / "g.toml").write_text(tomli_w.dumps(top | {"instance": [instance]}))
    return folder


def test_a_manifest_may_complement_a_graph_it_reads(tmp_path):
    folder = _graph_manifest(tmp_path, transform="complement")
    registry = Registry(folder, FileStore(cache=tmp_path / "cache", mirror=tmp_path / "mirror", offline=True))
    entry = registry.entry("g/p4")
    assert entry.transform == "complement" and registry.verify(entry) == ""
    assert registry.load(entry).edges.tolist() == [[0, 2], [0, 3], [1, 3]]  # the path's non-adjacent pairs


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"transform": "reverse"}, "transform must be one of complement"),
        ({"published_set": {"name": "Some set"}}, "published_set must be a table of name and size"),
        ({"published_set": {"name": "Some set", "size": 0}}, "at least the 1 instances listed"),
        ({"published_set": {"name": "", "size": 3}}, "needs a name"),
    ],
)
def test_bad_transforms_and_published_sets_are_refused(tmp_path, extra, message):
    folder = _graph_manifest(tmp_path, **extra)
    with pytest.raises(RegistryError, match=message):
        read_manifest(folder / "g.toml")


def test_a_transform_is_for_file_instances_and_known_to_the_problem(tmp_path):
    manifest = {"name": "r", "problem": "tsp", "generator": "tsp-uniform", "params": {"n": 5}}
    (tmp_path / "r.toml").write_text(tomli_w.dumps(manifest | {"instance": [{"name": "r0", "seed": 1, "transform": "complement"}]}))
    with pytest.raises(RegistryError, match="none \\(this problem has no transforms\\)"):
        read_manifest(tmp_path / "r.toml")
    manifest = {"name": "m", "problem": "mis", "generator": "mis-er", "params": {"n": 5, "p": 0.5}}
    (tmp_path / "m.toml").write_text(tomli_w.dumps(manifest | {"instance": [{"name": "m0", "seed": 1, "transform": "complement"}]}))
    with pytest.raises(RegistryError, match="applies to a file instance, not a generated one"):
        read_manifest(tmp_path / "m.toml")


def test_a_collection_says_how_much_of_a_published_set_it_holds(tmp_path):
    folder = _graph_manifest(tmp_path, published_set={"name": "Some MIS set", "size": 7})
    collection = read_manifest(folder / "g.toml")
    assert collection.coverage == "Some MIS set: 1 of 7"
    assert read_manifest(INSTANCES_DIR / "real" / "bhoslib.toml").coverage == ""


@pytest.mark.parametrize("value", ["9" * 5000, "[" * 5000 + "]" * 5000], ids=["integer-past-4300-digits", "nested-past-the-stack"])
def test_a_manifest_toml_cannot_hold_is_one_registry_error(tmp_path, value):
    (tmp_path / "m.toml").write_text(f'name = "m"\nproblem = "mis"\nseed = {value}\n')
    with pytest.raises(RegistryError, match="not valid TOML"):  # a ValueError traceback from every command
        read_manifest(tmp_path / "m.toml")


GENERATED = (
    'name = "g"\nproblem = "mis"\nversion = 1\ngenerator = "mis-er"\n[params]\nn = 10\np = 0.3\n'
    '[[instance]]\nname = "g-0"\nsplit = "test"\nseed = 1\n'
)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("version = 1", 'version = "x"', "version must be a positive integer"),  # an int() traceback from every command
        ("seed = 1", "seed = -1", "seed must be a non-negative integer"),  # numpy's ValueError traceback at load
    ],
    ids=["version-text", "seed-negative"],
)
def test_a_manifest_value_that_cannot_be_is_one_registry_error(tmp_path, old, new, expected):
    (tmp_path / "g.toml").write_text(GENERATED.replace(old, new))
    with pytest.raises(RegistryError, match=expected):
        read_manifest(tmp_path / "g.toml")


def test_generator_parameters_past_the_machine_are_one_registry_error(tmp_path):
    (tmp_path / "instances").mkdir()
    sparse = GENERATED.replace('"mis-er"', '"mis-er-sparse"').replace("p = 0.3", "degree = 10000.0")
    (tmp_path / "instances" / "g.toml").write_text(sparse.replace("n = 10", "n = 100000000"))  # in range: 5 * 10^11 edges
    registry = Registry(tmp_path / "instances", FileStore(cache=tmp_path / "cache", offline=True))
    with pytest.raises(RegistryError, match="cannot generate it"):  # was numpy's MemoryError traceback (8 TB)
        registry.load(registry.entry("g/g-0"))
    (tmp_path / "instances" / "g.toml").write_text(GENERATED.replace("n = 10", "n = 1000000000000"))
    with pytest.raises(RegistryError, match=r"n = 1000000000000 is out of its range 1\.\.20000"):  # mis-er is dense
        registry.load(Registry(tmp_path / "instances").entry("g/g-0"))
