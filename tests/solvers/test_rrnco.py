"""RRNCO: exact masks, costs equal to the checker's, seeded determinism, learning, checkpoints, the solver."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from frontierco.problems import CVRPInstance, TSPInstance, get_problem  # noqa: E402
from frontierco.problems.distances import EdgeWeights  # noqa: E402
from frontierco.solver import Budget, load_solver_module  # noqa: E402

data = load_solver_module("rrnco", "data")
env_module = load_solver_module("rrnco", "env")
model_module = load_solver_module("rrnco", "model")
checkpoint = load_solver_module("rrnco", "checkpoint")
train = load_solver_module("rrnco", "train")
solver_module = load_solver_module("rrnco", "solver")


def toy_city(points: int = 60, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A city-like asymmetric instance pool: shortest paths on a random directed graph (so durations differ)."""
    from scipy.sparse.csgraph import shortest_path

    rng = np.random.default_rng(seed)
    coords = rng.random((points, 2))
    base = np.linalg.norm(coords[:, None] - coords[None], axis=-1)
    detour = base * rng.uniform(1.0, 1.6, size=base.shape)
    distance = shortest_path(detour, directed=True)
    duration = shortest_path(detour * rng.uniform(1.5, 3.0, size=base.shape) * 10, directed=True)
    return coords, distance, duration


def tiny_model(kind: str) -> object:
    torch.manual_seed(0)
    return model_module.RRNCO(model_module.ModelConfig(kind, dim=32, layers=2, heads=4, ffn=64, neighbours=4))


def decode_random(batch: object, starts: object, generator: object) -> object:
    """Uniformly random feasible actions: the mask alone decides what is allowed."""
    env = env_module.RoutingEnv(batch, starts)
    actions = []
    for _ in range(2 * batch.nodes + 2):
        if bool(env.done().all()):
            break
        mask = env.mask()
        assert bool(mask.any(-1).all()), "a rollout was left without an allowed action"
        weights = mask.double().reshape(-1, mask.shape[-1])
        action = torch.multinomial(weights, 1, generator=generator).reshape(env.current.shape)
        env.step(action)
        actions.append(action)
    assert bool(env.done().all())
    return env.cost, torch.stack(actions, -1)


@pytest.mark.parametrize("kind", ["tsp", "cvrp", "cvrptw"])
def test_every_rollout_the_masks_allow_is_feasible_with_the_checkers_cost(kind: str) -> None:
    sampler = data.Sampler(kind, 12, [toy_city()], 1.0, seed=3)
    batch = sampler.sample(6).to("cpu", torch.float64)
    starts = model_module.default_starts(kind, batch.nodes, 100)
    cost, actions = decode_random(batch, starts, torch.Generator().manual_seed(0))
    instances = train.suite_instances(batch, "masked")
    problem = get_problem(kind)
    for b, instance in enumerate(instances):
        for p in range(len(starts)):
            routes = env_module.routes_of(kind, int(starts[p]), actions[b, p].tolist())
            solution = problem.solution_type(np.array(routes[0])) if kind == "tsp" else problem.solution_type(tuple(map(np.array, routes)))
            evaluation = problem.evaluate(instance, solution)
            assert evaluation.feasible, evaluation.reason
            assert evaluation.objective == pytest.approx(float(cost[b, p]), rel=1e-9)


def test_tight_time_windows_are_masked() -> None:
    sampler = data.Sampler("cvrptw", 8, [toy_city()], 1.0, seed=1)
    batch = sampler.sample(1).to("cpu", torch.float64)
    windows = batch.windows.clone()
    windows[0, 2] = torch.tensor([0.0, 1e-3])  # customer 2 closes before anyone can reach it
    closed = data.RoutingBatch(
        batch.kind, batch.coords, batch.distance, batch.duration, batch.demand, batch.capacity, windows, batch.service
    )
    env = env_module.RoutingEnv(closed, torch.tensor([1]))
    assert not bool(env.mask()[0, 0, 2])


