import shutil
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from frontierco.cli import app
from frontierco.harness.plan import MAX_TIME_LIMIT
from frontierco.results import ResultStore
from tests.helpers import DATA, suite_registry, tuned_solver

runner = CliRunner()


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "frontierco", *args], capture_output=True, text=True, timeout=120)


def test_instances_list():
    result = runner.invoke(app, ["instances", "list"])
    assert result.exit_code == 0
    assert "cvrplib-x" in result.output and "mis-rb-small" in result.output


def test_instances_show_collection_and_instance():
    result = runner.invoke(app, ["instances", "show", "mis-rb-small"])
    assert result.exit_code == 0 and "planted optimum" in result.output
    result = runner.invoke(app, ["instances", "show", "mis-rb-small/mis-rb-small-dev-0"])
    assert result.exit_code == 0 and "vertices" in result.output


def test_instances_show_says_what_of_a_published_set_a_collection_holds_and_how_an_instance_is_read(mirror):
    result = runner.invoke(app, ["instances", "show", "frontierco-mis-easy"])
    assert result.exit_code == 0 and "holds FrontierCO MIS easy: 27 of 37" in result.output
    result = runner.invoke(app, ["instances", "show", "frontierco-mis-easy/C125.9"])
    assert result.exit_code == 0 and "read as its complement" in result.output and "125 vertices, 787 edges" in result.output


def test_generate_and_evaluate(tmp_path):
    """Each written file is the registry's instance: a solution costs the same on both, by the CLI's checker too."""
    from frontierco.problems import CVRPSolution, evaluate
    from frontierco.problems.files import read_instance, write_solution

    result = runner.invoke(app, ["instances", "generate", "cvrp-uniform-50", "--out", str(tmp_path), "--split", "dev"])
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("*.vrp"))
    assert len(files) == 4
    registry = suite_registry()
    for path in files:
        generated = registry.load(registry.entry(f"cvrp-uniform-50/{path.stem}"))
        solution = CVRPSolution(tuple(np.array([i]) for i in range(1, generated.n)))  # one vehicle per customer
        expected = evaluate(generated, solution).objective
        assert expected is not None and evaluate(read_instance(path), solution).objective == expected
        write_solution(tmp_path / f"{path.stem}.sol", generated, solution, expected)
        checked = runner.invoke(app, ["evaluate", str(path), str(tmp_path / f"{path.stem}.sol")])
        assert checked.exit_code == 0 and f"objective {expected:.12g}\n" in checked.output


def test_verify_generated_collection():
    result = runner.invoke(app, ["instances", "verify", "milp-indset-easy", "--split", "dev"])
    assert result.exit_code == 0 and "verified" in result.output


def test_evaluate_command():
    assert "objective 100" in _run("evaluate", str(DATA / "tiny.vrp"), str(DATA / "tiny.sol")).stdout


def test_unknown_collection_is_one_line_exit_2():
    result = _run("instances", "show", "no-such-collection")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "unknown collection" in result.stderr


