"""CTC: constraint types and information gain, labels, the two-modality network, reductions and the solvers."""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable

import numpy as np
import pytest
import scipy.sparse as sp

torch = pytest.importorskip("torch")
pytest.importorskip("torch_geometric")

from frontierco.kit.solverkit import Clock  # noqa: E402
from frontierco.problems import get_problem  # noqa: E402
from frontierco.problems.milp.generators import milp_setcover  # noqa: E402
from frontierco.problems.milp.milp import MILPInstance  # noqa: E402
from frontierco.solver import Budget, Proven, get_solver, load_solver_module  # noqa: E402
from frontierco.workspace import Context  # noqa: E402

constraints = load_solver_module("ctc", "constraints")
labels = load_solver_module("ctc", "labels")
features = load_solver_module("ctc", "features")
model = load_solver_module("ctc", "model")
reduce = load_solver_module("ctc", "reduce")
checkpoint = load_solver_module("ctc", "checkpoint")
calibrate = load_solver_module("ctc", "calibrate")
tune = load_solver_module("ctc", "tune")
solver_module = load_solver_module("ctc", "solver")

B, INT, C = 0, 1, 2  # binary, integer, continuous


@pytest.mark.parametrize(
    ("coefs", "kinds", "rhs", "equality", "expected"),
    [
        ([], [], 1.0, False, "empty"),
        ([1.0, 1.0], [B, B], math.inf, False, "free"),
        ([2.0], [INT], 3.0, False, "singleton"),
        ([1.0, -2.0], [C, C], 0.0, True, "aggregation"),
        ([1.0, -1.0], [INT, INT], 0.0, False, "precedence"),
        ([1.0, -5.0], [C, B], 0.0, False, "variable_bound"),
        ([1.0, 1.0, 1.0], [B, B, B], 1.0, True, "set_partitioning"),
        ([1.0, 1.0, 1.0], [B, B, B], 1.0, False, "set_packing"),
        ([-1.0, -1.0, -1.0], [B, B, B], -1.0, False, "set_covering"),
        ([1.0, 1.0, 1.0], [B, B, B], 2.0, True, "cardinality"),
        ([1.0, 1.0, 1.0], [B, B, B], 2.0, False, "invariant_knapsack"),
        ([3.0, 4.0, 5.0], [B, B, B], 7.0, True, "equation_knapsack"),
        ([3.0, 4.0, 7.0], [B, B, B], 7.0, False, "bin_packing"),
        ([3.0, 4.0, 5.0], [B, B, B], 8.0, False, "knapsack"),
        ([3.0, 4.0, 5.0], [INT, B, INT], 8.0, False, "integer_knapsack"),
        ([3.0, 4.0, 5.0], [C, B, B], 8.0, False, "mixed_binary"),
        ([3.0, 4.0, 5.0], [C, INT, B], 8.0, False, "general"),
    ],
)
def test_rows_get_their_miplib_type(coefs: list[float], kinds: list[int], rhs: float, equality: bool, expected: str) -> None:
    assert constraints.classify_row(np.array(coefs), np.array(kinds), rhs, equality) == expected


def brute_force_gain(coefs: np.ndarray, rhs: float) -> float:
    activity = np.array([np.dot(coefs, x) for x in itertools.product((0, 1), repeat=len(coefs))])
    return -math.log(np.sum(np.isclose(activity, rhs)) / np.sum(activity <= rhs + 1e-9))


