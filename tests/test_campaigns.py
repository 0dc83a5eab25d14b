import pytest

from frontierco import workspace
from frontierco.app.campaigns import CAMPAIGNS_DIR, Step, load_campaign, run_named, select_steps, with_time_limit
from frontierco.errors import UsageError
from frontierco.results import ResultStore
from frontierco.solver import get_solver
from frontierco.workspace import Context
from tests.helpers import suite_registry, tuned_solver


@pytest.mark.parametrize("name", sorted(p.stem for p in CAMPAIGNS_DIR.glob("*.toml")))
def test_shipped_campaigns_name_real_solvers_and_collections(name):
    campaign = load_campaign(name)
    registry = suite_registry()
    assert campaign.steps
    for step in campaign.steps:
        assert step.problem in get_solver(step.solver).problems
        assert registry.collection(step.collection).problem == step.problem


def test_run_named_resumes(tmp_path):
    (tmp_path / "tiny.toml").write_text(
        'name = "tiny"\n[[run]]\nsolver = "greedy"\nproblem = "mis"\ncollection = "mis-rb-small"\nlimit = 2\ntime_limit = 5\n'
    )
    campaign = load_campaign("tiny", tmp_path)
    store = ResultStore(tmp_path / "runs")
    heard = []
    assert len(run_named(Context(), campaign, store, report=lambda step, done: heard.append((step.solver, len(done))))) == 2
    assert heard == [("greedy", 2)]
    assert run_named(Context(), campaign, store) == []
    redone = run_named(Context(), campaign, store, force=True)
    assert len(redone) == 2 and len(list(store.records())) == 4


def test_select_steps_keeps_the_named_steps_in_file_order(tmp_path):
    step = 'solver = "greedy"\nproblem = "mis"\ncollection = "mis-rb-small"\nlimit = 1\n'
    (tmp_path / "two.toml").write_text(f'name = "two"\n[[run]]\n{step}time_limit = 5\n[[run]]\n{step}time_limit = 7\n')
    campaign = load_campaign("two", tmp_path)
    assert [s.time_limit for s in select_steps(campaign, [1]).steps] == [7]
    assert [s.time_limit for s in select_steps(campaign, [1, 0]).steps] == [5, 7]
    assert select_steps(campaign, []) == campaign
    with pytest.raises(UsageError, match="has steps 0 to 1, not 2"):
        select_steps(campaign, [2])


def test_bad_campaigns(tmp_path):
    with pytest.raises(UsageError, match="unknown campaign"):
        load_campaign("nope", tmp_path)
    (tmp_path / "bad.toml").write_text('[[run]]\nsolver = "greedy"\nproblem = "mis"\ncollection = "x"\ntime_limit = 1\nspeed = 3\n')
    with pytest.raises(UsageError, match="run 0: unknown key speed"):
        load_campaign("bad", tmp_path)


def test_a_step_s_parameters_reach_the_solver_and_make_a_row_of_their_own(tmp_path):
    made = workspace.init(tmp_path / "ws")
    tuned_solver(made.root / "solvers")
    (tmp_path / "tuned.toml").write_text(
        'name = "tuned"\n[[run]]\nsolver = "tuned"\nproblem = "mis"\ncollection = "mis-rb-small"\nlimit = 1\ntime_limit = 5\n'
        'params = { flavour = "plain", level = 2 }\n'
    )
    campaign = load_campaign("tuned", tmp_path)
    assert campaign.steps[0].params == {"flavour": "plain", "level": 2}
    assert "flavour=plain, level=2" in campaign.steps[0].describe()
    (record,) = run_named(Context(root=made.root), campaign, ResultStore(tmp_path / "runs"))
    assert record.params == {"flavour": "plain", "level": 2}
    assert record.row_name == "tuned{level=2}"  # flavour=plain is its default: not a row of its own


def test_a_step_with_a_parameter_its_solver_does_not_declare_is_refused_before_anything_runs(tmp_path):
    (tmp_path / "typo.toml").write_text(
        'name = "typo"\n[[run]]\nsolver = "greedy"\nproblem = "mis"\ncollection = "mis-rb-small"\nlimit = 1\ntime_limit = 5\n'
        '[[run]]\nsolver = "rrnco"\nproblem = "tsp"\ncollection = "tsp-uniform-100"\nlimit = 1\ntime_limit = 5\n'
        "params = { pmo = 50 }\n"
    )
    store = ResultStore(tmp_path / "runs")
    with pytest.raises(UsageError, match="solver rrnco has no parameter pmo; it takes anytime, pomo, rounds, temperature"):
        run_named(Context(), load_campaign("typo", tmp_path), store)
    assert list(store.records()) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "x"\nrefrence = 1\n', "unknown key refrence"),
        ('[[run]]\nsolver = "greedy"\nproblem = "mis"\ncollection = "x"\ntime_limit = 1\nparams = 3\n', "run 0: params must be a table"),
        ("run = 3\n", "run must be an array of tables"),
        ("name = \n", "not valid TOML"),
    ],
)
def test_a_campaign_file_with_a_mistake_is_one_line_naming_it(tmp_path, text, message):
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(UsageError, match=message) as caught:
        load_campaign("bad", tmp_path)
    assert "bad.toml" in str(caught.value) and "\n" not in str(caught.value)


