"""The package as a Python user meets it: a version, a public API, natural order in tables."""

import subprocess
import sys

import frontierco
from frontierco.cli.summary import natural_key


def test_the_public_api_is_importable_from_the_package() -> None:
    assert frontierco.__version__ and frontierco.__version__ != "0+unknown"
    for name in frontierco.__all__:
        assert getattr(frontierco, name) is not None, name
    solver = frontierco.Solver  # what a solver author subclasses
    assert issubclass(type(solver), type) and frontierco.Budget(time_limit=1.0).threads == 1


def test_version_on_the_command_line() -> None:
    result = subprocess.run([sys.executable, "-m", "frontierco", "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == f"frontierco {frontierco.__version__}"


def test_names_sort_naturally() -> None:
    names = ["test-10", "test-2", "test-1", "dev-0", "a10b2", "a10b10", "a9"]
    assert sorted(names, key=natural_key) == ["a9", "a10b2", "a10b10", "dev-0", "test-1", "test-2", "test-10"]