@pytest.mark.parametrize("seed", range(8))
def test_counted_gain_equals_brute_force_enumeration(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    coefs = rng.integers(1, 7, size=k).astype(float) * rng.choice([-1.0, 1.0], size=k)
    x = rng.integers(0, 2, size=k)
    rhs = float(np.dot(coefs, x))  # a reachable right-hand side
    ones = np.ones(k)
    gain = constraints.row_gain("knapsack", coefs, np.zeros(k, dtype=int), np.zeros(k), ones, rhs)
    assert gain == pytest.approx(brute_force_gain(coefs, rhs), rel=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_adding_a_uniform_variable_is_a_convolution_with_its_distribution(seed: int) -> None:
    rng = np.random.default_rng(seed)
    distribution = rng.random(int(rng.integers(1, 40)))
    offsets = rng.integers(0, 30, size=int(rng.integers(1, 6)))  # repeats weigh twice
    step = np.bincount(offsets) / len(offsets)
    assert np.allclose(constraints._add_uniform(distribution, offsets), np.convolve(distribution, step), rtol=1e-12, atol=0)


def test_closed_forms_of_the_unit_binary_types() -> None:
    k = 6
    zeros, ones, kinds = np.zeros(k), np.ones(k), np.zeros(k, dtype=int)
    packing = constraints.row_gain("set_packing", np.ones(k), kinds, zeros, ones, 1.0)
    covering = constraints.row_gain("set_covering", -np.ones(k), kinds, zeros, ones, -1.0)
    assert packing == pytest.approx(math.log((k + 1) / k))
    assert covering == pytest.approx(math.log((2**k - 1) / k))
    assert covering == pytest.approx(brute_force_gain(-np.ones(k), -1.0))


def test_greater_equal_rows_are_negated_and_equalities_kept() -> None:
    matrix = sp.csr_matrix(np.array([[1.0, 1.0], [2.0, 1.0], [1.0, -1.0]]))
    less, rhs, equality = constraints.less_equal_form(matrix, np.array([1.0, -np.inf, 0.0]), np.array([np.inf, 4.0, 0.0]))
    assert less.toarray().tolist() == [[-1.0, -1.0], [2.0, 1.0], [1.0, -1.0]]
    assert rhs.tolist() == [-1.0, 4.0, 0.0] and equality.tolist() == [False, False, True]


def tiny_cover() -> MILPInstance:
    """min x0 + x1 + 2 x2 s.t. x0 + x1 >= 1, x1 + x2 >= 1, x0 + x2 >= 1 (optimum 2: x0 = x1 = 1)."""
    matrix = sp.csr_matrix(np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0]]))
    return MILPInstance(
        "cover", "min", np.array([1.0, 1.0, 2.0]), matrix, np.ones(3), np.full(3, np.inf), np.zeros(3), np.ones(3),
        np.ones(3, dtype=bool), ("x0", "x1", "x2"), ("r0", "r1", "r2"),
    )  # fmt: skip


def test_tight_rows_and_a_type_balanced_budgeted_selection() -> None:
    rows = features.analyse_instance(tiny_cover())
    solutions = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0]])
    tight = labels.tight_rows(rows, solutions)
    assert tight.tolist() == [[False, True, True], [False, False, False]]
    share = np.array([1.0, 0.95, 0.5])
    chosen = labels.select_ctc(rows, share, budget=0.3)  # one row of three: the one tight in more solutions
    assert chosen.tolist() == [True, False, False]
    share = np.array([1.0, 1.0, 0.5])
    chosen = labels.select_ctc(rows, share, budget=0.3)  # rows 0 and 1 tie on gain and share: both are kept
    assert chosen.tolist() == [True, True, False]


def test_labels_from_scip_mark_rows_tight_in_its_best_solutions() -> None:
    instance = tiny_cover()
    result = labels.make_labels(instance, features.analyse_instance(instance), time_limit=5.0)
    assert result is not None and result.objectives[0] == pytest.approx(2.0)
    assert result.marginals[:2].min() > 0.5 and result.marginals[2] < 0.5
    assert result.ctc.any() and not result.ctc[0]  # r0 (x0 + x1 = 2) is slack in the optimum


def test_a_pool_over_seeds_holds_distinct_solutions_best_first() -> None:
    instance = milp_setcover("pool", 3, rows=150, cols=100).instance
    one_values, one_objectives = labels.solve_pool(instance, time_limit=5.0)
    values, objectives = labels.solve_pool(instance, time_limit=5.0, seeds=3)
    assert len(np.unique(np.round(values, 6), axis=0)) == len(values) <= labels.KEEP
    assert np.all(np.diff(objectives) >= 0) and objectives[0] <= one_objectives[0] + 1e-9  # set cover minimises
    assert np.all(objectives <= objectives[0] * (1 + labels.QUALITY) + 1e-9)
    assert np.allclose(values @ instance.objective + instance.offset, objectives)


def test_graph_has_the_objective_node_and_lp_features() -> None:
    instance = tiny_cover()
    rows = features.analyse_instance(instance)
    graph = features.build_graph(instance, rows, features.lp_relaxation(instance))
    assert graph.variables.shape == (3, features.VARIABLE_FEATURES)
    assert graph.constraints.shape == (4, features.CONSTRAINT_FEATURES)
    assert graph.edges.shape[1] == 6 + 3  # six coefficients and three objective edges
    assert int(graph.constraint_type[-1]) == features.OBJECTIVE_TYPE and not bool(graph.inequality[-1])


