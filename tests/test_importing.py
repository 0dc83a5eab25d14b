"""``frontierco instances import``: a FrontierCO data tree, written here as small files in every form FrontierCO ships
(TSPLIB with and without a suffix, VRPLIB, DIMACS ``p edge``, PACE ``p ds`` as ``.gr`` and ``.txt``, ``.fjs``, Naderi's
``.txt`` and the ``.fjs`` layout under ``.txt``, SteinLib, FrontierCO's CFLP and CPMP text), becomes collections by
FrontierCO's names and values; bad input is one line and leaves nothing written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from frontierco.app.importing import ImportFailed, import_tree
from frontierco.filestore import FileStore
from frontierco.problems import problem_of
from frontierco.registry import Registry

TSPLIB = "NAME : {name}\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 3 0\n3 3 4\n4 0 4\nEOF\n"
VRPLIB = (
    "NAME : g\nTYPE : CVRP\nDIMENSION : 4\nCAPACITY : 10\nDISTANCE : 50\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
    "1 0 0\n2 1 1\n3 2 0\n4 0 3\nDEMAND_SECTION\n1 0\n2 4\n3 5\n4 6\nDEPOT_SECTION\n1\n-1\nEOF\n"
)
PACE = "p ds 4 3\n1 2\n2 3\n3 4\n"
FJS = "2 2 1.5\n2 1 1 75 2 1 15 2 82\n2 2 1 31 2 87 1 2 82\n"
NADERI = "2\n2\n2 1\n3 0\n0 4\n5 6\n"
STEINLIB = (
    '33D32945 STP File, STP Format Version 1.0\n\nSECTION Comment\nName "s"\nEND\n\nSECTION Graph\nNodes 3\nEdges 2\n'
    "E 1 2 5\nE 2 3 7\nEND\n\nSECTION Terminals\nTerminals 2\nT 1\nT 3\nEND\n\nEOF\n"
)
CFLP = "2 3\n168 1332\n171 1369\n35 10 23\n87 58 82\n86 54 129\n"
CPMP = "4 2\n0 0 20 5\n1 0 20 5\n5 5 20 5\n6 5 20 5\n"

TREE = {
    "TSP/easy_test_instances/tiny.tsp": TSPLIB.format(name="tiny"),
    "TSP/hard_test_instances/E4.0": TSPLIB.format(name="E4.0"),  # the DIMACS challenge's files: no suffix
    "TSP/hard_test_instances/E4.1": TSPLIB.format(name="E4.1"),
    "TSP/valid_instances/E1k.0": TSPLIB.format(name="E1k.0"),
    "TSP/config.py": (
        "open('RAN', 'w')  # never run: the values are read as data\n"
        "OPTIMAL_SCORES = {'easy_test_instances/tiny.tsp': [14.0], 'hard_test_instances/E4.0': [14.0],\n"
        "                  'hard_test_instances/E4.1': [1.0, 2.0], 'hard_test_instances/E10M.0': [9.0]}\n"
    ),
    "CVRP/easy_test_instances/Golden_1.vrp": VRPLIB,
    "CVRP/config.py": "def norm_score(results):\n    optimal_scores = {'easy_test_instances/Golden_1.vrp': [12.5]}\n    return results\n",
    "MIS/easy_test_instances/C4.mis": "p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n",
    "MDS/easy_test_instances/exact_001.gr": PACE,
    "MDS/valid_instances/ba_graph_0.txt": f"c a PACE graph under .txt\n{PACE}",
    "FJSP/easy_test_instances/Behnke1.fjs": FJS,
    "FJSP/hard_test_instances/73.txt": NADERI,
    "FJSP/hard_test_instances/74.txt": FJS,  # the .fjs layout under a .txt name
    "STP/hard_test_instances/bip42p.stp": STEINLIB,
    "CFLP/easy_test_instances/i1000_1.plc": CFLP,
    "CFLP/valid_instances/cflp_corn_n3_m2_1.txt": CFLP,
    "CPMP/easy_test_instances/SJC1.txt": CPMP,
}


def _tree(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root


def _written(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


@pytest.fixture
def places(tmp_path: Path) -> tuple[Registry, Path]:
    """An empty workspace registry with its own cache, and where its manifests go."""
    return Registry(tmp_path / "instances", FileStore(cache=tmp_path / "cache", offline=True)), tmp_path / "instances" / "fco"


def test_every_form_of_all_eight_problems_becomes_a_collection_the_registry_loads(tmp_path, places, monkeypatch):
    monkeypatch.chdir(tmp_path)
    registry, manifests = places
    tree = _tree(tmp_path / "data", TREE)
    sets = import_tree(tree, registry, manifests)
    assert not (tmp_path / "RAN").exists() and not (tree / "TSP" / "RAN").exists()  # config.py was read, not run
    names = {made.collection: [f.name for f in made.files] for made in sets}
    assert names == {
        "fco-cflp-easy": ["i1000_1"],
        "fco-cflp-valid": ["cflp_corn_n3_m2_1"],
        "fco-cpmp-easy": ["SJC1"],
        "fco-cvrp-easy": ["Golden_1"],
        "fco-fjsp-hard": ["73", "74"],
        "fco-fjsp-easy": ["Behnke1"],
        "fco-mds-easy": ["exact_001"],
        "fco-mds-valid": ["ba_graph_0"],
        "fco-mis-easy": ["C4"],
        "fco-stp-hard": ["bip42p"],
        "fco-tsp-easy": ["tiny"],
        "fco-tsp-hard": ["E4.0", "E4.1"],  # FrontierCO's names: E4.0 keeps its '.0'
        "fco-tsp-valid": ["E1k.0"],
    }
    fresh = Registry(manifests.parent, registry.store)  # read back from the written manifests and the cache
    for made in sets:
        collection = fresh.collection(made.collection)
        for entry in collection.entries:
            assert problem_of(fresh.load(entry)).name == collection.problem == made.problem
            assert entry.split == ("dev" if made.collection.endswith("-valid") else "test")
    tsp = fresh.collection("fco-tsp-hard")
    values = {e.name: (e.reference.value if e.reference else None) for e in tsp.entries}
    assert values == {"E4.0": 14.0, "E4.1": None}  # a list of several values (a file of several instances) gives none
    assert tsp.coverage == "FrontierCO TSP hard: 2 of 3"  # the set's size: its values name E10M.0 too
    golden = fresh.collection("fco-cvrp-easy").entries[0]
    assert golden.transform == "unrounded-no-route-limit" and golden.reference is not None and golden.reference.value == 12.5
    assert fresh.load(golden).max_distance is None  # read as FrontierCO's loader reads it: no route limit
    assert fresh.collection("fco-tsp-valid").published_set is None


@pytest.mark.parametrize(
    "files, message",
    [
        ({"MDS/valid_instances/g.txt": "p ds 4 x\n"}, "g.txt"),  # a malformed file: the reader's line names it
        ({"MIS/easy_test_instances/t.tsp": TSPLIB.format(name="t")}, "a tsp instance in FrontierCO's MIS folder"),
        ({"MIS/easy_test_instances/a b.mis": "p edge 2 1\ne 1 2\n"}, "is not a plain name"),
        ({"MIS/easy_test_instances/x.mis": "p edge 2 1\ne 1 2\n", "MIS/easy_test_instances/x.txt": "p edge 2 1\ne 1 2\n"}, "'x' again"),
        ({"MIS/config.py": "optimal_scores = {'easy_test_instances/x.mis': [len]}\n"}, "not a plain dictionary"),
        ({"MIS/config.py": "optimal_scores = {\n"}, "not readable as Python"),
        ({"README.md": "nothing here\n"}, "holds none of FrontierCO's problem folders"),
    ],
)
def test_bad_input_is_one_line_and_nothing_is_written(tmp_path, places, files, message):
    registry, manifests = places
    good = {"TSP/easy_test_instances/tiny.tsp": TSPLIB.format(name="tiny")}
    tree = _tree(tmp_path / "data", files if "README.md" in files else good | files)
    with pytest.raises(ImportFailed) as caught:
        import_tree(tree, registry, manifests)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert _written(tmp_path / "cache") == [] and _written(tmp_path / "instances") == []


def test_an_existing_collection_is_refused_before_anything_is_written(tmp_path, places):
    registry, manifests = places
    tree = _tree(tmp_path / "data", {"TSP/easy_test_instances/tiny.tsp": TSPLIB.format(name="tiny")})
    import_tree(tree, registry, manifests)
    before = _written(tmp_path / "instances")
    with pytest.raises(ImportFailed, match="exists already"):
        import_tree(tree, Registry(tmp_path / "instances", registry.store), manifests)
    assert _written(tmp_path / "instances") == before


def test_the_command_imports_into_the_workspace_and_says_why_it_cannot(tmp_path, monkeypatch):
    monkeypatch.setenv("FRONTIERCO_CACHE", str(tmp_path / "cache"))
    workspace = tmp_path / "ws"
    subprocess.run([sys.executable, "-m", "frontierco", "init", str(workspace)], check=True, capture_output=True)
    tree = _tree(tmp_path / "data", {"MDS/valid_instances/ba_graph_0.txt": PACE})
    env_args = [sys.executable, "-m", "frontierco", "--root", str(workspace), "instances"]
    done = subprocess.run([*env_args, "import", str(tree), "--prefix", "mine"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "mine-mds-valid: 1 instances, 0 with FrontierCO's value" in done.stdout
    shown = subprocess.run([*env_args, "show", "mine-mds-valid/ba_graph_0"], capture_output=True, text=True, timeout=120)
    assert "size: 4 vertices, 3 edges" in shown.stdout, shown.stderr
    failed = subprocess.run([*env_args, "import", str(tmp_path / "nosuch")], capture_output=True, text=True, timeout=120)
    assert failed.returncode != 0 and failed.stderr.strip().count("\n") == 0 and "is not a folder" in failed.stderr


@pytest.mark.parametrize("value", ["9" * 400, "float('nan')", "'12'", "True"], ids=["past-float64", "call", "text", "bool"])
def test_a_value_that_is_no_finite_number_imports_as_no_value(tmp_path, places, value):
    registry, manifests = places
    tree = _tree(tmp_path / "data", {"TSP/easy_test_instances/tiny.tsp": TSPLIB.format(name="tiny")})
    (tree / "TSP" / "config.py").write_text(f"OPTIMAL_SCORES = {{'easy_test_instances/tiny.tsp': [{value}]}}\n")
    if value.startswith("float"):  # not a literal: the whole table is refused, in one line
        with pytest.raises(ImportFailed, match="not a plain dictionary"):
            import_tree(tree, registry, manifests)
        return
    (made,) = import_tree(tree, registry, manifests)  # a 400-digit value was an OverflowError traceback
    assert made.files[0].value is None


def test_a_config_file_past_its_bound_is_refused_before_it_is_parsed(tmp_path, places):
    registry, manifests = places
    tree = _tree(tmp_path / "data", {"TSP/easy_test_instances/tiny.tsp": TSPLIB.format(name="tiny"), "TSP/config.py": "X = 1\n" * 200_000})
    with pytest.raises(ImportFailed, match="over the 1048576 a FrontierCO config.py may have"):  # 12 MB took ast.parse to 4 GB
        import_tree(tree, registry, manifests)