def test_malformed_file_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.tsp"
    bad.write_text("NAME : x\nTYPE : TSP\nDIMENSION : 2\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 a b\n")
    result = _run("evaluate", str(bad), str(DATA / "tiny.sol"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: {bad}:7: numbers in NODE_COORD_SECTION, got '2 a b'"
    assert "Traceback" not in result.stderr


def test_run_on_a_file_writes_solution_and_verifies(tmp_path):
    graph = tmp_path / "g.mis"
    graph.write_text("p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n")
    out = tmp_path / "best.txt"
    result = _run(
        "run",
        "--solver",
        "greedy",
        "--instance",
        str(graph),
        "--time-limit",
        "5",
        "--results",
        str(tmp_path / "runs"),
        "--write-solution",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    assert "feasible" in result.stdout and "no reference" in result.stdout
    assert (
        sorted(out.read_text().split()) == ["1", "3"]
        or sorted(out.read_text().split()) == ["1", "4"]
        or sorted(out.read_text().split()) == ["2", "4"]
    )

    record = next(ResultStore(tmp_path / "runs").records())
    verified = _run("verify", record.run_id[:8], "--results", str(tmp_path / "runs"))
    assert verified.returncode == 0 and "agrees with the record" in verified.stdout


def test_run_default_collection(tmp_path):
    result = _run("run", "--solver", "greedy", "--problem", "mis", "--limit", "2", "--time-limit", "5", "--results", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "mean gap" in result.stdout and "runs 2" in result.stdout


def test_run_passes_parameters_to_the_solver_as_a_row_of_their_own(tmp_path):
    root = tmp_path / "ws"
    assert _run("init", str(root)).returncode == 0
    tuned_solver(root / "solvers")
    args = ["--root", str(root), "run", "--solver", "tuned", "--problem", "mis", "--limit", "1", "--time-limit", "5"]
    assert _run(*args, "--param", "flavour=plain", "--param", "level=2").returncode == 0
    (record,) = ResultStore(root / "leaderboards" / "runs").records()
    assert record.params == {"flavour": "plain", "level": 2}
    assert record.row_name == "tuned{level=2}"  # flavour=plain is its default: not a row of its own


@pytest.mark.parametrize(
    ("param", "message"),
    [
        ("pmo=50", "error: solver tuned has no parameter pmo; it takes flavour, level (see 'frontierco solvers tuned')"),
        ("level=high", "error: solver tuned: level must be int, not 'high'"),
        ("flavour=bland", "error: solver tuned: flavour must be one of plain, spicy, not 'bland'"),
    ],
)
def test_run_refuses_an_undeclared_parameter_or_a_wrong_value_in_one_line(tmp_path, param, message):
    root = tmp_path / "ws"
    assert _run("init", str(root)).returncode == 0
    tuned_solver(root / "solvers")
    result = _run("--root", str(root), "run", "--solver", "tuned", "--problem", "mis", "--limit", "1", "--param", param)
    assert result.returncode == 2 and result.stderr.strip() == message
    assert not list((root / "leaderboards" / "runs").rglob("*.jsonl"))


def test_solvers_name_shows_the_declared_parameters(tmp_path):
    root = tmp_path / "ws"
    assert _run("init", str(root)).returncode == 0
    tuned_solver(root / "solvers")
    shown = _run("--root", str(root), "solvers", "tuned")
    assert shown.returncode == 0, shown.stderr
    assert "flavour (str, default 'plain', one of plain, spicy)" in shown.stdout and "level (int, default 1): how much" in shown.stdout
    assert "parameters: none" in _run("solvers", "greedy").stdout


def test_verify_catches_a_tampered_record(tmp_path):
    runs = tmp_path / "runs"
    assert (
        _run("run", "--solver", "greedy", "--problem", "mis", "--limit", "1", "--time-limit", "5", "--results", str(runs)).returncode == 0
    )
    path = next(runs.rglob("greedy.jsonl"))
    import json

    data = json.loads(path.read_text())
    data["objective"] += 1
    path.write_text(json.dumps(data) + "\n")
    result = _run("verify", data["run_id"], "--results", str(runs))
    assert result.returncode == 1 and "DIFFERS" in result.stdout


def test_run_usage_errors_are_one_line_exit_2(tmp_path):
    for args, message in [
        (["--solver", "nope", "--problem", "mis"], "unknown solver"),
        (["--solver", "greedy", "--problem", "tsp"], "does not support tsp"),
        (["--solver", "greedy", "--problem", "knapsack"], "unknown problem"),
        (["--solver", "greedy", "--problem", "mis", "--executor", "slurm"], "unknown executor"),
    ]:
        result = _run("run", *args, "--results", str(tmp_path))
        assert result.returncode == 2, (args, result.stderr)
        assert result.stderr.strip().count("\n") == 0 and message in result.stderr


NONSENSE = [
    (["--time-limit", "0"], "--time-limit: time limit must be a positive number of seconds up to"),
    (["--time-limit", "-1"], "--time-limit: time limit must be a positive number of seconds up to"),
    (["--time-limit", "nan"], "--time-limit: time limit must be a positive number of seconds up to"),
    (["--time-limit", "inf"], "--time-limit: time limit must be a positive number of seconds up to"),
    (["--limit", "0"], "--limit: the instance limit must be at least 1"),
    (["--limit", "-1"], "--limit: the instance limit must be at least 1"),
    (["--max-size", "0"], "--max-size: the instance size limit must be at least 1"),  # was "no instances in split 'test'"
    (["--seeds", "0"], "--seeds: seeds must be in 1..10000"),
    (["--seeds", "1000000000"], "--seeds: seeds must be in 1..10000"),  # planned a spec per seed: memory for minutes
    (["--threads", "0"], "--threads: threads must be in 1..4096"),
    (["--threads", "1000000"], "--threads: threads must be in 1..4096"),
    (["--param", "level=" + "9" * 5000], "has no parameter level"),  # an integer past 4,300 digits: a ValueError traceback
    (["--jobs", "0"], "--jobs: the number of runs at once must be at least 1"),
    (["--split", "foo"], "unknown split"),
    (["--collection", "no-such-collection"], "unknown collection"),
    (["--write-solution", "out.sol"], "--write-solution needs --instance"),
    (["--instance", str(DATA / "tiny.vrp"), "--collection", "mis-rb-small"], "--instance runs one file"),
    (["--instance", str(DATA / "tiny.vrp"), "--write-solution", "/no/such/folder/x.sol"], "does not exist"),
    (["--param", "level"], "--param needs KEY=VALUE"),
    (["--param", "=2"], "--param needs KEY=VALUE"),
    (["--param", "level=2", "--param", "level=3"], "--param level is given twice"),
    (["--time-limit", "1e308"], "--time-limit: time limit must be a positive number of seconds up to 2.592e+06"),  # Ctrl-C never returned
    (["--only", ""], "--only needs instance names"),
    (["--only", "a,,b"], "--only needs instance names"),
    (["--instance", str(DATA / "tiny.vrp"), "--write-solution", str(DATA)], "is a folder"),
]


@pytest.mark.parametrize(("args", "message"), NONSENSE, ids=[" ".join(a)[:60] for a, _ in NONSENSE])
def test_options_that_make_no_sense_are_one_line_exit_2_and_record_nothing(tmp_path, args: list[str], message: str) -> None:
    solver = ["--solver", "savings"] if "--instance" in args else ["--solver", "greedy", "--problem", "mis"]
    result = _run("run", *solver, *args, "--results", str(tmp_path / "runs"))
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().count("\n") == 0 and message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").rglob("*.jsonl"))


def test_verify_names_an_empty_prefix_ambiguous(tmp_path):
    result = _run("verify", "", "--results", str(tmp_path))
    assert result.returncode == 2 and "empty run id prefix is ambiguous" in result.stderr


@pytest.mark.parametrize("strict", [False, True])
def test_run_counts_runs_that_crashed_and_fails_only_with_strict(tmp_path, monkeypatch, strict: bool) -> None:
    from frontierco.harness import request as request_module
    from frontierco.harness.execute import to_record
    from frontierco.harness.runner import Outcome

    def crashing(plan, store, executor, force, progress):  # every planned run ends in a crash
        records = [to_record(spec, Outcome(status="crash", reason="killed"), None, 1) for spec in plan.specs]
        for record in records:
            store.append(record)
        return records

    monkeypatch.setattr(request_module, "run_plan", crashing)  # the one run path, which the command imports when it runs
    args = ["run", "--solver", "greedy", "--problem", "mis", "--limit", "2", "--results", str(tmp_path)]
    result = runner.invoke(app, args + (["--strict"] if strict else []))
    assert "2 of 2 runs ended in error, crash or memory" in result.output
    assert result.exit_code == (1 if strict else 0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    time_limit=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5)),
    limit=st.integers(-3, 3),
    seeds=st.integers(-3, 3),
    threads=st.integers(-3, 3),
)
def test_random_option_values_are_refused_in_one_line_or_run(monkeypatch, tmp_path, time_limit, limit, seeds, threads) -> None:
    from frontierco.errors import FrontiercoError
    from frontierco.harness import request as request_module

    planned = []
    monkeypatch.setattr(request_module, "run_plan", lambda plan, *args, **kwargs: planned.extend(plan.specs) or [])
    args = ["run", "--solver", "greedy", "--problem", "mis", "--time-limit", str(time_limit), "--limit", str(limit)]
    result = runner.invoke(app, args + ["--seeds", str(seeds), "--threads", str(threads), "--results", str(tmp_path)])
    valid = limit >= 1 and seeds >= 1 and threads >= 1
    try:
        valid = valid and 0 < float(time_limit) <= MAX_TIME_LIMIT
    except ValueError:
        valid = False
    if valid:
        assert result.exception is None and planned and all(s.budget.time_limit == float(time_limit) for s in planned)
    else:
        assert not planned and (isinstance(result.exception, FrontiercoError) or result.exit_code == 2), result.output
    assert not list(tmp_path.rglob("*.jsonl"))


def test_verify_says_a_solution_kept_outside_the_store_and_missing_here_was_not_rechecked(tmp_path):
    import os

    runs, cache = tmp_path / "runs", tmp_path / "cache"
    env = {**os.environ, "FRONTIERCO_SOLUTION_LIMIT": "10", "FRONTIERCO_CACHE": str(cache)}
    args = [sys.executable, "-m", "frontierco", "run", "--solver", "greedy", "--problem", "mis", "--limit", "1", "--results", str(runs)]
    assert subprocess.run(args, env=env, capture_output=True, timeout=120).returncode == 0
    (record,) = ResultStore(runs).records()
    assert record.solution_file is not None and record.solution_file.startswith("sha256:") and not list(runs.rglob("*.json.gz"))
    verify = [sys.executable, "-m", "frontierco", "verify", record.run_id, "--results", str(runs)]
    found = subprocess.run(verify, env=env, capture_output=True, text=True, timeout=120)
    assert found.returncode == 0 and "agrees with the record" in found.stdout
    shutil.rmtree(cache)
    missing = subprocess.run(verify, env=env, capture_output=True, text=True, timeout=120)
    digest = record.solution_file.removeprefix("sha256:")
    assert missing.returncode == 0 and f"not re-checked: solution not available locally (sha256 {digest})" in missing.stdout


def test_evaluate_prints_an_integer_objective_whole_and_reads_back_a_tour_run_wrote_as_sol(tmp_path):
    """pla7397's 23260728 was printed 2.32607e+07; a tour written with --write-solution t.sol was read as VRPLIB."""
    from frontierco.problems import EdgeWeights, TSPInstance, TSPSolution
    from frontierco.problems.files import write_instance, write_solution

    instance = TSPInstance("big", EdgeWeights("EUC_2D", coords=np.array([[0.0, 0.0], [11630364.0, 0.0]])))
    write_instance(tmp_path / "big.tsp", instance)
    write_solution(tmp_path / "t.sol", instance, TSPSolution(np.array([0, 1])), 23260728.0)
    result = runner.invoke(app, ["evaluate", str(tmp_path / "big.tsp"), str(tmp_path / "t.sol")])
    assert result.exit_code == 0 and "objective 23260728\n" in result.output, result.output


def test_files_with_a_byte_order_mark_read(tmp_path):
    from frontierco.problems.files import read_instance, read_solution

    (tmp_path / "g.dimacs").write_bytes("\ufeffp edge 3 2\ne 1 2\ne 2 3\n".encode())
    graph = read_instance(tmp_path / "g.dimacs")
    (tmp_path / "s.txt").write_bytes("\ufeff1\n3\n".encode())
    assert graph.n == 3 and read_solution(tmp_path / "s.txt", graph).vertices.tolist() == [0, 2]


def test_a_one_node_cvrp_evaluates_without_a_traceback(tmp_path):
    (tmp_path / "one.vrp").write_text(
        "NAME : one\nTYPE : CVRP\nDIMENSION : 1\nCAPACITY : 10\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n"
        "DEMAND_SECTION\n1 0\nDEPOT_SECTION\n1\n-1\nEOF\n"
    )
    (tmp_path / "one.sol").write_text("Cost 0\n")
    result = runner.invoke(app, ["evaluate", str(tmp_path / "one.vrp"), str(tmp_path / "one.sol")])
    assert result.exit_code == 0 and "objective 0" in result.output, result.output


def _one_line_error(result: subprocess.CompletedProcess, message: str) -> None:
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip().count("\n") == 0 and message in result.stderr, result.stderr


def test_writing_to_a_file_as_the_store_or_to_a_full_device_is_one_line(tmp_path):
    _one_line_error(
        _run("run", "--solver", "greedy", "--problem", "mis", "--results", str(DATA / "tiny.vrp")), "must be a folder of records"
    )
    runs = tmp_path / "runs"
    args = ["run", "--solver", "savings", "--instance", str(DATA / "tiny.vrp"), "--time-limit", "2", "--results", str(runs)]
    _one_line_error(_run(*args, "--write-solution", "/dev/full"), "could not write /dev/full")
    _one_line_error(_run("results", "export", "/dev/full", "--results", str(runs)), "could not write /dev/full")
    _one_line_error(
        _run("results", "export", str(tmp_path / "x.csv"), "--results", str(runs), "--collection", "nope"),
        "no records of a collection 'nope'",
    )


def test_records_with_a_time_limit_of_zero_or_an_infinite_objective_and_a_folder_named_jsonl_break_nothing(tmp_path):
    import json

    from frontierco.leaderboard.build import build
    from frontierco.registry import Registry

    runs = tmp_path / "leaderboards" / "runs"
    assert (
        _run("run", "--solver", "greedy", "--problem", "mis", "--limit", "1", "--time-limit", "5", "--results", str(runs)).returncode == 0
    )
    path = next(runs.rglob("greedy.jsonl"))
    good = json.loads(path.read_text())
    bad = [{**good, "run_id": f"{good['run_id']}-{k}", **change} for k, change in enumerate([{"time_limit": 0}, {"time_limit": -5}])]
    infinite = {**good, "run_id": "infinite", "objective": float("inf")}
    path.write_text("\n".join(json.dumps(r) for r in [good, *bad, infinite]) + "\n")
    (runs / "mis-rb-small" / "folder.jsonl").mkdir()
    records = list(ResultStore(runs).records())
    assert [r.run_id for r in records] == [good["run_id"]]  # the others are not records: skipped, with a warning
    assert build(runs, Registry())  # no traceback
    refused = _run("verify", "infinite", "--results", str(runs))  # warnings about the skipped lines come first
    assert refused.returncode == 2 and "Traceback" not in refused.stderr and "no run 'infinite'" in refused.stderr.splitlines()[-1]
    assert _run("verify", good["run_id"], "--results", str(runs)).returncode == 0


@pytest.mark.parametrize("change", [{"time_limit": 0}, {"time_limit": -5}, {"objective": float("inf")}], ids=["0 s", "-5 s", "Infinity"])
def test_an_admitted_line_with_a_time_limit_not_positive_or_an_infinite_objective_breaks_no_command(tmp_path, change):
    """Issue 30, defect 7, one case at a time, the line admitted (as a store written before admission existed, or
    by hand, may hold it): before, a time limit of 0 or -5 s broke leaderboard build (ZeroDivisionError, math
    domain error) and verify re-checked an objective of Infinity as agreeing."""
    import json

    from frontierco.leaderboard.build import build
    from frontierco.registry import Registry
    from frontierco.results import line_digest

    runs = tmp_path / "leaderboards" / "runs"
    run = ["run", "--solver", "greedy", "--problem", "mis", "--limit", "1", "--time-limit", "5", "--results", str(runs)]
    assert _run(*run).returncode == 0
    path = next(runs.rglob("greedy.jsonl"))
    line = json.dumps({**json.loads(path.read_text()), "run_id": "odd", **change})
    with open(path, "a") as handle:
        handle.write(line + "\n")
    ResultStore(runs).admit(path, [line_digest(line.encode())])
    assert build(runs, Registry())  # no traceback
    again = _run(*run, "--force")
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
    refused = _run("verify", "odd", "--results", str(runs))
    assert refused.returncode == 2 and "no run 'odd'" in refused.stderr.splitlines()[-1], refused.stderr
    assert "odd" not in {r.run_id for r in ResultStore(runs).records()}  # not a record: skipped, with a warning


def test_a_leaderboard_build_on_a_full_disk_is_one_line(tmp_path, monkeypatch):
    import errno
    from pathlib import Path

    from frontierco.errors import StoreError

    (tmp_path / "runs").mkdir()

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_bytes", full)
    result = runner.invoke(app, ["leaderboard", "build", "--folder", str(tmp_path)])
    assert isinstance(result.exception, StoreError) and "could not write the leaderboard" in str(result.exception)
    assert "No space left on device" in str(result.exception)


@pytest.mark.parametrize("signature", ["argv", "argv, context=None"])
def test_train_hands_its_context_to_a_main_that_takes_one_and_runs_an_older_main_argv_alone(tmp_path, signature: str) -> None:
    """A train.py written before the Context existed (main(argv)) still trains; a newer one gets the CLI's context."""
    runner.invoke(app, ["init", str(tmp_path / "ws")])
    name = "old_train" if signature == "argv" else "new_train"  # modules are cached by their folder's name
    folder = tmp_path / "ws" / "solvers" / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "train.py").write_text(
        "import pathlib\n"
        f"def main({signature}):\n"
        "    got = locals().get('context')\n"
        "    pathlib.Path(argv[0]).write_text(repr((argv[1:], got is not None and got.root.name)))\n"
    )
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["--root", str(tmp_path / "ws"), "train", name, str(out), "--epochs", "3"])
    assert result.exit_code == 0, result.output
    assert out.read_text() == repr((["--epochs", "3"], "ws" if "context" in signature else False))