@pytest.mark.parametrize(("abstract", "message"), [(True, "mlp"), (False, "mlp"), (True, "linear")])
def test_network_fits_one_instance(abstract: bool, message: str) -> None:
    instance = tiny_cover()
    rows = features.analyse_instance(instance)
    graph = features.build_graph(instance, rows, features.lp_relaxation(instance))
    torch.manual_seed(0)
    net = model.CTCNet(model.ModelConfig(dim=16, layers=2, heads=2, abstract=abstract, message=message))
    marginals, ctc = torch.tensor([1.0, 1.0, 0.0]), torch.tensor([False, True, True, False])
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    first = model.loss(net(graph), graph, marginals, ctc).item()
    for _ in range(150):
        value = model.loss(net(graph), graph, marginals, ctc)
        optimizer.zero_grad()
        value.backward()
        optimizer.step()
    assert value.item() < 0.1 * first
    variable_logits, constraint_logits = net(graph)
    assert ((variable_logits > 0) == (marginals > 0.5)).all()


def test_the_linear_message_is_a_node_projection_plus_the_weighted_edge_vector() -> None:
    """HalfConv("linear"): the mean over a target's edges of ReLU(W x_source + b + weight * u), then the
    update; the same numbers computed by hand, edge by edge."""
    torch.manual_seed(0)
    conv = model.HalfConv(4, "linear")
    source, target = torch.randn(3, 4), torch.randn(2, 4)
    edges, weights = torch.tensor([[0, 1, 2, 2], [0, 0, 1, 0]]), torch.tensor([0.5, -1.0, 2.0, 0.25])
    by_hand = torch.zeros(2, 4)
    for t in range(2):
        into = [k for k in range(4) if int(edges[1, k]) == t]
        messages = [torch.relu(conv.source(source[int(edges[0, k])]) + weights[k] * conv.edge.weight[:, 0]) for k in into]
        by_hand[t] = torch.stack(messages).mean(0)
    expected = conv.norm(target + conv.update_mlp(torch.cat([target, by_hand], -1)))
    assert torch.allclose(conv(source, target, edges, weights), expected, atol=1e-6)
    with pytest.raises(ValueError, match="mlp or linear"):
        model.HalfConv(4, "attention")


def test_a_checkpoint_folder_replaces_the_shipped_checkpoints(tmp_path) -> None:
    net = model.CTCNet(model.ModelConfig(dim=8, layers=1, heads=2, message="linear"))
    checkpoint.export(net, tmp_path / "cover.pt", {"signature": [0.0]})
    solver = get_solver("ps-scip").load()(checkpoints=str(tmp_path))
    solver.setup()
    assert list(solver.models) == ["cover"] and solver.models["cover"][0].config.message == "linear"
    empty = get_solver("ps-scip").load()(checkpoints=str(tmp_path / "none"))
    with pytest.raises(ValueError, match="no checkpoint"):
        empty.setup()


def test_the_ladder_fixes_the_most_confident_columns_narrowest_rung_first(monkeypatch) -> None:
    rows = features.analyse_instance(tiny_cover())
    monkeypatch.setattr(reduce, "RUNGS", (1.0, 0.34, 0.3))
    trust = reduce.Trust(zeros=0.7, ones=0.7, rows=0.05, releases=0.2)
    rungs = reduce.ladder(np.array([0.9, 0.8, 0.1]), np.array([0.1, 0.9, 0.9]), rows, trust)
    # the first rung is the calibrated one, then the RUNGS below it (ones in proportion); zeros only below 0.5,
    # ones only above; the third rung (0.3 of three binaries) fixes nothing and is left out
    assert [r.zeros.tolist() for r in rungs] == [[2], [2]]
    assert [r.ones.tolist() for r in rungs] == [[0, 1], [0]]
    assert rungs[0].rows.tolist() == []  # 5% of three rows rounds down to none
    trust = reduce.Trust(zeros=0.7, ones=0.7, rows=1.0, releases=0.2)
    rungs = reduce.ladder(np.array([0.9, 0.8, 0.1]), np.array([0.1, 0.9, 0.7]), rows, trust)
    assert rungs[0].rows.tolist() == [1, 2] and rungs[0].releases == 1
    assert reduce.ladder(np.array([0.9, 0.8, 0.1]), None, rows, trust)[0].rows.tolist() == []