@pytest.mark.parametrize("kind", ["tsp", "cvrp", "cvrptw"])
def test_decoded_solutions_pass_the_checker_with_the_models_cost(kind: str) -> None:
    batch = data.Sampler(kind, 10, [toy_city()], 1.0, seed=5).sample(3)
    model = tiny_model(kind)
    starts = model_module.default_starts(kind, batch.nodes, 100)
    with torch.no_grad():
        result = model_module.rollout(model, batch, starts, cost_batch=batch.to("cpu", torch.float64))
    problem = get_problem(kind)
    for b, instance in enumerate(train.suite_instances(batch, "decoded")):
        p = int(result.cost[b].argmin())
        routes = env_module.routes_of(kind, int(starts[p]), result.actions[b, p].tolist())
        solution = problem.solution_type(np.array(routes[0])) if kind == "tsp" else problem.solution_type(tuple(map(np.array, routes)))
        evaluation = problem.evaluate(instance, solution)
        assert evaluation.feasible, evaluation.reason
        assert evaluation.objective == pytest.approx(float(result.cost[b, p]), rel=1e-9)


def test_seeded_inference_is_deterministic_and_the_seed_matters() -> None:
    batch = data.Sampler("cvrp", 15, [toy_city()], 1.0, seed=2).sample(2)
    model = tiny_model("cvrp")
    starts = model_module.default_starts("cvrp", batch.nodes, 100)

    def sampled(seed: int) -> object:
        generator = torch.Generator().manual_seed(seed)
        with torch.no_grad():
            return model_module.rollout(model, batch, starts, sample=True, generator=generator).actions

    assert torch.equal(sampled(7), sampled(7))
    assert not torch.equal(sampled(7), sampled(8))


def test_uniform_and_city_sampling_is_seeded() -> None:
    first = data.Sampler("cvrptw", 9, [toy_city()], 1.0, seed=4).sample(2)
    again = data.Sampler("cvrptw", 9, [toy_city()], 1.0, seed=4).sample(2)
    assert torch.equal(first.distance, again.distance) and torch.equal(first.windows, again.windows)
    uniform = data.Sampler("cvrp", 9, [], 0.0, seed=4).sample(2)
    assert torch.allclose(uniform.distance, uniform.distance.transpose(1, 2))


@pytest.mark.slow
def test_a_tiny_training_run_lowers_the_policys_expected_cost(tmp_path: Path) -> None:
    """REINFORCE's loss has no fixed scale (its baseline moves); what training lowers is the expected cost of a
    sampled rollout, measured here on held-out instances of another city with a fixed sampling seed."""
    config = train.TrainConfig(
        "acvrp", 10, epochs=1, steps=40, batch=32, lr=1e-3, dev_size=10, model={"dim": 32, "layers": 2, "heads": 4, "ffn": 64}
    )
    torch.set_num_threads(1)
    trainer = train.Trainer(config, tmp_path, torch.device("cpu"), [toy_city()])
    held_out = data.Sampler("cvrp", 10, [toy_city(seed=1)], 1.0, seed=99).sample(64)
    starts = model_module.default_starts("cvrp", held_out.nodes, 100)

    def expected_cost() -> float:
        with torch.no_grad():
            result = model_module.rollout(trainer.model, held_out, starts, sample=True, generator=torch.Generator().manual_seed(0))
        return float(result.cost.mean())

    before = expected_cost()
    trainer.run(progress=False)
    assert expected_cost() < 0.95 * before
    assert trainer.state_path.is_file()