def test_the_leaderboard_hint_after_a_run_names_a_command_that_reads_that_store(tmp_path) -> None:
    """With --results elsewhere than a workspace's store the hint said 'frontierco --root / leaderboard build'."""
    from frontierco.cli.run import _leaderboard_hint

    assert _leaderboard_hint(tmp_path / "ws" / "leaderboards" / "runs") == (
        f"see them on a leaderboard: frontierco --root {tmp_path / 'ws'} leaderboard build (pages in {tmp_path / 'ws' / 'leaderboards'})"
    )
    assert _leaderboard_hint(tmp_path / "boards" / "runs").endswith(f"leaderboard build --folder {tmp_path / 'boards'}")
    assert "--root" not in _leaderboard_hint(tmp_path / "probe") and "DIR/runs" in _leaderboard_hint(tmp_path / "probe")


def test_verify_of_a_missing_or_corrupt_solution_and_an_upper_case_run_id_is_one_line(tmp_path):
    runs = tmp_path / "runs"
    assert _run("run", "--solver", "greedy", "--problem", "mis", "--limit", "1", "--results", str(runs)).returncode == 0
    import json

    record = json.loads(next(runs.rglob("greedy.jsonl")).read_text())
    verified = _run("verify", record["run_id"].upper(), "--results", str(runs))  # was "no run"
    assert verified.returncode == 0 and "agrees" in verified.stdout.lower(), verified.stdout + verified.stderr
    solution = runs / record["solution_file"]
    solution.write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    _one_line_error(_run("verify", record["run_id"], "--results", str(runs)), "not a readable gzip file of JSON")  # was "Aborted."
    solution.unlink()
    _one_line_error(_run("verify", record["run_id"], "--results", str(runs)), "the solution file is missing")  # was a traceback


