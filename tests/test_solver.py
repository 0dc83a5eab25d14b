import os
import sys

import pytest

from frontierco.solver import SolverUnavailable, describe_solver_file, discover, get_solver


def test_project_solvers_are_discovered():
    solvers = discover()
    assert "greedy" in solvers and solvers["greedy"].problems == ("mis",)


def test_missing_dependency_is_listed_with_its_fix(tmp_path):
    folder = tmp_path / "heavy"
    folder.mkdir()
    (folder / "solver.py").write_text(
        "import not_a_real_module_xyz\n"
        "from frontierco.solver import Solver\n"
        "class Heavy(Solver):\n"
        "    name = 'heavy'\n"
        "    problems = ('tsp',)\n"
        "    requires = {'not_a_real_module_xyz': 'not-a-real-package>=1'}\n"
    )
    spec = discover(tmp_path)["heavy"]  # listing did not import it (the import would fail)
    assert not spec.available and spec.fix == "pip install 'not-a-real-package>=1'"
    with pytest.raises(SolverUnavailable, match="pip install"):
        spec.load()


def test_unknown_solver():
    with pytest.raises(SolverUnavailable, match="unknown solver"):
        get_solver("no-such-solver")


def test_template_folders_are_not_solvers(tmp_path, monkeypatch):
    import importlib.metadata

    # only the folders: a solver pip-installed meanwhile by another test (xdist) must not count here
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: [])
    (tmp_path / "_template").mkdir()
    (tmp_path / "_template" / "solver.py").write_text("class T:\n    name = 't'\n    problems = ('tsp',)\n")
    assert discover(tmp_path) == {}
    assert [spec.name for spec in describe_solver_file(tmp_path / "_template" / "solver.py")] == ["t"]


@pytest.mark.parametrize("body", ["class X(Solver:\n", "x = 1\x00\n"], ids=["syntax-error", "nul-byte"])
def test_a_solver_file_that_cannot_be_parsed_is_left_out_and_the_others_are_found(tmp_path, monkeypatch, body):
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: [])
    for name, text in (("broken", body), ("fine", "class F:\n    name = 'fine'\n    problems = ('mis',)\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "solver.py").write_text(text)
    assert list(discover(tmp_path)) == ["fine"]  # was a SyntaxError traceback from every command of the workspace


def test_a_solver_folder_with_a_broken_solver_toml_is_left_out(tmp_path, monkeypatch):
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: [])
    for name in ("broken", "fine"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "solver.py").write_text(f"class F:\n    name = '{name}'\n    problems = ('mis',)\n")
    (tmp_path / "broken" / "solver.toml").write_text("[params\n")
    assert list(discover(tmp_path)) == ["fine"]  # every command of the workspace was that one error line


@pytest.mark.parametrize("kind", ["link to /dev/zero", "fifo", "too long"])
def test_a_solver_py_that_is_no_small_regular_file_is_left_out_in_one_line(tmp_path, kind, caplog):
    """A solver.py linked to /dev/zero was read until memory ran out (3.7 GB, then validate's traceback); a FIFO
    blocked every command for ever (issue 44's hostile re-run)."""
    for name in ("fine", "hostile"):
        (tmp_path / name).mkdir()
    (tmp_path / "fine" / "solver.py").write_text("class F:\n    name = 'fine'\n    problems = ('tsp',)\n")
    path = tmp_path / "hostile" / "solver.py"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "too long":
        path.write_text("class H:\n    name = 'hostile'\n    problems = ('tsp',)\n" + "#\n" * (1 << 20))
    else:
        path.symlink_to("/dev/zero")
    assert set(discover(tmp_path)) >= {"fine"} and "hostile" not in discover(tmp_path)
    assert f"{path}: " in caplog.text and "the solver is left out" in caplog.text


OUTSIDE = (
    "from frontierco.solver import Solver\n"
    "class Outside(Solver):\n"
    "    name = 'outside'\n"
    "    problems = ('mis',)\n"
    "    def solve(self, instance, budget):\n"
    "        yield from ()\n"
    "class Evil(Outside):\n"
    "    name = '../evil'\n"
    "NOT_A_SOLVER = 5\n"
)
BAD_ENTRIES = {  # entry name = target: what a package may declare
    "evil": "outside_solvers:Evil",  # a solver name that is a path
    "crashing": "outside_crashing:Crashing",  # its module raises on import
    "gone": "outside_solvers:Gone",  # no such class
    "number": "outside_solvers:NOT_A_SOLVER",  # not a solver class
    "garbled": "not a target",
}


def _installed(tmp_path, monkeypatch, entries):
    """A package installed for real as far as importlib.metadata can tell: its dist-info, with entry_points.txt, and
    its modules on sys.path."""
    site = tmp_path / "site"
    info = site / "outside_solvers-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: outside-solvers\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[frontierco.solvers]\n" + "".join(f"{name} = {target}\n" for name, target in entries.items()))
    (site / "outside_solvers.py").write_text(OUTSIDE)
    (site / "outside_crashing.py").write_text("raise RuntimeError('boom at import')\n")
    monkeypatch.syspath_prepend(str(site))
    for module in ("outside_solvers", "outside_crashing"):
        monkeypatch.delitem(sys.modules, module, raising=False)