def test_a_card_without_calibration_gets_the_default_trust() -> None:
    assert reduce.Trust.from_card({}) == reduce.DEFAULT
    card = {"calibration": {"trust": {"zeros": 0.5, "ones": 0.05, "rows": 0.0, "releases": 0.2}}}
    assert reduce.Trust.from_card(card) == reduce.Trust(0.5, 0.05, 0.0, 0.2)


def test_calibration_trusts_as_far_as_the_dev_errors_allow(monkeypatch) -> None:
    """Six binaries, best solution x = (1, 1, 0, 0, 0, 0) on a cover with rows x0 + x1 >= 1 (slack 1) and
    x0 + x2 >= 1 (tight). Marginals rank the zeros right except that x1, at 1, is ranked below x2: fixing
    more than 3 of the 6 binaries to 0 cuts x1 (half the support)."""
    instance = MILPInstance(
        "six", "min", np.ones(6), sp.csr_matrix(np.array([[1.0, 1, 0, 0, 0, 0], [1.0, 0, 1, 0, 0, 0]])),
        np.ones(2), np.full(2, np.inf), np.zeros(6), np.ones(6), np.ones(6, dtype=bool),
        tuple(f"x{j}" for j in range(6)), ("r0", "r1"),
    )  # fmt: skip
    monkeypatch.setattr(calibrate, "ROW_GRID", (1.0, 0.5))
    rows = features.analyse_instance(instance)
    best = np.array([1.0, 1, 0, 0, 0, 0])
    marginals = np.array([0.9, 0.3, 0.35, 0.1, 0.1, 0.1])
    errors = calibrate.measure("one", rows, best, marginals, ctc=np.array([0.8, 0.9]))  # the tight row first
    assert errors.support == 2 and errors.recall_one == 0.5 and errors.recall_zero == 1.0
    assert errors.zeros[calibrate.GRID.index(0.65)] == 0.0 and errors.zeros[calibrate.GRID.index(0.7)] == 0.5
    assert errors.ones == [0.0] * len(calibrate.GRID)  # only x0 is above 0.5, and it is 1
    assert errors.rows == [0.5, 0.0]
    assert calibrate.choose([errors]) == reduce.Trust(zeros=0.65, ones=0.95, rows=0.5, releases=calibrate.RELEASES)
    wrong = calibrate.measure("two", rows, best, marginals, ctc=np.array([0.9, 0.8]))  # the slack row first
    assert wrong.rows == [0.5, 1.0]
    assert calibrate.choose([errors, wrong]).rows == 0.0  # too many forced rows not tight: the constraint part is off


def test_big_m_model_fixes_columns_and_budgets_the_released_rows() -> None:
    instance = tiny_cover()
    rows = features.analyse_instance(instance)
    pin = reduce.Reduction(np.array([2]), np.array([0]), np.array([1, 2]), 1)
    big = reduce.big_m_model(instance, pin, rows)
    assert big.num_cols == 5 and big.num_rows == 3 + 2 + 1
    assert big.col_upper[2] == 0.0 and big.col_lower[0] == 1.0
    milp = get_problem("milp")
    optimum = reduce.big_m_start(instance, pin, rows, np.array([1.0, 1.0, 0.0]))
    assert optimum.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]  # rows 1 and 2 are tight in it: nothing released
    assert milp.evaluate(big, milp.solution_type(optimum)).feasible
    assert reduce.big_m_start(instance, pin, rows, np.array([1.0, 1.0, 1.0])).tolist() == [1.0, 1.0, 1.0, 1.0, 1.0]
    both_released = np.array([1.0, 1.0, 0.0, 1.0, 1.0])  # releasing two rows exceeds the budget of one
    assert not milp.evaluate(big, milp.solution_type(both_released)).feasible
    assert not milp.evaluate(big, milp.solution_type(np.array([1.0, 1.0, 1.0, 0.0, 0.0]))).feasible  # x2 is fixed to 0


def test_checkpoint_is_chosen_by_formulation_signature(tmp_path) -> None:
    net = model.CTCNet(model.ModelConfig(dim=8, layers=1, heads=2))
    signature = features.signature(features.analyse_instance(tiny_cover()))
    checkpoint.export(net, tmp_path / "cover.pt", {"signature": signature.tolist()})
    loaded = {"cover": checkpoint.load(tmp_path / "cover.pt")}
    assert checkpoint.nearest(loaded, signature) is not None
    other = np.zeros_like(signature)
    other[constraints.TYPES.index("general")] = 1.0
    assert checkpoint.nearest(loaded, other) is None


