"""Parameter defaults filled once, at plan time (issue 39): a run's spec and record hold the full parameter set,
an explicit default and no parameter are one run, and the run ids of the committed records still resolve."""

from __future__ import annotations

import dataclasses

import pytest

from frontierco.app.validate import parameter_reads
from frontierco.harness.job import RunSpec
from frontierco.harness.plan import Selection, plan_collection
from frontierco.registry import Registry
from frontierco.results import RunRecord
from frontierco.solver import SOLVERS_DIR, Budget, Solver, get_solver

# a committed record planned with no parameters: leaderboards/runs/tsp-uniform-500/deepaco.jsonl, line 9 (version 2)
DEEPACO_RUN, DEEPACO_VERSION = "d7360d4bb0853269", "2"
TSP_500 = Selection("tsp-uniform-500", "test", names=["tsp-uniform-500-test-0"])


def _deepaco_specs(params):
    pytest.importorskip("torch")
    return plan_collection(Registry(), get_solver("deepaco"), "tsp", TSP_500, Budget(10.0), params=params).specs


def test_an_explicit_default_and_no_parameter_plan_one_run_with_the_full_set():
    deepaco = get_solver("deepaco")
    assert deepaco.defaults["ants"] == 0
    (bare,) = _deepaco_specs({})
    (explicit,) = _deepaco_specs({"ants": 0})
    assert bare.run_id == explicit.run_id
    assert dataclasses.replace(bare, solver_version=DEEPACO_VERSION).run_id == DEEPACO_RUN  # the committed record's id, re-planned
    declared = {param.name: param.default for param in deepaco.declared}
    assert bare.params == explicit.params == declared == deepaco.full_params({})
    assert set(declared) == {"ants", "decay", "local_search", "nls_rounds", "perturbation_moves", "iterations"}
    (other,) = _deepaco_specs({"ants": 48})
    assert other.run_id != bare.run_id and other.params == declared | {"ants": 48}


def test_a_float_default_given_as_an_integer_is_the_default():
    ctc = get_solver("ctc-scip")
    assert ctc.chosen(ctc.full_params({"slice": 1})) == {}
    assert ctc.chosen(ctc.full_params({"slice": 2, "zeros": 0.5})) == {"slice": 2, "zeros": 0.5}
    assert "zeros" not in ctc.full_params({}) and "checkpoints" not in ctc.full_params({})  # declared without a default


def test_the_id_of_a_committed_record_with_a_non_default_parameter_stays():
    """leaderboards/runs/milp-setcover-hard/ctc-scip.jsonl, its first record of heuristics=aggressive."""
    ctc = get_solver("ctc-scip")
    params = ctc.full_params({"heuristics": "aggressive"})
    key = "milp-setcover-hard/milp-setcover-hard-test-0"
    sha = "76c8a6f4228fad6ad161b5a33a44725b9307be06b6044a02c08fb01b3ede4ca4"
    spec = RunSpec(ctc, "6", params, "milp", "milp-setcover-hard", key, sha, Budget(60, 0, 1, "cpu"))
    assert spec.run_id == "d1f0829a6a66e8fb"


def test_the_row_name_names_only_what_differs_from_the_default():
    deepaco = get_solver("deepaco")
    required = [f.name for f in dataclasses.fields(RunRecord) if f.default is f.default_factory is dataclasses.MISSING]
    record = RunRecord(**dict.fromkeys(required) | {"solver": "deepaco", "params": {}})
    full = dataclasses.replace(record, params=deepaco.full_params({}), defaults=deepaco.defaults)
    assert full.row_name == "deepaco"
    assert dataclasses.replace(full, params=deepaco.full_params({"ants": 48})).row_name == "deepaco{ants=48}"
    assert dataclasses.replace(record, params={"ants": 0}).row_name == "deepaco{ants=0}"  # an old record, as given


def test_a_solver_built_directly_gets_the_declared_defaults():
    pytest.importorskip("torch")
    deepaco = get_solver("deepaco")
    assert deepaco.load()().params == deepaco.defaults
    assert deepaco.load()(ants=48).params == deepaco.defaults | {"ants": 48}
    ls = get_solver("rrnco-ls")  # a parameter limited to some solvers of the folder
    assert "candidates" in ls.defaults and "candidates" not in get_solver("rrnco").defaults

    class Elsewhere(Solver):  # a solver of another package declares its parameters on the class
        name = "elsewhere"
        problems = ("mis",)
        parameters = {"restarts": {"type": "int", "default": 10}, "file": {"type": "path"}}

    assert Elsewhere().params == {"restarts": 10}
    assert Elsewhere(restarts=3).params == {"restarts": 3}


def test_no_solver_writes_a_default_in_its_code():
    folders = [path for path in sorted(SOLVERS_DIR.iterdir()) if (path / "solver.py").is_file()]
    assert len(folders) > 20
    assert [where for folder in folders for where in parameter_reads(folder).defaulted] == []


def test_a_changed_default_comes_with_a_new_solver_version():
    """The run id counts the solver's version and its non-default parameters, not solver.toml: a default changed
    without a new version would make old runs of the solver pass for new ones. Records carry the defaults they
    were planned with; those of a committed record must be the declared ones while its version is the solver's."""
    import json

    from frontierco.solver import discover
    from frontierco.workspace import SUITE

    solvers = discover()
    versions: dict[str, str] = {}
    for path in sorted((SUITE / "leaderboards" / "runs").glob("*/*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            spec = solvers.get(record["solver"])
            if not record.get("defaults") or spec is None:
                continue
            if spec.name not in versions:
                versions[spec.name] = spec.load().version if spec.available else ""
            if record["solver_version"] == versions[spec.name]:
                changed = {k: v for k, v in record["defaults"].items() if spec.defaults.get(k) != v}
                assert not changed, f"{path}: {spec.name} {record['solver_version']} ran with defaults {changed}: raise its version"