def test_a_solver_of_an_installed_package_is_found_by_its_entry_point(tmp_path, monkeypatch):
    _installed(tmp_path, monkeypatch, {"outside": "outside_solvers:Outside"})
    spec = get_solver("outside")
    assert spec.problems == ("mis",) and spec.available and spec.target == "outside_solvers:Outside"
    assert spec.load().__name__ == "Outside" and "greedy" in discover()


@pytest.mark.parametrize("bad", BAD_ENTRIES)
def test_a_bad_entry_point_is_one_line_and_leaves_the_other_solvers(tmp_path, monkeypatch, caplog, bad):
    """Each was a traceback from every command that lists solvers (entry.load() raised), or, for a name that is a
    path, a solver validate took for a good one."""
    from frontierco.app.validate import validate
    from frontierco.errors import FrontiercoError

    _installed(tmp_path, monkeypatch, {"outside": "outside_solvers:Outside", bad: BAD_ENTRIES[bad]})
    found = discover()
    assert "outside" in found and "greedy" in found and bad not in found and "../evil" not in found
    warned = [record.getMessage() for record in caplog.records if BAD_ENTRIES[bad] in record.getMessage()]
    assert len(warned) == 1 and "\n" not in warned[0], warned
    with pytest.raises(FrontiercoError, match=f"^entry point {bad} = {BAD_ENTRIES[bad]} .*outside-solvers") as caught:
        get_solver("../evil" if bad == "evil" else bad)
    assert "\n" not in str(caught.value)
    problems = [line for line in validate(None, [], None, []).problems if BAD_ENTRIES[bad] in line]  # the installed solvers only
    assert problems == [str(caught.value)]


def test_an_entry_point_solver_named_as_a_folder_s_solver_is_reported_and_neither_is_chosen(tmp_path, monkeypatch):
    from frontierco.app.validate import validate
    from frontierco.errors import FrontiercoError

    _installed(tmp_path, monkeypatch, {"outside": "outside_solvers:Outside"})
    (tmp_path / "site" / "outside_solvers.py").write_text(OUTSIDE.replace("name = 'outside'", "name = 'greedy'"))
    assert "greedy" not in discover() and "outside" not in discover()
    with pytest.raises(FrontiercoError, match="two solvers are named 'greedy'"):
        get_solver("greedy")
    (line,) = [line for line in validate(None, [], None, []).problems if "outside_solvers" in line]
    assert line.startswith("outside_solvers:Outside: solver 'greedy' is defined in ") and line.endswith("greedy/solver.py:Greedy too")