@pytest.mark.parametrize(("name", "params"), [("ctc-scip", {}), ("ctc-scip", {"form": "indicator"}), ("ps-scip", {}), ("ctc-highs", {})])
def test_an_infeasible_reduction_falls_back_to_the_original_model(name: str, params: dict[str, str], monkeypatch) -> None:
    """Every column fixed to 0 leaves the reduced cover infeasible; the solver still ends with the proven
    optimum of the original model, and every solution it gives is feasible there."""
    instance = tiny_cover()
    signature = features.signature(features.analyse_instance(instance))
    monkeypatch.setattr(reduce, "DEFAULT", reduce.Trust(zeros=1.0, ones=0.0, rows=0.05, releases=0.2))
    monkeypatch.setattr(reduce, "RUNGS", ())
    torch.manual_seed(0)
    net = model.CTCNet(model.ModelConfig(dim=8, layers=1, heads=2)).eval()
    with torch.no_grad():  # marginals ~ 0 for every column
        net.variable_head[-1].bias.fill_(-20.0)
        net.variable_head[-1].weight.zero_()
    solver = get_solver(name).load()(slice=0, **params)  # no plain slice first: the reduced model runs at once
    solver.setup()
    solver.models = {"cover": (net, {"signature": signature.tolist()})}
    rungs, _ = solver._ladder(instance, Clock(4.0))
    assert len(rungs) == 1 and len(rungs[0].zeros) == 3 and len(rungs[0].ones) == 0
    found = list(solver.solve(instance, Budget(time_limit=4.0)))
    assert found and isinstance(found[-1], Proven)
    milp = get_problem("milp")
    assert milp.evaluate(instance, found[-1].solution).objective == pytest.approx(2.0)
    assert all(milp.evaluate(instance, s.solution if isinstance(s, Proven) else s).feasible for s in found)


@pytest.mark.parametrize("name", ["ctc-scip", "ctc-highs"])
def test_a_reduced_model_solved_early_hands_the_rest_of_the_time_to_the_original(name: str, monkeypatch) -> None:
    """x1 fixed to 0: the reduced cover's optimum is 3 (x0 = x2 = 1), proven at once; the original model then
    has the best solution and proves 2, so the reduction never ends the search early."""
    instance = tiny_cover()
    rows = features.analyse_instance(instance)
    pin = reduce.Reduction(np.array([1]), np.array([], dtype=int), np.array([], dtype=int), 0)
    solver = get_solver(name).load()(slice=0)
    solver.setup()
    monkeypatch.setattr(solver, "_ladder", lambda instance, clock, device="cpu": ([pin], rows))
    found = list(solver.solve(instance, Budget(time_limit=4.0)))
    milp = get_problem("milp")
    objectives = [milp.evaluate(instance, s.solution if isinstance(s, Proven) else s).objective for s in found]
    assert objectives[0] == pytest.approx(3.0)
    assert isinstance(found[-1], Proven) and objectives[-1] == pytest.approx(2.0)


def test_an_easy_instance_is_solved_in_the_plain_slice_without_a_prediction(monkeypatch) -> None:
    solver = get_solver("ctc-scip").load()()
    solver.setup()
    monkeypatch.setattr(solver, "_ladder", lambda *args, **kwargs: pytest.fail("predicted for an instance SCIP had solved"))
    found = list(solver.solve(tiny_cover(), Budget(time_limit=10.0)))
    assert isinstance(found[-1], Proven)


def test_highs_phases_stop_at_their_deadline(monkeypatch) -> None:
    """The issue's overrun: a HiGHS phase given 14 s ran about 102 s. Its callbacks now interrupt it: counted in
    callbacks (a clock that ticks once per reading), not in seconds."""
    from types import SimpleNamespace

    from tests.helpers import suite_registry

    registry = suite_registry()
    instance = registry.load(registry.collection("milp-setcover-hard").entries[0])  # HiGHS needs far more than a second
    solver = load_solver_module("ctc", "solver")
    # the first reading sets HiGHS's own time limit: far away, so only the callbacks stop it (with a real limit a
    # busy machine ended the run after 8 callbacks); then the clock ticks once per reading
    ticks = itertools.chain([-1000.0], itertools.count(1))
    readings: list[float] = []
    monkeypatch.setattr(solver, "time", SimpleNamespace(monotonic=lambda: readings.append(float(next(ticks))) or readings[-1]))
    outcome = solver.Outcome()
    list(solver.highs_run(instance, Budget(time_limit=60.0), 20.5, None, outcome=outcome))
    assert not outcome.solved and 22 <= len(readings) <= 22 + 5  # read once more per callback until the deadline, then stopped


