"""The workspace: found once (--root, FRONTIERCO_ROOT, the nearest marked folder), required by commands that
write, layered over the suite's own content; and an installed wheel that works from any folder."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from frontierco import workspace
from frontierco.errors import UsageError
from frontierco.registry import Registry
from frontierco.solver import discover

REPOSITORY = Path(__file__).resolve().parents[1]


def test_the_workspace_is_the_nearest_marked_folder_or_the_one_named(tmp_path, monkeypatch):
    monkeypatch.delenv(workspace.ROOT_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)
    assert workspace.current() is None
    with pytest.raises(UsageError, match="no frontierco workspace here"):
        workspace.required()
    made = workspace.init(tmp_path / "ws")
    (made.root / "deep" / "er").mkdir(parents=True)
    monkeypatch.chdir(made.root / "deep" / "er")
    assert workspace.required() == made and workspace.required().runs == made.root / "leaderboards" / "runs"
    monkeypatch.setenv(workspace.ROOT_VARIABLE, str(tmp_path))
    with pytest.raises(UsageError, match="is not a frontierco workspace"):
        workspace.current()


def test_a_workspace_adds_its_own_manifests_and_solvers_to_the_suite_s(tmp_path, monkeypatch):
    made = workspace.init(tmp_path / "ws")
    monkeypatch.setenv(workspace.ROOT_VARIABLE, str(made.root))
    manifest = (workspace.SUITE / "instances" / "generated" / "mis-rb-small.toml").read_text()
    (made.root / "instances" / "mine.toml").write_text(manifest.replace('name = "mis-rb-small"', 'name = "my-rb"', 1))
    collections = Registry().collections
    assert {"my-rb", "mis-rb-small", "tsplib"} <= set(collections)
    from frontierco.app.scaffold import new_solver

    new_solver("my-greedy", ["mis"])
    assert (made.root / "solvers" / "my-greedy" / "solver.py").is_file() and "my-greedy" in discover() and "greedy" in discover()
    (made.root / "instances" / "twice.toml").write_text(manifest)  # mis-rb-small a second time
    with pytest.raises(Exception, match="defined twice"):
        _ = Registry().collections


@pytest.mark.slow
def test_an_installed_wheel_lists_the_suite_and_runs_into_a_workspace_from_any_folder(tmp_path):
    dist, left_over = tmp_path / "dist", not (REPOSITORY / "build").exists()
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPOSITORY), "--no-deps", "--no-build-isolation", "-q", "-w", str(dist)],
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    if left_over:  # setuptools builds in the checkout's build/: leave the checkout as it was
        shutil.rmtree(REPOSITORY / "build", ignore_errors=True)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True,
                               check=True).stdout.strip())  # fmt: skip
    (site / "_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # numpy & co. of this environment
    wheel = next(dist.glob("frontierco-*.whl"))
    # --ignore-installed: the checkout's editable install is visible through the .pth, and must stay untouched
    subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--ignore-installed", "-q", str(wheel)], check=True, capture_output=True, timeout=300
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", workspace.ROOT_VARIABLE)}
    frontierco = str(venv / "bin" / "frontierco")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([frontierco, *args], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)

    imported = subprocess.run(
        [python, "-c", "import frontierco; print(frontierco.__file__)"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert imported.stdout.strip().startswith(str(site))  # the installed copy, not the checkout
    listed, solvers = run("instances", "list"), run("solvers")
    assert listed.returncode == 0 and solvers.returncode == 0
    assert all(f" {name} " in listed.stdout for name in Registry().collections)  # the same collections as the checkout
    assert all(f" {name} " in solvers.stdout for name in discover())  # and the same solvers
    refused = run("run", "--solver", "greedy", "--problem", "mis")
    assert refused.returncode == 2 and "no frontierco workspace here" in refused.stderr
    assert run("init", "ws").returncode == 0
    ran = run("--root", "ws", "run", "--solver", "greedy", "--problem", "mis", "--limit", "2", "--time-limit", "5")
    assert ran.returncode == 0, ran.stderr
    assert (elsewhere / "ws" / "leaderboards" / "runs" / "mis-rb-small" / "greedy.jsonl").is_file()
    assert not list(site.rglob("*.jsonl")) and not (site / "leaderboards").exists() and not (site.parent / "README.md").exists()
