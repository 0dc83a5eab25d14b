"""DeepACO with its authors' weights: strict loading of every published network, the heuristic matrix on a tiny
instance, the ant system's pieces, and the solver under the anytime contract."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

from frontierco.filestore import FileStore  # noqa: E402
from frontierco.kit.solverkit import depot_routes  # noqa: E402
from frontierco.problems import TSPInstance, get_problem  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.problems.routing.cvrp import routes_length  # noqa: E402
from frontierco.problems.routing.distances import EdgeWeights  # noqa: E402
from frontierco.solver import Budget, load_solver_module  # noqa: E402

solver_module = load_solver_module("deepaco", "solver")
ants = load_solver_module("deepaco", "ants")


@pytest.mark.parametrize("problem, size", sorted(solver_module.WEIGHTS))
def test_every_published_network_loads_strictly_and_scores_the_sparse_graph(store: FileStore, problem: str, size: int) -> None:
    network = solver_module.load_network(problem, size, store)
    rng = np.random.default_rng(size)
    points = rng.random((51, 2))
    node_input = np.eye(51)[0] if problem == "tsp" else np.append(0.0, rng.integers(1, 10, 50) / 50)
    eta = solver_module.heuristic_matrix(network, points, node_input, problem)
    assert eta.shape == (51, 51) and np.isfinite(eta).all()
    assert np.array_equal(eta, solver_module.heuristic_matrix(network, points, node_input, problem))
    edges, _ = solver_module.sparse_graph(points, problem)
    assert edges.shape[1] == (51 * 10 if problem == "tsp" else 50 * 10 + 2 * 50)
    assert eta.min() >= solver_module.EPS and eta.max() <= 1 + solver_module.EPS and not (eta > solver_module.EPS).diagonal().any()


def test_the_heatmap_prefers_short_edges(store: FileStore) -> None:
    """A trained heatmap puts more weight on the edges of a near-optimal tour than on other candidate edges."""
    points = np.random.default_rng(0).random((100, 2))
    eta = solver_module.heuristic_matrix(solver_module.load_network("tsp", 100, store), points, np.eye(100)[0], "tsp")
    from frontierco.kit.tour_search import TourCosts, candidates, two_opt

    costs = TourCosts.of(TSPInstance("t", EdgeWeights("EXACT_2D", coords=points)))
    assert costs is not None
    tour = two_opt(np.arange(100), costs, candidates(costs, points, 99))  # about 5% above optimal
    on_tour = eta[tour, np.roll(tour, -1)]
    candidates = eta[eta > solver_module.EPS]
    assert on_tour.mean() > 1.5 * candidates.mean()


def test_ants_build_tours_from_the_start_and_deposit_on_both_directions() -> None:
    weights = np.random.default_rng(1).random((30, 30))
    tours = ants.construct(weights, 0, 5, 7)
    assert all(t[0] == 0 and sorted(t.tolist()) == list(range(30)) for t in tours)
    assert np.array_equal(tours, ants.construct(weights, 0, 5, 7))
    pheromone = np.ones((30, 30))
    ants.deposit(pheromone, tours[:1], np.array([2.0]), 0.9)
    u, v = tours[0], np.roll(tours[0], -1)
    assert np.allclose(pheromone[u, v], 1.4) and np.allclose(pheromone, pheromone.T)


@pytest.mark.parametrize("local_search", ["nls", "none"])
def test_solver_yields_improving_tours_costed_as_the_checker(store: FileStore, monkeypatch: pytest.MonkeyPatch, local_search: str) -> None:
    monkeypatch.setattr(solver_module, "FileStore", lambda: store)
    instance = generate("tsp-uniform", "t120", 3, {"n": 120}).instance
    solver = solver_module.DeepAco(ants=8, local_search=local_search)
    solver.setup()
    solutions = list(solver.solve(instance, Budget(time_limit=2.0, seed=0)))
    evaluations = [get_problem("tsp").evaluate(instance, s) for s in solutions]
    assert evaluations and all(e.feasible for e in evaluations)
    lengths = [e.objective for e in evaluations]
    assert all(b < a for a, b in zip(lengths, lengths[1:], strict=False))


def test_cvrp_ants_respect_the_capacity_and_visit_every_customer_once() -> None:
    rng = np.random.default_rng(3)
    demand = np.append(0.0, rng.integers(1, 10, 30) / 20)
    visits = ants.construct_routes(rng.random((31, 31)), demand, 6, 0)
    for row in visits:
        routes = [r.tolist() for r in depot_routes(row)]
        assert sorted(c for r in routes for c in r) == list(range(1, 31))
        assert all(demand[r].sum() <= 1 + 1e-9 for r in routes)
        assert np.array_equal(solver_module.visits_of(routes, len(row)), row)
    pheromone = np.ones((31, 31))
    ants.deposit_routes(pheromone, visits[:1], np.array([4.0]), 0.5)
    path = visits[0][visits[0] >= 0]
    assert np.allclose(pheromone[path[:-1], path[1:]], 0.75) and pheromone.sum() > 0.5 * 31 * 31


@pytest.mark.parametrize("local_search", ["nls", "none"])
def test_cvrp_solver_yields_improving_feasible_solutions(store: FileStore, monkeypatch: pytest.MonkeyPatch, local_search: str) -> None:
    monkeypatch.setattr(solver_module, "FileStore", lambda: store)
    instance = generate("cvrp-uniform", "c50", 2, {"n": 50}).instance
    solver = solver_module.DeepAco(local_search=local_search)
    solver.setup()
    solutions = list(solver.solve(instance, Budget(time_limit=3.0, seed=0)))
    evaluations = [get_problem("cvrp").evaluate(instance, s) for s in solutions]
    assert evaluations and all(e.feasible for e in evaluations), [e.reason for e in evaluations]
    lengths = [e.objective for e in evaluations]
    assert all(b < a for a, b in zip(lengths, lengths[1:], strict=False))
    assert routes_length(instance.weights, list(solutions[-1].routes)) == pytest.approx(lengths[-1])


def test_an_unknown_local_search_is_refused() -> None:
    with pytest.raises(ValueError, match="local_search"):
        solver_module.DeepAco(local_search="lk").setup()


def test_the_first_tsp_tour_is_a_nearest_neighbour_one_yielded_before_the_network_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    from frontierco.kit.solverkit import nearest_neighbour

    instance = generate("tsp-uniform", "t60", 1, {"n": 60}).instance
    monkeypatch.setattr(solver_module, "heuristic_matrix", lambda *args, **kwargs: pytest.fail("the network ran before the first tour"))
    solver = solver_module.DeepAco()
    solver.setup()
    first = next(iter(solver.solve(instance, Budget(time_limit=3.0, seed=4))))
    start = int(np.random.default_rng(4).integers(60))
    assert np.array_equal(first.tour, nearest_neighbour(instance.weights, start))
