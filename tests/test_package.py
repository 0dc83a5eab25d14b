"""The package as a Python user meets it: a version, a public API, natural order in tables."""

import subprocess
import sys
from pathlib import Path

import pytest

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


def test_the_package_root_holds_at_most_twelve_modules() -> None:
    """The layers are packages (app, kit, harness, ...); the root keeps the shared core only."""
    root = sorted(path.name for path in Path(frontierco.__file__).parent.glob("*.py"))
    assert len(root) <= 12, root


@pytest.fixture
def forget_moved(monkeypatch: pytest.MonkeyPatch) -> None:
    """The old toolkit names as ``import frontierco`` leaves them, so that using them warns again (undone after the test)."""
    for old in frontierco._MOVED:
        monkeypatch.setitem(sys.modules, old, frontierco._Moved(old))
        if old.rpartition(".")[2] in vars(frontierco):  # set by an earlier import (hasattr would warn)
            monkeypatch.delattr(frontierco, old.rpartition(".")[2])


@pytest.mark.usefixtures("forget_moved")
def test_the_old_toolkit_names_import_the_kit_with_a_deprecation_warning() -> None:
    from frontierco.kit import solverkit, tour_search

    with pytest.warns(DeprecationWarning, match=r"frontierco\.solverkit is deprecated: import frontierco\.kit\.solverkit") as caught:
        import frontierco.solverkit

        assert frontierco.solverkit is solverkit
    assert sys.modules["frontierco.solverkit"] is solverkit
    assert caught[0].filename == __file__  # the warning points at the import, not at importlib

    with pytest.warns(DeprecationWarning, match=r"import frontierco\.kit\.tour_search instead"):
        from frontierco.tour_search import nearest_neighbours
    assert nearest_neighbours is tour_search.nearest_neighbours


def test_the_old_names_need_no_import_hook() -> None:
    assert not [finder for finder in sys.meta_path if type(finder).__module__.startswith("frontierco")]


@pytest.mark.usefixtures("forget_moved")
def test_every_old_toolkit_name_is_a_kit_module() -> None:
    for old, new in frontierco._MOVED.items():
        assert new == old.replace("frontierco.", "frontierco.kit.", 1)
        assert (Path(frontierco.__file__).parent / "kit" / f"{new.rpartition('.')[2]}.py").is_file(), new
        assert not (Path(frontierco.__file__).parent / f"{old.rpartition('.')[2]}.py").exists(), old
    with pytest.warns(DeprecationWarning, match=r"frontierco\.formulations is deprecated"):
        from frontierco import formulations
    assert formulations.__name__ == "frontierco.kit.formulations"
