"""``frontierco validate``: the manifests, campaigns and solver folders checked, one line per problem."""

import subprocess
import sys

import pytest
import tomli_w

from frontierco import workspace
from frontierco.app.validate import validate
from tests.helpers import tuned_solver

GOOD_MANIFEST = {
    "name": "mine",
    "problem": "mis",
    "generator": "mis-er",
    "params": {"n": 5, "p": 0.5},
    "instance": [{"name": "a", "seed": 9}],
}
STEP = {"solver": "tuned", "problem": "mis", "collection": "mine", "time_limit": 5}


def _folders(tmp_path):
    folders = {kind: tmp_path / kind for kind in ("instances", "solvers", "campaigns")}
    for folder in folders.values():
        folder.mkdir()
    (folders["instances"] / "mine.toml").write_text(tomli_w.dumps(GOOD_MANIFEST))
    tuned_solver(folders["solvers"])
    (folders["solvers"] / "tuned" / "README.md").write_text("# tuned\n")
    return folders


def _campaign(folders, name, *steps):
    (folders["campaigns"] / f"{name}.toml").write_text(tomli_w.dumps({"name": name, "run": list(steps)}))


def _validate(folders):
    return validate(None, [folders["instances"]], [folders["solvers"]], [folders["campaigns"]])


def test_the_suite_s_own_manifests_campaigns_and_solvers_are_valid():
    findings = validate()
    assert findings.problems == []
    assert findings.counts["manifests"] > 50 and findings.counts["campaigns"] > 5 and findings.counts["solver folders"] > 20


def test_a_clean_workspace_has_no_problems(tmp_path):
    folders = _folders(tmp_path)
    _campaign(folders, "fine", STEP | {"params": {"level": 3}})
    findings = _validate(folders)
    assert findings.problems == []
    assert findings.summary() == "0 problems in 1 manifests, 1 campaigns, 1 solver folders"


def test_every_problem_is_one_line_naming_its_file(tmp_path):
    folders = _folders(tmp_path)
    (folders["instances"] / "typo.toml").write_text(tomli_w.dumps(GOOD_MANIFEST | {"name": "typo", "refrence": 1}))
    (folders["instances"] / "again.toml").write_text(tomli_w.dumps(GOOD_MANIFEST))
    _campaign(
        folders,
        "wrong",
        STEP | {"params": {"pmo": 50}},
        STEP | {"solver": "nobody"},
        STEP | {"collection": "nowhere", "seeds": 0},
        STEP | {"problem": "tsp"},
    )
    (folders["campaigns"] / "speed.toml").write_text(tomli_w.dumps({"run": [STEP | {"speed": 3}]}))
    found = _validate(folders).problems
    campaigns, instances = folders["campaigns"], folders["instances"]
    assert sorted(found) == sorted(
        [
            f"{instances / 'typo.toml'}: unknown key refrence (known: " + ", ".join(sorted(_manifest_keys())) + ")",
            f"{instances / 'mine.toml'}: collection 'mine' is defined in {instances / 'again.toml'} too",
            f"{campaigns / 'speed.toml'} run 0: unknown key speed (known: " + ", ".join(sorted(_step_keys())) + ")",
            f"{campaigns / 'wrong.toml'} run 0: solver tuned has no parameter pmo; it takes flavour, level"
            " (see 'frontierco solvers tuned')",
            f"{campaigns / 'wrong.toml'} run 1: unknown solver 'nobody'",
            f"{campaigns / 'wrong.toml'} run 2: seeds must be a whole number of at least 1, not 0",
            f"{campaigns / 'wrong.toml'} run 2: unknown collection 'nowhere'",
            f"{campaigns / 'wrong.toml'} run 3: collection mine holds mis instances, not tsp",
            f"{campaigns / 'wrong.toml'} run 3: solver tuned does not support tsp (it supports mis)",
        ]
    )
    assert all("\n" not in line for line in found)


def test_generated_instances_are_checked_against_their_generator_without_generating(tmp_path):
    folders = _folders(tmp_path)
    instances = folders["instances"]
    (instances / "typo.toml").write_text(tomli_w.dumps(GOOD_MANIFEST | {"name": "typo", "params": {"n": 5, "p": 0.5, "pp": 1}}))
    (instances / "nobody.toml").write_text(tomli_w.dumps(GOOD_MANIFEST | {"name": "nobody", "generator": "mis-nope"}))
    (instances / "other.toml").write_text(tomli_w.dumps(GOOD_MANIFEST | {"name": "other", "generator": "tsp-uniform"}))
    found = _validate(folders).problems
    assert len(found) == 3
    assert found[0].startswith(f"{instances / 'nobody.toml'}: unknown generator 'mis-nope'")
    assert found[1] == f"{instances / 'other.toml'}: generator tsp-uniform builds tsp instances, not mis"
    assert found[2].startswith(f"{instances / 'typo.toml'}: instance a: bad parameters for generator mis-er: ")
    assert "pp" in found[2]


def _manifest_keys():
    from frontierco.manifests import MANIFEST_KEYS

    return MANIFEST_KEYS