def test_training_resumes_where_it_stopped(tmp_path: Path) -> None:
    config = train.TrainConfig("atsp", 8, epochs=2, steps=2, batch=4, dev_size=10, model={"dim": 16, "layers": 1, "heads": 2, "ffn": 32})
    straight = train.Trainer(config, tmp_path / "a", torch.device("cpu"), [toy_city()])
    straight.run(progress=False)
    half = train.Trainer(train.TrainConfig(**{**config.__dict__, "epochs": 1}), tmp_path / "b", torch.device("cpu"), [toy_city()])
    half.run(progress=False)
    resumed = train.Trainer(config, tmp_path / "b", torch.device("cpu"), [toy_city()])
    resumed.resume(half.state_path)
    resumed.run(progress=False)
    for a, b in zip(straight.model.state_dict().values(), resumed.model.state_dict().values(), strict=True):
        assert torch.allclose(a, b)


def test_checkpoint_round_trip_and_checksum(tmp_path: Path) -> None:
    model = tiny_model("cvrptw")
    path = tmp_path / "acvrptw.pt"
    card = checkpoint.export(model, path, {"name": "acvrptw"})
    loaded = checkpoint.load(path)
    batch = data.Sampler("cvrptw", 8, [toy_city()], 1.0, seed=0).sample(2)
    starts = model_module.default_starts("cvrptw", batch.nodes, 100)
    with torch.no_grad():
        a = model_module.rollout(model.eval(), batch, starts, generator=torch.Generator().manual_seed(1))
        b = model_module.rollout(loaded, batch, starts, generator=torch.Generator().manual_seed(1))
    assert torch.equal(a.actions, b.actions) and torch.equal(a.cost, b.cost)
    assert json.loads(path.with_suffix(".json").read_text())["sha256"] == card["sha256"]
    path.write_bytes(path.read_bytes() + b"tampered")
    with pytest.raises(Exception, match="sha256"):
        checkpoint.load(path)
    with pytest.raises(checkpoint.MissingCheckpoint, match="nothere.pt"):
        checkpoint.load(tmp_path / "nothere.pt")


def test_checkpoint_choice_follows_problem_and_symmetry() -> None:
    assert checkpoint.checkpoint_name("tsp", False) == "atsp"
    assert checkpoint.checkpoint_name("cvrp", False) == "cvrp"
    assert checkpoint.checkpoint_name("cvrp", True) == "acvrp"
    assert checkpoint.checkpoint_name("cvrptw", True) == "acvrptw"


def test_shipped_checkpoints_load_with_their_cards() -> None:
    for name in ("atsp", "acvrp", "cvrp", "acvrptw"):
        model = checkpoint.load(checkpoint.SHIPPED / f"{name}.pt")
        card = json.loads((checkpoint.SHIPPED / f"{name}.json").read_text())
        assert model.config.kind == train.PRESETS[name][0] and card["trained"]["steps"] > 0
        assert (checkpoint.SHIPPED / f"{name}.png").is_file()


def test_solver_improves_monotonically_and_reports_real_costs() -> None:
    coords, distance, _ = toy_city(40, seed=3)
    demands = np.concatenate([[0], np.random.default_rng(0).integers(1, 10, size=25)])
    instance = CVRPInstance("toy", EdgeWeights("EXPLICIT", coords=coords[:26], matrix=distance[:26, :26]), demands, 50)
    solver = solver_module.RRNCOSolver()
    solver.setup()
    costs = [get_problem("cvrp").evaluate(instance, s).objective for s in solver.solve(instance, Budget(time_limit=2.0, seed=0))]
    assert costs and all(b < a for a, b in zip(costs, costs[1:], strict=False))
    tour = next(solver.solve(TSPInstance("toy", EdgeWeights("EXACT_2D", coords=coords)), Budget(time_limit=1.0)))
    assert sorted(tour.tour.tolist()) == list(range(40))


def test_solver_names_a_missing_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    solver = solver_module.RRNCOSolver()
    solver.setup()
    solver.models.pop("acvrp")
    coords, distance, _ = toy_city(10)
    instance = CVRPInstance("toy", EdgeWeights("EXPLICIT", coords=coords, matrix=distance), np.r_[0, np.ones(9, dtype=int)], 50)
    with pytest.raises(checkpoint.MissingCheckpoint, match="acvrp.pt"):
        next(solver.solve(instance, Budget(time_limit=1.0)))
