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
colony = load_solver_module("deepaco", "colony")
sparse = load_solver_module("deepaco", "sparse")


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
    assert eta.min() >= colony.EPS and eta.max() <= 1 + colony.EPS and not (eta > colony.EPS).diagonal().any()


def test_the_heatmap_prefers_short_edges(store: FileStore) -> None:
    """A trained heatmap puts more weight on the edges of a near-optimal tour than on other candidate edges."""
    points = np.random.default_rng(0).random((100, 2))
    eta = solver_module.heuristic_matrix(solver_module.load_network("tsp", 100, store), points, np.eye(100)[0], "tsp")
    from frontierco.kit.tour_search import TourCosts, candidates, two_opt

    costs = TourCosts.of(TSPInstance("t", EdgeWeights("EXACT_2D", coords=points)))
    assert costs is not None
    tour = two_opt(np.arange(100), costs, candidates(costs, points, 99))  # about 5% above optimal
    on_tour = eta[tour, np.roll(tour, -1)]
    candidates = eta[eta > colony.EPS]
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


def test_sparse_ants_build_tours_on_the_candidate_lists_and_deposit_on_graph_edges() -> None:
    points = np.random.default_rng(2).random((40, 2))
    candidates = np.argsort(np.linalg.norm(points[:, None] - points[None], axis=2), axis=1)[:, 1:6]
    weights = np.random.default_rng(3).random(candidates.shape)
    tours = sparse.construct_tours(candidates, weights, points, 0, 4, 7)
    assert all(t[0] == 0 and sorted(t.tolist()) == list(range(40)) for t in tours)
    assert np.array_equal(tours, sparse.construct_tours(candidates, weights, points, 0, 4, 7))
    followed = [(candidates[t[:-1]] == t[1:, None]).any(1).mean() for t in tours]
    assert min(followed) > 0.7  # most steps go to a candidate; the rest to the nearest unvisited node
    pheromone = np.ones(candidates.shape)
    sparse.deposit_tours(pheromone, candidates, tours[:1], np.array([2.0]), 0.9)
    u, v = tours[0], np.roll(tours[0], -1)
    for a, b in [*zip(u, v, strict=True), *zip(v, u, strict=True)]:
        slot = np.flatnonzero(candidates[a] == b)
        assert not slot.size or np.isclose(pheromone[a, slot[0]], 1.4)
    assert np.isclose(pheromone.min(), 0.9)


def test_the_sparse_perturbation_makes_at_most_its_moves_on_the_heuristic_distance() -> None:
    points = np.random.default_rng(4).random((60, 2))
    candidates = np.argsort(np.linalg.norm(points[:, None] - points[None], axis=2), axis=1)[:, 1:9]
    eta = np.random.default_rng(5).random(candidates.shape)
    tours = sparse.construct_tours(candidates, eta, points, 0, 1, 0)
    perturb = colony.SparseTours(candidates, eta, points).perturber(3)
    assert np.array_equal(colony.SparseTours(candidates, eta, points).perturber(0)(tours[0]), tours[0])
    moved = perturb(tours[0])
    assert sorted(moved.tolist()) == list(range(60)) and not np.array_equal(moved, tours[0])
    changed = {frozenset(e) for e in zip(moved, np.roll(moved, -1), strict=True)} - {
        frozenset(e) for e in zip(tours[0], np.roll(tours[0], -1), strict=True)
    }
    assert 0 < len(changed) <= 2 * 3  # each 2-opt move brings two edges in


def test_sparse_cvrp_ants_respect_the_capacity_and_deposit_on_the_depot_legs() -> None:
    rng = np.random.default_rng(6)
    points = rng.random((31, 2))
    demand = np.append(0.0, rng.integers(1, 10, 30) / 20)
    graph = colony.Graph(31, *_cvrp_graph(points, 5))
    routes_colony = colony.SparseRoutes.of(graph)
    visits = routes_colony.construct(demand, 6, 0)
    for row in visits:
        routes = [r.tolist() for r in depot_routes(row)]
        assert sorted(c for r in routes for c in r) == list(range(1, 31))
        assert all(demand[r].sum() <= 1 + 1e-9 for r in routes)
    routes_colony.deposit(visits[:1], np.array([4.0]), 0.5)
    path = visits[0][visits[0] >= 0]
    firsts = path[1:][path[:-1] == 0]
    assert np.allclose(routes_colony.leave[firsts[firsts > 0]], 0.75) and np.isclose(routes_colony.leave.max(), 0.75)


def _cvrp_graph(points: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """A CVRP graph laid out as ``solver.sparse_graph`` (customers' k nearest, depot out, depot in), random scores."""
    n = len(points)
    near = np.argsort(np.linalg.norm(points[1:, None] - points[None, 1:], axis=2), axis=1)[:, 1 : k + 1] + 1
    source = np.concatenate([np.repeat(np.arange(1, n), k), np.zeros(n - 1, dtype=np.int64), np.arange(1, n)])
    target = np.concatenate([near.ravel(), np.arange(1, n), np.zeros(n - 1, dtype=np.int64)])
    return np.stack([source, target]), np.random.default_rng(7).random(len(source))


@pytest.mark.parametrize("problem", ["tsp", "cvrp"])
def test_above_the_dense_size_the_solver_runs_on_the_sparse_graph(store: FileStore, monkeypatch: pytest.MonkeyPatch, problem: str) -> None:
    """Past DENSE_NODES no n x n matrix is built (the dense layout would fail here), and the solutions stay feasible
    and improving; CVRP's local search is then each route's 2-opt."""
    monkeypatch.setattr(solver_module, "FileStore", lambda: store)
    monkeypatch.setattr(solver_module, "DENSE_NODES", 40)
    monkeypatch.setattr(colony.Graph, "dense", lambda self: pytest.fail("a dense matrix above DENSE_NODES"))
    instance = (
        generate("tsp-uniform", "t120", 3, {"n": 120}).instance
        if problem == "tsp"
        else generate("cvrp-uniform", "c100", 2, {"n": 100}).instance
    )
    solver = solver_module.DeepAco(ants=8)
    solver.setup()
    solutions = list(solver.solve(instance, Budget(time_limit=3.0, seed=0)))
    evaluations = [get_problem(problem).evaluate(instance, s) for s in solutions]
    assert len(evaluations) >= 2 and all(e.feasible for e in evaluations), [e.reason for e in evaluations]
    lengths = [e.objective for e in evaluations]
    assert all(b < a for a, b in zip(lengths, lengths[1:], strict=False))


def test_each_route_gets_its_own_two_opt_and_keeps_its_customers() -> None:
    instance = generate("cvrp-uniform", "c50", 4, {"n": 50}).instance
    routes = [list(range(1, 18)), list(range(18, 35)), list(range(35, 51))]
    improved = solver_module.two_opt_routes(instance, routes)
    assert [sorted(r) for r in improved] == routes
    length = lambda rs: routes_length(instance.weights, [np.asarray(r) for r in rs])  # noqa: E731
    assert length(improved) < length(routes)
