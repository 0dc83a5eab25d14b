"""DIMES with its authors' weights: strict loading of every published network, its heatmap on a tiny instance,
greedy tours near the paper's, and the solver under the anytime contract."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

from frontierco.filestore import FileStore  # noqa: E402
from frontierco.problems import TSPInstance, get_problem  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.problems.routing.distances import EdgeWeights  # noqa: E402
from frontierco.solver import Budget, load_solver_module  # noqa: E402

solver_module = load_solver_module("dimes", "solver")
decode = load_solver_module("dimes", "decode")


@pytest.mark.parametrize("size", sorted(solver_module.WEIGHTS))
def test_every_published_network_loads_strictly_and_scores_each_candidate_edge(store: FileStore, size: int) -> None:
    network = solver_module.load_network(size, store)
    points = np.random.default_rng(size).random((60, 2))
    neighbours, theta = solver_module.heatmap(network, points, full_graph=size == 100)
    again = solver_module.heatmap(network, points, full_graph=size == 100)[1]
    k = 59 if size == 100 else solver_module.KNN
    assert neighbours.shape == theta.shape == (60, k)
    assert np.isfinite(theta).all() and np.array_equal(theta, again)


def test_greedy_tours_of_the_published_tsp500_network_are_short(store: FileStore) -> None:
    """The paper's greedy decoding lands about 14-17% above optimal on uniform TSP-500 (optimum about 16.5);
    nearest-neighbour-like tours are about 25% above, random weights far worse."""
    network = solver_module.load_network(500, store)
    lengths = []
    for seed in range(4):
        points = np.random.default_rng(seed).random((500, 2))
        neighbours, theta = solver_module.heatmap(network, points, full_graph=False)
        tours = decode.construct(np.arange(0, 500, 10), neighbours, theta, points, 0.0, 0)
        lengths.append(min(np.linalg.norm(points[t] - points[np.roll(t, -1)], axis=1).sum() for t in tours))
    assert 17.0 < float(np.mean(lengths)) < 19.8


def test_sampling_at_temperature_zero_is_greedy_and_tours_are_permutations() -> None:
    points = np.random.default_rng(1).random((40, 2))
    neighbours = np.argsort(np.linalg.norm(points[:, None] - points[None], axis=2), axis=1)[:, 1:6]
    theta = np.random.default_rng(2).random(neighbours.shape)
    greedy = decode.construct(np.arange(4), neighbours, theta, points, 0.0, 0)
    assert np.array_equal(greedy, decode.construct(np.arange(4), neighbours, theta, points, 0.0, 9))
    sampled = decode.construct(np.arange(4), neighbours, theta, points, 1.0, 0)
    assert all(sorted(t.tolist()) == list(range(40)) for t in [*greedy, *sampled])
    assert not np.array_equal(greedy, sampled)


@pytest.mark.parametrize(
    "instance",
    [
        generate("tsp-uniform", "t120", 3, {"n": 120}).instance,
        generate("tsp-uniform", "t400", 4, {"n": 400}).instance,
        TSPInstance(
            "atsp", EdgeWeights("EXPLICIT", matrix=np.random.default_rng(1).integers(1, 30, (12, 12)) * (1 - np.eye(12, dtype=int)))
        ),
    ],
    ids=["full-graph-network", "knn-network", "atsp-without-coordinates"],
)
def test_solver_yields_improving_tours_costed_as_the_checker(
    store: FileStore, monkeypatch: pytest.MonkeyPatch, instance: TSPInstance
) -> None:
    monkeypatch.setattr(solver_module, "FileStore", lambda: store)
    solver = solver_module.Dimes(batch=16)
    solver.setup()
    solutions = list(solver.solve(instance, Budget(time_limit=3.0, seed=0)))
    evaluations = [get_problem("tsp").evaluate(instance, s) for s in solutions]
    assert evaluations and all(e.feasible for e in evaluations)
    lengths = [e.objective for e in evaluations]
    assert all(b < a for a, b in zip(lengths, lengths[1:], strict=False))


def test_the_network_is_chosen_by_measured_quality_or_forced() -> None:
    """benchmarks/dimes_networks.py: the complete-graph TSP-100 network up to 300 nodes, the TSP-10000 one above."""
    assert [solver_module.trained_size(n) for n in (20, 300, 301, 500, 1000, 20000)] == [100, 100, 10000, 10000, 10000, 10000]
    solver = solver_module.Dimes(network=500)
    solver.setup()
    assert solver.chosen == 500
    with pytest.raises(ValueError, match="network must be"):
        solver_module.Dimes(network=42).setup()


def test_the_first_tour_is_a_nearest_neighbour_one_yielded_before_the_network_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first solution comes before the heatmap (no weights are needed for it): the nearest-neighbour tour
    from the seed's start node."""
    from frontierco.kit.solverkit import nearest_neighbour

    instance = generate("tsp-uniform", "t60", 1, {"n": 60}).instance
    monkeypatch.setattr(solver_module, "heatmap", lambda *args, **kwargs: pytest.fail("the network ran before the first tour"))
    solver = solver_module.Dimes()
    solver.setup()
    first = next(iter(solver.solve(instance, Budget(time_limit=3.0, seed=4))))
    start = int(np.random.default_rng(4).integers(60))
    assert np.array_equal(first.tour, nearest_neighbour(instance.weights, start))


def test_an_instance_above_the_served_size_is_declined_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_module, "MAX_NODES", 40)
    solver = solver_module.Dimes()
    solver.setup()
    with pytest.raises(ValueError, match="serves up to 40 nodes.*this one has 60"):
        next(iter(solver.solve(generate("tsp-uniform", "t60", 3, {"n": 60}).instance, Budget(time_limit=5.0, seed=0))))
