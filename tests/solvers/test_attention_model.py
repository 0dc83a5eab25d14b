"""The Attention Model with its authors' weights: strict loading, the network's output, the solver."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from frontierco.filestore import FileStore  # noqa: E402
from frontierco.problems import TSPInstance, get_problem  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.problems.routing.distances import EdgeWeights  # noqa: E402
from frontierco.solver import Budget, load_solver_module  # noqa: E402

solver_module = load_solver_module("attention-model", "solver")


@pytest.mark.parametrize("size", [50, 100])
def test_published_weights_load_strictly_and_decode_tours(store: FileStore, size: int) -> None:
    network = solver_module.load_network("tsp", size, store)
    points = torch.from_numpy(np.random.default_rng(size).random((4, 20, 2))).float()
    with torch.no_grad():
        tours = network.decode(points)
        again = network.decode(points)
        h = network.embedder(network.init_embed(points))
    assert torch.equal(tours, again)
    assert all(sorted(t.tolist()) == list(range(20)) for t in tours)
    assert h.shape == (4, 20, 128) and bool(torch.isfinite(h).all())


def test_greedy_tours_of_the_published_weights_are_short(store: FileStore) -> None:
    """Random weights give tours far longer than nearest neighbour; the published ones land near the paper's
    greedy 8.12 on uniform TSP-100 (the optimum is about 7.76)."""
    network = solver_module.load_network("tsp", 100, store)
    points = torch.from_numpy(np.random.default_rng(0).random((32, 100, 2))).float()
    with torch.no_grad():
        tours = network.decode(points)
    ordered = points.gather(1, tours[..., None].expand(-1, -1, 2))
    length = (ordered.roll(-1, 1) - ordered).norm(dim=-1).sum(1).mean()
    assert 7.8 < float(length) < 8.4


def test_a_weights_file_with_another_checksum_is_refused(tmp_path: object) -> None:
    from frontierco.errors import RegistryError

    source = solver_module.WEIGHTS[("tsp", 50)]
    bad = tmp_path / source.path  # type: ignore[operator]
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not the weights")
    with pytest.raises(RegistryError, match="checksum"):
        FileStore(cache=tmp_path, mirror=None, offline=True).path(source)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [50, 100])
def test_published_cvrp_weights_load_strictly_and_decode_feasible_routes(store: FileStore, size: int) -> None:
    network = solver_module.load_network("cvrp", size, store)
    instance = generate("cvrp-uniform", "c20", 5, {"n": 20, "capacity": 30}).instance
    coords = torch.from_numpy(instance.weights.coords).float()[None].expand(3, -1, -1)
    demand = torch.from_numpy(instance.demands / instance.capacity).float()[None].expand(3, -1)
    with torch.no_grad():
        greedy, again = network.decode(coords, demand), network.decode(coords, demand)
        sampled = network.decode(coords, demand, sample=True, generator=torch.Generator().manual_seed(0))
    assert torch.equal(greedy, again)
    for visits in [*greedy, *sampled]:
        evaluation = get_problem("cvrp").evaluate(instance, solver_module.routes(visits.numpy()))
        assert evaluation.feasible, evaluation.reason


@pytest.mark.parametrize(
    "problem, instance",
    [
        ("tsp", generate("tsp-uniform", "t60", 3, {"n": 60}).instance),
        ("cvrp", generate("cvrp-uniform", "c50", 2, {"n": 50}).instance),
        (
            "tsp",
            TSPInstance(
                "atsp", EdgeWeights("EXPLICIT", matrix=np.random.default_rng(1).integers(1, 30, (12, 12)) * (1 - np.eye(12, dtype=int)))
            ),
        ),
    ],
    ids=["tsp", "cvrp", "atsp-without-coordinates"],
)
def test_solver_yields_improving_solutions_costed_as_the_checker(
    store: FileStore, monkeypatch: pytest.MonkeyPatch, problem: str, instance: object
) -> None:
    monkeypatch.setattr(solver_module, "FileStore", lambda: store)
    solver = solver_module.AttentionModel(samples=128)
    solver.setup()
    checker = get_problem(problem)
    solutions = list(solver.solve(instance, Budget(time_limit=5.0, seed=0)))
    evaluations = [checker.evaluate(instance, s) for s in solutions]
    assert evaluations and all(e.feasible for e in evaluations)
    lengths = [e.objective for e in evaluations]
    assert all(b < a for a, b in zip(lengths, lengths[1:], strict=False))
    assert solver_module.cost(instance, solutions[-1]) == pytest.approx(lengths[-1], rel=1e-12)


def test_rollouts_share_one_encoding_and_the_encoder_attends_in_blocks(store: FileStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver encodes an instance once and decodes every rollout from it (the same tours as decoding a batch of
    copies); the encoder's attention in blocks of query rows gives the embeddings of the whole matrix."""
    model = load_solver_module("attention-model", "model")
    network = solver_module.load_network("tsp", 50, store)
    points = torch.from_numpy(np.random.default_rng(3).random((1, 30, 2))).float()
    with torch.no_grad():
        whole = network.encode(points)
        monkeypatch.setattr(model, "ATTENTION_BLOCK", 8 * 30 * 7)  # blocks of 7 query rows
        blocked = network.encode(points)
        shared = network.rollout(blocked, 3)
        copies = network.decode(points.expand(3, -1, -1))
    assert torch.allclose(whole, blocked, atol=1e-5)
    assert torch.equal(shared, copies)


def test_an_instance_above_the_served_size_is_declined_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_module, "MAX_NODES", 40)
    solver = solver_module.AttentionModel()
    solver.setup()
    with pytest.raises(ValueError, match="serves up to 40 nodes.*n\\^2 work.*this one has 60"):
        next(iter(solver.solve(generate("tsp-uniform", "t60", 3, {"n": 60}).instance, Budget(time_limit=5.0, seed=0))))
