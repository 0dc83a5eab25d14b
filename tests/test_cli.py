import subprocess
import sys

from typer.testing import CliRunner

from frontierco.cli import app
from tests.conftest import DATA

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


def test_generate_and_evaluate(tmp_path):
    result = runner.invoke(app, ["instances", "generate", "cvrp-uniform-50", "--out", str(tmp_path), "--split", "dev"])
    assert result.exit_code == 0, result.output
    assert len(list(tmp_path.glob("*.vrp"))) == 4


def test_verify_generated_collection():
    result = runner.invoke(app, ["instances", "verify", "milp-indset-easy", "--split", "dev"])
    assert result.exit_code == 0 and "verified" in result.output


def test_evaluate_command():
    assert "objective 100" in _run("evaluate", str(DATA / "tiny.vrp"), str(DATA / "tiny.sol")).stdout


def test_unknown_collection_is_one_line_exit_1():
    result = _run("instances", "show", "no-such-collection")
    assert result.returncode == 1
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
    from frontierco.results import ResultStore

    record = next(ResultStore(tmp_path / "runs").records())
    verified = _run("verify", record.run_id[:8], "--results", str(tmp_path / "runs"))
    assert verified.returncode == 0 and "agrees with the record" in verified.stdout


def test_run_default_collection(tmp_path):
    result = _run("run", "--solver", "greedy", "--problem", "mis", "--limit", "2", "--time-limit", "5", "--results", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "mean gap" in result.stdout and "runs 2" in result.stdout


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