def test_calibration_takes_the_best_stored_solution_that_the_checker_accepts(tmp_path) -> None:
    """Three stored runs on a dev instance: a claimed best whose solution is infeasible (skipped), a feasible
    one with a column less than all-ones (taken), and all-ones."""
    import dataclasses

    import tomli_w

    from frontierco.registry import Registry
    from frontierco.results import ResultStore
    from tests.helpers import record

    manifests = tmp_path / "manifests"
    manifests.mkdir()
    collection = {"name": "cover", "problem": "milp", "generator": "milp-setcover", "params": {"rows": 20, "cols": 10, "density": 0.3}}
    (manifests / "cover.toml").write_text(tomli_w.dumps(collection | {"instance": [{"name": "d0", "split": "dev", "seed": 5}]}))
    registry = Registry(manifests)
    instance = registry.load(registry.collection("cover").entry("d0"))
    milp = get_problem("milp")
    ones = np.ones(instance.num_cols)
    fewer = next(
        x
        for j in range(instance.num_cols)
        if milp.evaluate(instance, milp.solution_type(x := np.where(np.arange(instance.num_cols) == j, 0.0, 1.0))).feasible
    )
    store = ResultStore(tmp_path / "runs")
    for tag, values in (("bad", np.zeros(instance.num_cols)), ("fewer", fewer), ("ones", ones)):
        run = record(tag, "d0", "feasible", float(instance.objective @ values) - (100.0 if tag == "bad" else 0.0), [(1.0, 0.0)])
        run = dataclasses.replace(run, problem="milp", collection="cover", instance_key="cover/d0")
        run.solution_file = store.save_solution("cover", run.run_id, {"x": values.tolist()})
        store.append(run)
    ((name, _, best),) = calibrate.best_solutions(registry, store, "cover", "dev")
    assert name == "d0" and best.tolist() == fewer.tolist()


def test_forced_rows_that_do_not_improve_on_the_best_are_dropped(monkeypatch) -> None:
    """A rung with forced rows solved to an optimum no better than the best: the same rung is tried again
    without them, and the next rung has none either."""
    instance = tiny_cover()
    rows = features.analyse_instance(instance)
    with_rows = [reduce.Reduction(np.array([], dtype=int), np.array([], dtype=int), np.array([0]), 0)]
    with_rows.append(reduce.Reduction(np.array([1]), np.array([], dtype=int), np.array([0]), 0))
    solver = get_solver("ctc-scip").load()()
    solver.setup()
    monkeypatch.setattr(solver, "_ladder", lambda instance, clock, device="cpu": (with_rows, rows))
    tried = []

    def solved_without_improving(instance, budget, rung, rows, best, deadline, outcome):  # type: ignore[no-untyped-def]
        tried.append(len(rung.rows))
        outcome.solved, outcome.feasible = True, True
        yield from ()

    monkeypatch.setattr(solver, "_rung", solved_without_improving)
    best = solver_module._Best(instance)
    assert list(solver._reduced(instance, Budget(time_limit=4.0), Clock(4.0), best)) == []
    assert tried == [1, 0, 0]


def test_reduced_models_are_searched_as_scip_searches_its_own_neighbourhoods() -> None:
    """Without cutting planes and without strong branching for a reduced model (``neighbourhood``); the
    original model keeps SCIP's defaults, and it still solves the instance to the same optimum."""
    instance = tiny_cover()
    plain = solver_module.scip_search(instance, Budget(time_limit=4.0), False)
    reduced = solver_module.scip_search(instance, Budget(time_limit=4.0), False, neighbourhood=True)
    for separator in ("separating/gomory/freq", "separating/zerohalf/freq", "constraints/logicor/sepafreq"):
        assert plain.model.getParam(separator) >= 0 and reduced.model.getParam(separator) == -1
    assert plain.model.getParam("branching/relpscost/maxreliable") > 0
    assert reduced.model.getParam("branching/relpscost/maxreliable") == 0
    for search in (plain, reduced):
        list(search.run(until=4.0))
        assert search.model.getStatus() == "optimal" and search.model.getObjVal() == pytest.approx(2.0)


def test_an_unknown_subsolve_setting_is_refused() -> None:
    solver = get_solver("ps-scip").load()(subsolve="fast")
    with pytest.raises(ValueError, match="subsolve"):
        solver.setup()