def test_a_campaign_runs_at_another_time_limit_as_other_runs(tmp_path):
    (tmp_path / "tiny.toml").write_text(
        'name = "tiny"\n[[run]]\nsolver = "greedy"\nproblem = "mis"\ncollection = "mis-rb-small"\nlimit = 1\ntime_limit = 5\n'
    )
    campaign = load_campaign("tiny", tmp_path)
    assert with_time_limit(campaign, None) == campaign
    store = ResultStore(tmp_path / "runs")
    (at_five,) = run_named(Context(), campaign, store)
    (at_three,) = run_named(Context(), with_time_limit(campaign, 3), store)  # not skipped as done: another budget
    assert (at_five.time_limit, at_three.time_limit) == (5, 3) and at_five.run_id != at_three.run_id
    for wrong in (0, -1, float("inf"), float("nan")):
        with pytest.raises(UsageError, match="positive number of seconds"):
            with_time_limit(campaign, wrong)


def test_campaign_run_time_limit_sets_every_step_s_limit(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from frontierco import cli
    from frontierco.app import campaigns

    heard = []
    monkeypatch.setattr(campaigns, "run_named", lambda context, campaign, *args, **kwargs: heard.append(campaign) or [])
    result = CliRunner().invoke(cli.app, ["campaign", "run", "frontierco-protocol", "--time-limit", "3600", "--results", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (campaign,) = heard
    protocol = load_campaign("frontierco-protocol").steps
    assert {s.time_limit for s in protocol} == {60, 300}
    assert len(campaign.steps) == len({(step_row(s), s.collection) for s in protocol}) and {s.time_limit for s in campaign.steps} == {3600}


def test_the_protocol_campaign_runs_the_leading_classical_row_of_each_set_as_the_board_shows_it():
    """Issue 40/41: frontierco-protocol names, per set and limit, the classical row that leads the committed board
    (every instance run; lowest mean gap, then primal integral, then time), or the 60-s leader where the limit has
    no full classical row yet (at 60 s: among the rows on the most instances); not a guess made before the runs."""
    import csv

    from frontierco.workspace import SUITE

    registry = suite_registry()
    with open(SUITE / "leaderboards" / "aggregates.csv") as handle:
        rows = list(csv.DictReader(handle))

    def leader(collection: str, limit: int) -> str | None:
        size = len(registry.collection(collection).entries)
        classical = [r for r in rows if r["collection"] == collection and not get_solver(solver_of(r["solver"])).learned]
        full = [r for r in classical if float(r["time_limit"]) == limit and int(r["runs"]) >= size]
        if not full and limit == 60:  # no full row yet: the widest rows at 60 s
            widest = max((int(r["runs"]) for r in classical if float(r["time_limit"]) == 60), default=0)
            full = [r for r in classical if float(r["time_limit"]) == 60 and int(r["runs"]) == widest]
        best = min(full, key=lambda r: (float(r["mean_gap"]), float(r["primal_integral"]), float(r["sgm_time"])), default=None)
        return None if best is None else best["solver"]

    for step in load_campaign("frontierco-protocol").steps:
        expected = leader(step.collection, int(step.time_limit)) or leader(step.collection, 60)
        assert step_row(step) == expected, f"{step.collection} at {step.time_limit} s: the board's leader is {expected}"


def solver_of(row: str) -> str:
    """The solver of a board row's name: ``hgs`` of ``hgs{lambda=20,mu=12}`` or of ``dimes@cuda``."""
    return row.split("{")[0].split("@")[0]


def step_row(step: Step) -> str:
    """The board row a campaign step's runs land in: the solver, with its parameters that differ from their defaults
    (as ``RunRecord.row_name`` names them)."""
    chosen = get_solver(step.solver).chosen(step.params)
    settings = ",".join(f"{key}={chosen[key]}" for key in sorted(chosen))
    return f"{step.solver}{{{settings}}}" if settings else step.solver


def test_a_step_with_parameters_is_the_board_row_of_its_parameters():
    """The protocol test reads a parameterised row (``hgs{lambda=20,mu=12}``) as that solver with those settings."""
    assert solver_of("hgs{lambda=20,mu=12}") == "hgs" and solver_of("dimes@cuda") == "dimes"
    step = Step("hgs", "cvrp", "frontierco-cvrp-easy", 60, params={"mu": 12, "lambda": 20, "nb_iter": 20000})
    assert step_row(step) == "hgs{lambda=20,mu=12}" and step_row(Step("hgs", "cvrp", "frontierco-cvrp-easy", 60)) == "hgs"
