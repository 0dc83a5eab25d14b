import shutil
import subprocess
import sys
import textwrap

import pytest

from frontierco.app.contract import check_case
from frontierco.app.scaffold import new_solver
from frontierco.errors import UsageError
from frontierco.solver import SOLVERS_DIR, discover


@pytest.fixture
def solvers_dir(tmp_path):
    folder = tmp_path / "solvers"
    folder.mkdir()
    shutil.copytree(SOLVERS_DIR / "_template", folder / "_template")
    return folder


def test_new_solver_passes_the_contract_at_once(solvers_dir, tmp_path):
    target = new_solver("my-solver", ["tsp", "mis"], solvers_dir)
    spec = discover(solvers_dir)["my-solver"]
    assert spec.problems == ("tsp", "mis") and "class MySolverSolver(" in (target / "solver.py").read_text()
    assert (target / "README.md").read_text().startswith("# my-solver")
    for problem in ("tsp", "mis"):
        result = check_case(spec, problem, "tiny", tmp_path)
        assert result.passed, result.message


@pytest.mark.parametrize(
    "name, problems, message", [("Bad_Name", ["mis"], "lower-case"), ("ok", ["knapsack"], "unknown problem"), ("ok", [], "unknown problem")]
)
def test_new_solver_refuses(solvers_dir, name, problems, message):
    with pytest.raises(UsageError, match=message):
        new_solver(name, problems, solvers_dir)


def test_new_solver_refuses_a_taken_name(solvers_dir):
    new_solver("twice", ["mis"], solvers_dir)
    with pytest.raises(UsageError, match="exists already"):
        new_solver("twice", ["mis"], solvers_dir)


PACKAGE_SOLVER = """
import numpy as np
from frontierco.problems import MISSolution
from frontierco.solver import Solver


class PackagedGreedy(Solver):
    name = "packaged-greedy"
    problems = ("mis",)
    version = "1"

    def solve(self, instance, budget):
        chosen, blocked = [], np.zeros(instance.n, dtype=bool)
        for v in range(instance.n):
            if not blocked[v]:
                chosen.append(v)
                blocked[instance.adjacency.neighbours(v)] = True
        yield MISSolution(np.array(chosen))
"""

PYPROJECT = """
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "frontierco-packaged-greedy"
version = "0.1.0"

[project.entry-points."frontierco.solvers"]
packaged-greedy = "packaged_greedy:PackagedGreedy"
"""


@pytest.mark.slow
def test_a_solver_in_its_own_pip_package_runs_through_the_harness(tmp_path):
    package = tmp_path / "package"
    (package / "packaged_greedy").mkdir(parents=True)
    (package / "packaged_greedy" / "__init__.py").write_text(textwrap.dedent(PACKAGE_SOLVER))
    (package / "pyproject.toml").write_text(textwrap.dedent(PYPROJECT))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "install", "--no-deps", str(package)], check=True, timeout=300)
    try:
        listing = subprocess.run([sys.executable, "-m", "frontierco", "solvers"], capture_output=True, text=True, check=True).stdout
        assert "packaged-greedy" in listing
        graph = tmp_path / "g.mis"
        graph.write_text("p edge 4 3\ne 1 2\ne 2 3\ne 3 4\n")
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "frontierco",
                "run",
                "--solver",
                "packaged-greedy",
                "--instance",
                str(graph),
                "--results",
                str(tmp_path / "runs"),
            ],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stderr
        assert "feasible" in run.stdout
    finally:
        subprocess.run([*pip, "uninstall", "--yes", "frontierco-packaged-greedy"], check=True, timeout=300)