@pytest.mark.parametrize(("family", "size", "columns", "rows_named"), [("indset", "hard", 1500, "c0"), ("cauction", "hard", 1500, "item_")])
def test_training_instances_are_made_as_their_collection_makes_its_own(family: str, size: str, columns: int, rows_named: str) -> None:
    """Training at the target size: the hard collection's generator and parameters, with the training seeds."""
    train = load_solver_module("ctc", "train")
    instance = train.family_instance(family, train.TRAIN_SEED, size)
    assert instance.num_cols == columns and instance.row_names[0].startswith(rows_named)
    assert train.family_instance(family, train.TRAIN_SEED).num_cols < columns  # the default stays the easy size


def test_tuning_candidates_are_the_rule_the_default_and_halfway() -> None:
    rule = {"zeros": 0.3, "ones": 0.0, "rows": 0.2, "releases": 0.2}
    found = tune.candidates({"calibration": {"trust": rule}})
    assert found["rule"] == reduce.Trust(**rule) and found["default"] == reduce.DEFAULT
    assert found["middle"] == reduce.Trust(zeros=0.55, ones=0.05, rows=0.125, releases=0.2)
    tuned = {"calibration": {"trust": {"zeros": 0.8, "ones": 0.1, "rows": 0.05, "releases": 0.2}, "rule_trust": rule}}
    assert tune.candidates(tuned)["rule"] == reduce.Trust(**rule)  # a tuned card still offers the rule's trust
    with pytest.raises(ValueError, match="--calibrate before --tune"):
        tune.candidates({"family": "cover"})


def test_tuning_chooses_the_lowest_mean_integral_and_the_first_of_equals() -> None:
    assert tune.choose({"rule": {"a": 0.1, "b": 0.3}, "default": {"a": 0.2, "b": 0.1}}) == "default"
    assert tune.choose({"rule": {"a": 0.2}, "default": {"a": 0.2}, "middle": {"a": 0.3}}) == "rule"


def test_tuning_goes_one_step_past_a_winning_default_then_tries_the_winner_without_its_rows() -> None:
    rule = reduce.Trust(zeros=0.3, ones=0.0, rows=0.2, releases=0.2)
    trusts = {"rule": rule, "default": reduce.DEFAULT, "middle": reduce.Trust(0.55, 0.05, 0.125, 0.2)}
    measured = {"rule": {"a": 0.1}, "default": {"a": 0.3}, "middle": {"a": 0.2}}
    assert tune.further(trusts, measured) == ("rows-off", reduce.Trust(zeros=0.3, ones=0.0, rows=0.0, releases=0.2))
    measured["rows-off"], trusts["rows-off"] = {"a": 0.05}, reduce.Trust(0.3, 0.0, 0.0, 0.2)
    assert tune.further(trusts, measured) is None  # the rows are off: nothing further
    measured = {"rule": {"a": 0.3}, "default": {"a": 0.1}, "middle": {"a": 0.2}}
    assert tune.further(trusts, measured) == ("wide", tune.WIDE)  # the default won: one step further
    measured["wide"], trusts["wide"] = {"a": 0.2}, tune.WIDE
    assert tune.further(trusts, measured) == ("rows-off", reduce.Trust(zeros=0.8, ones=0.1, rows=0.0, releases=0.2))
    measured["rows-off"] = {"a": 0.4}
    assert tune.further(trusts, measured) is None  # the default with its rows stays chosen
    assert tune.further({"rule": reduce.Trust(0.3, 0.0, 0.0, 0.2)}, {"rule": {"a": 0.1}}) is None


