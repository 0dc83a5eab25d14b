"""Fault tests: every kind of misbehaving solver gets the right status, within its limit."""

import resource
import signal

import pytest

from frontierco.app.contract import timing_fault
from frontierco.harness.execute import run_plan
from frontierco.harness.runner import GRACE
from frontierco.results import ResultStore


def _run(plan, tmp_path):
    store = ResultStore(tmp_path / "runs")
    return run_plan(plan, store)[0], store


@pytest.mark.parametrize(
    "mode, status, reason",
    [
        ("good", "feasible", ""),
        ("proven", "optimal", ""),
        ("raises", "error", "RuntimeError: boom"),
        ("aborts", "crash", "signal 6"),
        ("garbage", "infeasible", "yielded a str, not a CVRPSolution"),
        ("wrong-type", "infeasible", "yielded a MISSolution"),
        ("infeasible", "infeasible", "route 1 carries 15 > capacity 10"),
        ("nothing", "no_solution", "without yielding"),
        ("setup-raises", "error", "in setup(): RuntimeError: no licence file"),
    ],
)
def test_status(tmp_path, plan_for, mode, status, reason):
    record, _ = _run(plan_for(mode), tmp_path)
    assert record.status == status, record
    assert reason in record.reason


def test_the_reason_of_the_last_refused_yield_reaches_a_run_that_timed_out(tmp_path, plan_for):
    record, _ = _run(plan_for("refused-then-sleeps", time_limit=1.0), tmp_path)
    assert record.status == "timeout", record
    assert record.reason.startswith("no feasible solution within 1 s; the last refused yield: ")
    assert "yielded a str, not a CVRPSolution" in record.reason  # the second refusal, not the first (capacity)


def test_good_solver_trace_and_stored_solution(tmp_path, plan_for):
    record, store = _run(plan_for("good"), tmp_path)
    assert [objective for _, objective in record.trace] == [120.0, 100.0]
    # the times are the harness's readings of each message, so only their order is asserted (a busy machine delays
    # a reading, not the order): the best's time is the trace's last, after the first
    times = [seconds for seconds, _ in record.trace]
    assert record.objective == 100.0 and 0 <= times[0] <= times[1] == record.time_to_best
    assert record.unrounded == 100.0  # the harness's own length of the best routes (a line of integer points: no rounding)
    assert store.load_solution(record.solution_file) == {"routes": [[1, 2], [3]]}
    assert record.provenance["python"] and record.provenance["jobs"] == 1 and record.sense == "min"


@pytest.mark.slow
def test_hang_ignoring_sigterm_is_killed_after_the_grace_and_its_recorded_solve_time_shows_it(tmp_path, plan_for):
    record, _ = _run(plan_for("hangs", time_limit=1.0), tmp_path)
    assert record.status == "timeout" and record.exit_signal == signal.SIGKILL
    assert 1.0 + GRACE < record.solve_time < 1.0 + GRACE + 5.0  # SIGTERM ignored, SIGKILL after the grace
    assert "ignored SIGTERM" in timing_fault(record)
    good, _ = _run(plan_for("good"), tmp_path / "good")
    assert good.status == "feasible" and timing_fault(good) == ""


@pytest.mark.slow
def test_feasible_then_hang_keeps_the_solution(tmp_path, plan_for):
    record, _ = _run(plan_for("feasible-then-hangs", time_limit=1.0), tmp_path)
    assert record.status == "feasible" and record.objective == 100.0 and record.exit_signal == 9


def test_a_solution_after_the_limit_does_not_count(tmp_path, plan_for):
    record, _ = _run(plan_for("slow", time_limit=0.5, seconds=1.5), tmp_path)
    assert record.status == "timeout" and record.objective is None


@pytest.mark.slow
def test_unbounded_allocation_hits_the_memory_limit(tmp_path, plan_for):
    record, _ = _run(plan_for("allocates", time_limit=20.0, memory_mb=1024), tmp_path)
    assert record.status == "memory"