def test_commands_that_fail_create_no_folder_and_print_no_control_character(tmp_path):
    _one_line_error(_run("leaderboard", "build", "--folder", str(tmp_path / "nosuch")), "holds no runs/ folder of records")
    _one_line_error(_run("instances", "generate", "nosuch", "--out", str(tmp_path / "out")), "nosuch")
    assert not (tmp_path / "nosuch").exists() and not (tmp_path / "out").exists()
    hostile = tmp_path / "a\x1b[2J\x07b.mis"  # a name that clears the screen and rings the bell when printed raw
    result = _run("evaluate", str(hostile), str(tmp_path / "b.sol"))
    _one_line_error(result, "a\\x1b[2J\\x07b.mis")
    assert not any(c in result.stderr for c in "\x1b\x07")


def test_control_characters_of_an_error_are_written_as_escapes():
    from frontierco.cli import terminal_text

    assert terminal_text("bad \x1b]0;title\x07 nul \x00 line\nbreak ok é") == "bad \\x1b]0;title\\x07 nul \\x00 line\\nbreak ok é"


def test_the_run_table_shows_a_solvers_error_text_inert():
    from dataclasses import replace

    from frontierco.cli.summary import summarise_records
    from tests.helpers import record

    hostile = replace(record("evil", "t1", "error", None, []), reason="RuntimeError: \x1b[2J\x1b]0;owned\x07\x00 cleared")
    (row,) = summarise_records([hostile]).rows  # the raw sequences reached the terminal: a cleared screen, a new title
    assert row[-1] == "RuntimeError: \\x1b[2J\\x1b]0;owned\\x07\\x00 cleared"


def test_an_output_that_cannot_be_written_and_a_store_that_is_not_there_are_one_line(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    _one_line_error(
        _run("instances", "generate", "mis-rb-small", "--out", str(tmp_path / "f.txt")), "cannot write the instances to"
    )  # a traceback
    for command in (["reference", "update"], ["results", "export", str(tmp_path / "o.csv")], ["verify", "--admit"]):
        _one_line_error(_run(*command, "--results", str(tmp_path / "nosuch")), "no record store at")  # "0 references improved"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]