@pytest.mark.slow
def test_tuning_runs_each_candidate_under_the_harness_and_writes_the_chosen_trust(tmp_path) -> None:
    """A tiny cover collection with one dev instance and its reference: each candidate runs ctc-scip once
    under the harness; the card gets the lowest-integral trust and the measurements; tuning again reruns
    nothing."""
    import tomli_w

    from frontierco.registry import Registry
    from frontierco.results import ResultStore

    manifests = tmp_path / "manifests"
    manifests.mkdir()
    params = {"rows": 30, "cols": 15, "density": 0.3}
    collection = {"name": "cover", "problem": "milp", "generator": "milp-setcover", "params": params}
    entry = {"name": "d0", "split": "dev", "seed": 5, "reference": 1.0, "reference_source": "test", "reference_status": "best-known"}
    (manifests / "cover.toml").write_text(tomli_w.dumps(collection | {"instance": [entry]}))
    registry = Registry(manifests)
    instance = registry.load(registry.collection("cover").entry("d0"))
    net = model.CTCNet(model.ModelConfig(dim=8, layers=1, heads=2, message="linear"))
    rule = {"zeros": 0.2, "ones": 0.0, "rows": 0.0, "releases": 0.2}
    signature = features.signature(features.analyse_instance(instance)).tolist()
    card = {"family": "cover", "signature": signature, "calibration": {"trust": rule}}
    checkpoint.export(net, tmp_path / "ckpt" / "cover.pt", card)
    store = ResultStore(tmp_path / "runs")
    tuning = tune.tune(tmp_path / "ckpt" / "cover.pt", "cover", "dev", store, registry, Context(), seconds=1.0)
    measured = tuning["integrals"]
    assert {"rule", "default", "middle"} <= set(measured) and all(set(v) == {"d0"} for v in measured.values())
    first = {name: measured[name] for name in ("rule", "default", "middle")}
    assert ("wide" in measured) == (tune.choose(first) == "default")
    written = json.loads((tmp_path / "ckpt" / "cover.json").read_text())["calibration"]
    assert written["trust"] == tuning["candidates"][tune.choose(measured)] and written["rule_trust"] == rule
    assert len(list(store.records("cover"))) == len(measured)
    tune.tune(tmp_path / "ckpt" / "cover.pt", "cover", "dev", store, registry, Context(), seconds=1.0)
    assert len(list(store.records("cover"))) == len(measured)  # resumed: every candidate's run was already recorded


@pytest.mark.parametrize("family", ["setcover", "cauction", "facility", "indset"])
def test_each_shipped_checkpoint_is_chosen_for_its_family_with_its_tuned_trust(family: str) -> None:
    train = load_solver_module("ctc", "train")
    models = {path.stem: checkpoint.load(path) for path in sorted(checkpoint.SHIPPED.glob("*.pt"))}
    instance = train.family_instance(family, 99, "easy")
    chosen = checkpoint.nearest(models, features.signature(features.analyse_instance(instance)))
    assert chosen is not None and chosen[1]["family"] == family
    calibration = chosen[1]["calibration"]  # every shipped family is calibrated, then tuned on its hard dev split
    tuning = calibration["tuning"]
    assert calibration["trust"] == tuning["candidates"][tuning["chosen"]] and tuning["chosen"] == tune.choose(tuning["integrals"])
    assert reduce.Trust.from_card(chosen[1]) == reduce.Trust(**calibration["trust"])


def _rung_decisions(name: str, stall_nodes: int) -> tuple[list[float], object]:
    """One rung of the whole model (nothing fixed) on a set cover that neither backend solves at once: the
    objectives it yields and how it ended (solved, feasible, stalled, nodes), the facts the ladder decides on."""
    instance = milp_setcover("rung", 3, 400, 200, density=0.05).instance
    solver = get_solver(name).load()(stall_nodes=stall_nodes)
    solver.setup()
    whole = reduce.Reduction(np.array([], dtype=int), np.array([], dtype=int), np.array([], dtype=int), 0)
    best, outcome = solver_module._Best(instance), solver_module.Outcome()
    rows = features.analyse_instance(instance)
    found = solver._rung(instance, Budget(time_limit=600.0), whole, rows, best, time.monotonic() + 600.0, outcome)
    return [float(instance.objective @ values) for values in found], outcome


def _under_a_cpu_hog(measure: Callable[[], object]) -> object:
    """``measure()`` while busy-loop processes (one per core) compete for the CPU."""
    import os
    import subprocess
    import sys

    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    try:
        return measure()
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@pytest.mark.parametrize("name", ["ctc-scip", pytest.param("ctc-highs", marks=pytest.mark.slow)])
def test_a_rung_takes_the_same_decisions_under_a_cpu_hog(name: str) -> None:
    """The stall rule counts the solver's own nodes, not wall-clock time: the same rung run alone and under a
    CPU hog yields the same solutions and ends the same way (here by the stall rule, after the same nodes)."""
    stall = 30 if name == "ctc-scip" else 2
    alone = _rung_decisions(name, stall)
    loaded = _under_a_cpu_hog(lambda: _rung_decisions(name, stall))
    assert alone[1].stalled and alone[1].feasible and not alone[1].solved  # the stall rule is what ended it
    assert loaded == alone


def test_the_stall_is_refused_in_seconds() -> None:
    with pytest.raises(ValueError, match="stall_nodes"):
        get_solver("ctc-scip").load()(stall=5).setup()