def _step_keys():
    from frontierco.app.campaigns import STEP_KEYS

    return STEP_KEYS


def test_solver_folders_are_checked_against_their_own_declarations(tmp_path):
    folders = _folders(tmp_path)
    solvers = folders["solvers"]
    more = solvers / "more"  # a second folder: no README, a path parameter it does not declare as a path, a stranger
    more.mkdir()
    code = (solvers / "tuned" / "solver.py").read_text().replace('"tuned"', '"bare"')
    code += "\n    def setup(self):\n        self.depth = self.params.get('depth', 3) + self.params['level'] + self.params['extra']\n"
    (more / "solver.py").write_text(code.replace("    version", '    path_params = ("flavour",)\n    version'))
    stranger = '\n[params.extra]\ntype = "int"\nsolvers = ["ghost"]\n'
    (more / "solver.toml").write_text((solvers / "tuned" / "solver.toml").read_text() + stranger)
    (solvers / "broken").mkdir()
    (solvers / "broken" / "solver.py").write_text("class Broken(:\n")
    (solvers / "typed").mkdir()
    (solvers / "typed" / "solver.py").write_text("")
    (solvers / "typed" / "solver.toml").write_text('[params.x]\ntype = "integer"\n')
    found = _validate(folders).problems
    assert f"{more}: no README.md (what the solver is, its citation and licence)" in found
    assert f"{more / 'solver.toml'}: params.extra names solvers not in this folder: ghost" in found
    assert f"{more}: the code reads parameters that solver.toml does not declare: depth" in found
    assert f"{more}: the code reads self.params[...] of parameters solver.toml gives no default: extra" in found
    defaulted = ": depth: a default in the code; declare it in solver.toml and read self.params[...]"
    assert any(line.startswith(f"{more / 'solver.py'}:") and line.endswith(defaulted) for line in found)
    assert f'{more / "solver.py"}:Tuned: path parameter flavour is not declared in solver.toml with type = "path"' in found
    assert any(line.startswith(f"{solvers / 'broken' / 'solver.py'}: cannot be read (") for line in found)
    assert any(line.startswith(f"{solvers / 'typed' / 'solver.toml'}: params.x needs a type") for line in found)
    assert f"{solvers / 'tuned'}: no README.md (what the solver is, its citation and licence)" not in found


def test_the_command_prints_one_line_per_problem_and_fails(tmp_path):
    made = workspace.init(tmp_path / "ws")
    command = [sys.executable, "-m", "frontierco", "--root", str(made.root), "validate"]
    clean = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert clean.returncode == 0 and clean.stdout == "" and clean.stderr.startswith("0 problems in ")
    (made.root / "instances" / "typo.toml").write_text(tomli_w.dumps(GOOD_MANIFEST | {"refrence": 1}))
    broken = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert broken.returncode == 1 and broken.stdout.splitlines() == [
        f"{made.root / 'instances' / 'typo.toml'}: unknown key refrence (known: " + ", ".join(sorted(_manifest_keys())) + ")"
    ]


RB_MANIFEST = {"name": "rb", "problem": "mis", "generator": "mis-rb", "instance": [{"name": "a", "seed": 1, "reference": 20}]}
SHA = "0" * 64
FILE_MANIFEST = {"name": "files", "problem": "mis", "instance": [{"name": "a", "file": "mis/a.mis", "url": "https://x", "sha256": SHA}]}


def test_values_the_schema_forbids_are_problems_of_their_manifest(tmp_path):
    folders = _folders(tmp_path)
    instances = folders["instances"]
    wrong = {
        "short-range": RB_MANIFEST | {"name": "short-range", "params": {"cliques": [20], "clique_size": 5}},  # run tracebacked
        "nan": GOOD_MANIFEST | {"name": "nan", "instance": [{"name": "a", "seed": 9, "reference": float("nan")}]},
        "sha": FILE_MANIFEST | {"name": "sha", "instance": [FILE_MANIFEST["instance"][0] | {"sha256": "abc"}]},
    }
    for name, manifest in wrong.items():
        (instances / f"{name}.toml").write_text(tomli_w.dumps(manifest))
    good = RB_MANIFEST | {"params": {"cliques": [20, 25], "clique_size": 5}}
    (instances / "rb.toml").write_text(tomli_w.dumps(good))
    (instances / "files.toml").write_text(tomli_w.dumps(FILE_MANIFEST))
    found = sorted(_validate(folders).problems)
    assert found == [
        f"{instances / 'nan.toml'} instance 0: reference must be a finite number, not nan",
        f"{instances / 'sha.toml'} instance 0: sha256 must be 64 hexadecimal digits, not 'abc'",
        f"{instances / 'short-range.toml'}: instance a: bad parameters for generator mis-rb: cliques = [20] is not a int | tuple[int, int]",
    ]


