"""Declared solver parameters: read from solver.toml without importing the solver, checked before a run."""

import pytest

from frontierco.errors import UsageError
from frontierco.parameters import Param, check_values, parse_params_table, read_solver_file
from frontierco.solver import describe_solver_file, discover
from tests.helpers import tuned_solver


def test_a_folder_s_solver_toml_is_read_in_file_order_with_types_defaults_and_help(tmp_path):
    folder = tuned_solver(tmp_path)
    flavour, level = read_solver_file(folder)
    assert flavour == Param("flavour", "str", "plain", "", ("plain", "spicy"))
    assert level == Param("level", "int", 1, "how much")
    assert read_solver_file(tmp_path / "nowhere") == ()


def test_the_spec_carries_the_parameters_without_importing_the_solver(tmp_path):
    folder = tuned_solver(tmp_path)
    (folder / "solver.py").write_text((folder / "solver.py").read_text() + "\nraise SystemExit('imported')\n")
    (spec,) = describe_solver_file(folder / "solver.py")
    assert [p.name for p in spec.declared] == ["flavour", "level"]


@pytest.mark.parametrize(
    ("kind", "good", "bad"),
    [
        ("int", [0, -3], [1.5, True, "2"]),
        ("float", [0, 0.5], [True, "0.5", float("inf"), float("nan")]),
        ("bool", [True, False], [0, "true"]),
        ("str", ["x"], [1, ["x"]]),
        ("path", ["a/b.pt"], [3]),
        ("list[str]", [[], ["a", "b"]], ["a", [1]]),
        ("int|str", [3, "auto"], [1.5, False]),
    ],
)
def test_a_value_is_checked_against_its_declared_type(kind, good, bad):
    param = Param("p", kind)
    assert [param.problem_with(value) for value in good] == [""] * len(good)
    assert all(param.problem_with(value).startswith(f"p must be {kind}, not ") for value in bad)


def test_choices_limit_strings_and_every_item_of_a_list():
    assert Param("r", "list[str]", choices=("redraw", "sample")).problem_with(["redraw", "nope"]).startswith("r must be some of redraw")
    assert Param("n", "int|str", choices=("auto",)).problem_with(500) == ""
    assert Param("n", "int|str", choices=("auto",)).problem_with("big") == "n must be one of auto, not 'big'"


def test_a_parameter_limited_to_some_solvers_of_the_folder_is_refused_by_the_others():
    (pomo, candidates) = parse_params_table({"pomo": {"type": "int"}, "candidates": {"type": "int", "solvers": ["rrnco-ls"]}}, "t")
    check_values("rrnco-ls", (pomo, candidates), {"pomo": 5, "candidates": 3})
    with pytest.raises(UsageError, match="solver rrnco has no parameter candidates; it takes pomo"):
        check_values("rrnco", (pomo, candidates), {"candidates": 3})
    with pytest.raises(UsageError, match=r"solver greedy has no parameter a, b; it takes none \(see 'frontierco solvers greedy'\)"):
        check_values("greedy", (), {"b": 1, "a": 2})


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"x": {"type": "integer"}}, "params.x needs a type"),
        ({"x": {"type": "int", "defualt": 3}}, "t params.x: unknown key defualt"),
        ({"x": {"type": "int", "default": "3"}}, "the default of x must be int"),
        ({"x": {"type": "str", "choices": "a"}}, "choices must be a list of strings"),
        ({"x": 3}, "params.x must be a table"),
        ({"../x": {"type": "int"}}, "parameter name"),
        ([], "params must be a table of tables"),
    ],
)
def test_a_bad_declaration_is_one_line(table, message):
    with pytest.raises(UsageError, match=message) as caught:
        parse_params_table(table, "t")
    assert "\n" not in str(caught.value)


def test_every_parameter_in_the_committed_records_and_campaigns_is_declared():
    """What the records and campaigns ran with stays valid (the leaderboard's rows are these runs)."""
    import json

    from frontierco.app.campaigns import campaign_files, read_campaign
    from frontierco.workspace import SUITE

    solvers = discover()
    used = [(step.solver, step.params) for path in campaign_files().values() for step in read_campaign(path).steps]
    for path in sorted((SUITE / "leaderboards" / "runs").rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            used.append((record["solver"], record.get("params") or {}))
    assert any(params for _, params in used)
    for solver, params in used:
        if solver in solvers:
            solvers[solver].check_params(params)


def test_a_solver_of_another_package_declares_its_parameters_on_its_class(monkeypatch):
    import importlib.metadata

    from frontierco.solver import Solver, read_entry_points

    class Outside(Solver):
        name = "outside"
        problems = ("mis",)
        parameters = {"depth": {"type": "int", "default": 3, "help": "how deep"}}

    class Point:
        name, value = "outside", "their_package.module:Outside"

        def load(self):
            return Outside

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [Point()] if group == "frontierco.solvers" else [])
    (spec,), bad = read_entry_points()
    assert bad == []
    assert spec.declared == (Param("depth", "int", 3, "how deep"),)
    spec.check_params({"depth": 5})
    with pytest.raises(UsageError, match="solver outside has no parameter width; it takes depth"):
        spec.check_params({"width": 5})