@pytest.mark.slow
def test_stdout_spam_is_not_buffered_by_the_harness(tmp_path, plan_for):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    record, _ = _run(plan_for("spams-stdout", time_limit=30.0), tmp_path)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert record.status == "feasible"
    assert (after - before) < 50 * 1024  # kilobytes: 200 MB went to the solver's stdout, not to us


def test_campaign_continues_after_failures(tmp_path, plan_for):
    store = ResultStore(tmp_path / "runs")
    statuses = []
    for mode in ("raises", "aborts", "good"):
        statuses += [r.status for r in run_plan(plan_for(mode), store)]
    assert statuses == ["error", "crash", "feasible"]
    assert len(list(store.records())) == 3


@pytest.mark.parametrize(("mode", "bound", "reason"), [("bound", 90.0, ""), ("lying-bound", None, "bound dropped: the lower bound 150")])
def test_a_bound_its_own_solution_refutes_is_not_stored_and_the_solution_is_kept(tmp_path, plan_for, mode, bound, reason):
    """Issue 44, group 6: a lower bound of 150 beside a feasible tour of 100 (a min problem) is no bound."""
    record, store = _run(plan_for(mode), tmp_path)
    assert (record.status, record.objective, record.bound) == ("feasible", 100.0, bound)
    assert record.reason.startswith(reason) and (reason or record.reason == "")
    assert store.load_solution(record.solution_file) == {"routes": [[1, 2], [3]]}


def _judge(plan_for):
    from frontierco.harness.runner import _Judge
    from frontierco.problems.files import read_instance
    from tests.helpers import DATA

    (spec,) = plan_for("good").specs
    return _Judge(spec, read_instance(DATA / "tiny.vrp"))


GOOD_ROUTES = {"routes": [[1, 2], [3]]}  # cost 100 on tests/data/tiny.vrp


@pytest.mark.parametrize(
    "value",
    [10**400, -(10**400), "12", [1], True, float("nan"), None],
    ids=["int-past-float", "negative-past-float", "text", "list", "bool", "nan", "none"],
)
def test_a_bound_that_is_no_finite_number_is_ignored_never_raised(plan_for, value):
    judge = _judge(plan_for)
    judge.receive({"type": "bound", "value": value}, 0.0)  # a 400-digit integer was an OverflowError in the harness
    assert judge.outcome.bound is None
    judge.receive({"type": "bound", "value": 90}, 0.0)
    assert judge.outcome.bound == 90.0


@pytest.mark.parametrize(("claim", "proven"), [(True, True), ("false", False), (1, False), ("yes", False)])
def test_only_json_true_claims_optimality(plan_for, claim, proven):
    judge = _judge(plan_for)
    judge.receive({"type": "solution", "data": GOOD_ROUTES, "proven": claim}, 0.1)  # the text "false" was a claim
    assert judge.outcome.objective == 100 and judge.outcome.proven is proven


def test_a_checker_that_trips_on_a_solution_refuses_it_and_the_run_goes_on(plan_for):
    from dataclasses import replace

    judge = _judge(plan_for)

    def trips(instance, solution):
        raise TypeError("float() argument must be a string or a real number, not 'dict'")

    judge.problem = replace(judge.problem, evaluate=trips)
    judge.receive({"type": "solution", "data": GOOD_ROUTES}, 0.1)  # was raised out of the harness: no record
    assert judge.last_refused.startswith("malformed solution: the checker could not read it (TypeError")
    assert judge.outcome.objective is None


def test_a_solvers_text_loses_its_terminal_escapes_as_it_arrives():
    from frontierco.harness.runner import _parse

    line = b'{"type": "failed", "message": "RuntimeError: \\u001b[2J\\u001b]0;owned\\u0007\\u0000 cleared", "reason": [1]}'
    message = _parse(line, 1 << 20)  # the escapes reached the record's reason, and from it every terminal
    assert message["message"] == "RuntimeError:  cleared" and message["reason"] == "(not text)"