def test_a_generator_refuses_a_value_of_another_type_in_one_line():
    from frontierco.errors import RegistryError
    from frontierco.problems.generate import generate

    with pytest.raises(RegistryError, match=r"^bad parameters for generator 'mis-rb': cliques = \[20\] is not a int \| tuple\[int, int\]$"):
        generate("mis-rb", "a", 1, {"cliques": [20], "clique_size": 5})
    assert generate("mis-rb", "a", 1, {"cliques": [4, 6], "clique_size": 3}).instance.n in (12, 15, 18)


def test_a_solver_with_a_bad_name_is_reported_and_breaks_no_other_command(tmp_path):
    from frontierco.solver import discover

    folders = _folders(tmp_path)
    bad = folders["solvers"] / "bad"
    bad.mkdir()
    (bad / "solver.py").write_text((folders["solvers"] / "tuned" / "solver.py").read_text().replace('"tuned"', '"../Bad Name"'))
    (bad / "README.md").write_text("# bad\n")
    found = _validate(folders).problems
    assert len(found) == 1 and found[0].startswith(f"{bad / 'solver.py'}:Tuned: solver name '../Bad Name' is not a plain name")
    assert "tuned" in discover([folders["solvers"]])  # was: every command of the workspace failed on the bad name


def test_two_solvers_of_one_name_are_reported_and_break_no_other_command(tmp_path):
    """A workspace solver named like a suite one made every command of the workspace fail (issue 44's hostile run)."""
    from frontierco.errors import FrontiercoError
    from frontierco.solver import discover, get_solver

    folders = _folders(tmp_path)
    twin = folders["solvers"] / "twin"
    twin.mkdir()
    (twin / "solver.py").write_text((folders["solvers"] / "tuned" / "solver.py").read_text().replace('"tuned"', '"greedy"'))
    (twin / "README.md").write_text("# twin\n")
    layers = [workspace.SUITE / "solvers", folders["solvers"]]
    found = validate(None, [folders["instances"]], layers, [folders["campaigns"]]).problems
    assert any("solver 'greedy' is defined in" in problem for problem in found)
    solvers = discover(layers)
    assert "greedy" not in solvers and "tuned" in solvers and "nn-2opt" in solvers  # the others still load
    expected = r"^two solvers are named 'greedy': .*greedy/solver.py:Greedy and .*twin/solver.py:.*; rename one$"
    with pytest.raises(FrontiercoError, match=expected):
        get_solver("greedy", layers)


def test_a_manifest_that_contradicts_its_generator_is_one_line_per_problem(tmp_path):
    """Each read without a word before: a second unknown parameter (only the first was named), the suite's file store
    or an instance's own key as a parameter, an instance changing the collection's parameters, parameters on a file
    instance or in a manifest with no generator."""
    folders = _folders(tmp_path)
    instances = folders["instances"]
    city = {"problem": "tsp", "generator": "realcity-atsp", "params": {"city": "monaco", "n": 5}}
    cases = {
        "typos": GOOD_MANIFEST | {"params": {"n": 5, "p": 0.5, "pp": 1, "nn": 2}},
        "own": GOOD_MANIFEST | {"params": {"n": 5, "p": 0.5, "seed": 3}},
        "store": GOOD_MANIFEST | city | {"params": {"city": "monaco", "n": 5, "files": "/tmp"}},
        "short": GOOD_MANIFEST | {"params": {"n": 5}},
        "changed": GOOD_MANIFEST | {"instance": [{"name": "a", "seed": 9, "params": {"n": 6}}]},
        "same": GOOD_MANIFEST | {"instance": [{"name": "a", "seed": 9, "params": {"n": 5}}, {"name": "b", "seed": 1, "params": {}}]},
        "city": GOOD_MANIFEST | city | {"params": {"n": 5}, "instance": [{"name": "a", "seed": 9, "params": {"city": "monaco"}}]},
        "seeded-file": FILE_MANIFEST | {"instance": [FILE_MANIFEST["instance"][0] | {"seed": 3, "params": {"n": 5}}]},
        "no-generator": FILE_MANIFEST | {"params": {"n": 5}},
    }
    for name, manifest in cases.items():
        (instances / f"{name}.toml").write_text(tomli_w.dumps(manifest | {"name": name}))
    found = sorted(_validate(folders).problems)
    bad = "instance a: bad parameters for generator"
    assert found == [
        f"{instances / 'changed.toml'} instance 0: params n = 6 contradicts the collection's n = 5"
        " (an instance may add parameters, not change them)",
        f"{instances / 'no-generator.toml'}: params are a generator's, but the manifest names no generator",
        f"{instances / 'own.toml'}: {bad} mis-er: seed is the instance's own key, not a parameter",
        f"{instances / 'seeded-file.toml'} instance 0: a file instance takes no params, seed (they describe a generated one)",
        f"{instances / 'short.toml'}: {bad} mis-er: p is required (mis-er has no default for it)",
        f"{instances / 'store.toml'}: {bad} realcity-atsp: files is not a parameter (the suite passes its file store)",
        f"{instances / 'typos.toml'}: {bad} mis-er: nn is not a parameter of mis-er (it takes n, p)",
        f"{instances / 'typos.toml'}: {bad} mis-er: pp is not a parameter of mis-er (it takes n, p)",
    ]
