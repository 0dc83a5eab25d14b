"""RRNCO: exact masks, costs equal to the checker's, seeded determinism, learning, checkpoints, the solver."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from frontierco.problems import CVRPInstance, TSPInstance, get_problem  # noqa: E402
from frontierco.problems.routing.cities.city import City  # noqa: E402
from frontierco.problems.routing.distances import EdgeWeights  # noqa: E402
from frontierco.solver import Budget, load_solver_module  # noqa: E402
from tests.helpers import suite_registry  # noqa: E402

data = load_solver_module("rrnco", "data")
env_module = load_solver_module("rrnco", "env")
model_module = load_solver_module("rrnco", "model")
checkpoint = load_solver_module("rrnco", "checkpoint")
train = load_solver_module("rrnco", "train")
solver_module = load_solver_module("rrnco", "solver")


def toy_city(points: int = 60, seed: int = 0) -> City:
    """A city-like asymmetric instance pool: shortest paths on a random directed graph (so durations differ);
    points stored as (lat, lon) of a box twice as wide as it is tall, like a real city's."""
    from scipy.sparse.csgraph import shortest_path

    rng = np.random.default_rng(seed)
    coords = rng.random((points, 2)) * [0.5, 1.0] + [43.7, 7.4]
    base = np.linalg.norm(coords[:, None] - coords[None], axis=-1)
    detour = base * rng.uniform(1.0, 1.6, size=base.shape)
    distance = shortest_path(detour, directed=True)
    duration = shortest_path(detour * rng.uniform(1.5, 3.0, size=base.shape) * 10, directed=True)
    return City(f"toy-{seed}", coords, distance, duration)


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
    card = checkpoint.export(model, path, {"name": "acvrptw", "input": {"coordinates": data.TRAINING_ORDER}})
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
    city = toy_city(40, seed=3)
    coords, distance = city.points, city.distance
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
    city = toy_city(10)
    coords, distance = city.points, city.distance
    instance = CVRPInstance("toy", EdgeWeights("EXPLICIT", coords=coords, matrix=distance), np.r_[0, np.ones(9, dtype=int)], 50)
    with pytest.raises(checkpoint.MissingCheckpoint, match="acvrp.pt"):
        next(solver.solve(instance, Budget(time_limit=1.0)))


def test_inference_reads_a_city_instance_exactly_as_training_samples_it() -> None:
    """The orientation pin: the sampler (training) and ``from_instance`` (inference) give the network the same
    coordinates for the same city points (and the two orders of a city's columns are told apart)."""
    city = toy_city(11, seed=4)
    trained = data.Sampler("cvrp", 10, [city], 1.0, seed=0).sample(1)
    # which city point is sampled node i: the city has exactly 11 points, so node i's row of distances is a
    # permutation of its city row
    rows = [int(np.argmin(np.abs(np.sort(city.distance, 1) - np.sort(trained.distance[0, i].double().numpy())).sum(1))) for i in range(11)]
    assert sorted(rows) == list(range(11))
    weights = EdgeWeights("EXPLICIT", coords=city.points[rows], matrix=city.distance[np.ix_(rows, rows)])
    instance = CVRPInstance("pin", weights, np.r_[0, np.ones(10, dtype=int)], 50)
    inferred = data.from_instance(instance)
    assert torch.allclose(inferred.coords.float(), trained.coords, atol=1e-6)
    swapped = torch.from_numpy(data.model_coords(city.points[rows][:, ::-1])).float()
    assert not torch.allclose(swapped, trained.coords[0], atol=1e-3)


def test_every_shipped_checkpoint_records_the_coordinate_order_the_code_feeds() -> None:
    for name in ("atsp", "acvrp", "cvrp", "acvrptw"):
        card = json.loads((checkpoint.SHIPPED / f"{name}.json").read_text())
        assert card["input"]["coordinates"] == data.TRAINING_ORDER


@pytest.mark.parametrize("card_input", [{}, {"input": {"coordinates": "swapped"}}])
def test_a_checkpoint_of_another_coordinate_order_is_refused(tmp_path: Path, card_input: dict[str, object]) -> None:
    path = tmp_path / "acvrp.pt"
    checkpoint.export(tiny_model("cvrp"), path, {"name": "acvrp", **card_input})
    with pytest.raises(Exception, match="coordinate order"):
        checkpoint.load(path)


def test_the_scalars_move_at_their_own_learning_rate_in_a_tiny_training_run(tmp_path: Path) -> None:
    config = train.TrainConfig(
        "acvrp", 8, epochs=1, steps=15, batch=8, lr=1e-4, scalar_lr=3e-2, dev_size=10, model={"dim": 16, "layers": 1, "heads": 2, "ffn": 32}
    )
    trainer = train.Trainer(config, tmp_path, torch.device("cpu"), [toy_city()])
    before = [p.detach().clone() for p in trainer.model.scalars()]
    assert float(torch.nn.functional.softplus(trainer.model.prior.detach())) == pytest.approx(5.0)
    trainer.run(progress=False)
    moved = [float((p.detach() - b).abs().max()) for p, b in zip(trainer.model.scalars(), before, strict=True)]
    # a shared rate of 1e-4 moves a scalar by at most ~1.5e-3 in 15 Adam steps
    assert min(moved) > 0.05, moved


def teacher_set(tmp_path: Path, name: str, size: int = 9) -> object:
    spec = train.TrainConfig(name, size, teacher_seconds=0.05).teacher
    teacher = load_solver_module("rrnco", "teacher")
    assert teacher.generate(spec, 32, tmp_path, [toy_city()], progress=False) == 32
    return teacher.load(spec, tmp_path, [toy_city()])


@pytest.mark.parametrize("name", ["atsp", "acvrp", "acvrptw"])
def test_teacher_sequences_replay_to_the_teachers_cost(tmp_path: Path, name: str) -> None:
    """Every random order of a teacher solution is a complete, feasible rollout of the environment that costs
    what the checker said of the teacher's solution."""
    teacher = load_solver_module("rrnco", "teacher")
    found = teacher_set(tmp_path, name)
    first, actions = teacher.sequences(found.batch.kind, found.routes, 4, np.random.default_rng(0))
    env = env_module.RoutingEnv(found.batch.to("cpu", torch.float64), first)
    for t in range(actions.shape[-1]):
        assert bool(env.mask().gather(-1, actions[..., t, None]).all())
        env.step(actions[..., t])
    assert bool(env.done().all())
    assert torch.allclose(env.cost, torch.tensor(found.costs, dtype=torch.float64)[:, None].expand_as(env.cost), rtol=1e-5)


def test_imitation_lowers_the_teacher_loss_on_a_tiny_set(tmp_path: Path) -> None:
    found = teacher_set(tmp_path / "teacher", "acvrp")
    config = train.TrainConfig(
        "acvrp", 9, epochs=1, steps=30, batch=16, lr=3e-3, dev_size=10, imitate=True, orders=4,
        model={"dim": 32, "layers": 2, "heads": 4, "ffn": 64},
    )  # fmt: skip
    torch.set_num_threads(1)
    trainer = train.Trainer(config, tmp_path, torch.device("cpu"), [toy_city()], found)
    teacher = load_solver_module("rrnco", "teacher")
    first, actions = teacher.sequences("cvrp", found.routes, 2, np.random.default_rng(5))

    def teacher_loss() -> float:
        with torch.no_grad():
            return float(model_module.imitation_loss(trainer.model, found.batch, first, actions))

    before = teacher_loss()
    trainer.run(progress=False)
    assert teacher_loss() < 0.7 * before
    assert {row["mode"] for row in trainer.history} == {"imitate"}


@pytest.mark.parametrize("imitate", [False, True])
def test_training_with_augmentation_is_deterministic_for_a_seed(tmp_path: Path, imitate: bool) -> None:
    found = teacher_set(tmp_path / "teacher", "acvrp") if imitate else None
    config = train.TrainConfig(
        "acvrp", 9, epochs=1, steps=3, batch=4, dev_size=10, imitate=imitate, model={"dim": 16, "layers": 1, "heads": 2, "ffn": 32}
    )

    def weights(seed: int) -> list[object]:
        trainer = train.Trainer(
            train.TrainConfig(**{**config.__dict__, "seed": seed}), tmp_path / str(seed), torch.device("cpu"), [toy_city()], found
        )
        assert trainer.sampler.augment
        trainer.run(progress=False)
        return list(trainer.model.state_dict().values())

    first, again, other = weights(0), weights(0), weights(1)
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(first, other, strict=True))


def test_training_sees_every_symmetry_and_clustered_points() -> None:
    plain = data.Sampler("cvrp", 20, [toy_city(200)], 1.0, seed=0).sample(64)
    augmented = data.Sampler("cvrp", 20, [toy_city(200)], 1.0, seed=0, augment=True).sample(64)
    assert torch.equal(plain.distance, augmented.distance) and not torch.equal(plain.coords, augmented.coords)
    # each augmented view is one of the 8 symmetries of its plain view
    views = data.symmetries(plain.coords)
    matched = [next(k for k in range(8) if torch.allclose(views[k, b], augmented.coords[b])) for b in range(64)]
    assert len(set(matched)) == 8
    spread = lambda batch: float(batch.distance.mean())  # noqa: E731
    clustered = data.Sampler("cvrp", 20, [toy_city(200)], 1.0, seed=0, clustered_share=1.0).sample(64)
    assert spread(clustered) < 0.9 * spread(plain)


@pytest.mark.parametrize("kind", ["tsp", "cvrp", "cvrptw"])
def test_rrnco_ls_yields_checked_improvements_and_costs_them_as_the_checker(kind: str) -> None:
    batch = data.Sampler(kind, 30, [toy_city()], 1.0, seed=6).sample(1)
    (instance,) = train.suite_instances(batch, "ls")
    solver = solver_module.RRNCOLocalSearchSolver(candidates=5)
    solver.setup()
    problem = get_problem(kind)
    solutions = list(solver.solve(instance, Budget(time_limit=1.5, seed=0)))
    evaluations = [problem.evaluate(instance, s) for s in solutions]
    assert evaluations and all(e.feasible for e in evaluations), [e.reason for e in evaluations]
    objectives = [e.objective for e in evaluations]
    assert all(b < a for a, b in zip(objectives, objectives[1:], strict=False))
    from frontierco.kit.route_search import RouteSearch

    search = RouteSearch(instance, 0)
    routes = [solutions[-1].tour.tolist()] if kind == "tsp" else [r.tolist() for r in solutions[-1].routes]
    assert search.cost(routes) == pytest.approx(objectives[-1], rel=1e-12)


def test_rrnco_ls_yields_the_greedy_pass_at_once_and_warm_starts_pyvrp_from_its_best_local_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first solution must not wait for any search (it came 6-7 s into a 10 s run on a loaded machine when the
    search started only after the x8 pass); PyVRP's iterated local search starts from the best solution found so far,
    once, with the time that is left."""
    from frontierco.kit.route_search import RouteSearch

    batch = data.Sampler("cvrp", 30, [toy_city()], 1.0, seed=6).sample(1)
    (instance,) = train.suite_instances(batch, "ls")
    solver = solver_module.RRNCOLocalSearchSolver(candidates=5)
    solver.setup()
    events: list[object] = []
    real_candidates, real_iterate = solver.candidates, RouteSearch.iterate

    def phases(*args: object, **kwargs: object) -> object:
        for found in real_candidates(*args, **kwargs):
            events.append(found.phase)
            yield found

    def iterate(self: RouteSearch, routes: list[list[int]], seconds: float, seed: int, emit: object) -> None:
        events.append(("iterate", self.cost(routes), seconds))
        real_iterate(self, routes, seconds, seed, emit)

    solver.candidates = phases
    monkeypatch.setattr(RouteSearch, "iterate", iterate)
    costs: list[float] = []
    for solution in solver.solve(instance, Budget(time_limit=3.0, seed=0)):
        costs.append(get_problem("cvrp").evaluate(instance, solution).objective)
        events.append("solution")
    assert events[:2] == ["greedy", "solution"], events
    assert "x8" not in events
    (started,) = [e for e in events if isinstance(e, tuple)]
    before = costs[: events[: events.index(started)].count("solution")]
    assert started[1] == pytest.approx(before[-1], rel=1e-12)  # from the best solution yielded so far
    assert 0.0 < started[2] < 3.0


def test_the_papers_architecture_choices_build_train_and_decode() -> None:
    """Instance norm, e^(softmax(bias)) in AFT, the decoder's feed-forward block, 6 layers, 25 neighbours."""
    torch.manual_seed(0)
    config = model_module.ModelConfig(
        "cvrptw", dim=32, layers=6, heads=4, ffn=64, neighbours=25, bias_dim=32, norm="instance", aft_bias="exp_softmax", decoder_ffn=True
    )
    model = model_module.RRNCO(config)
    batch = data.Sampler("cvrptw", 30, [toy_city()], 1.0, seed=2).sample(2)
    starts = model_module.default_starts("cvrptw", batch.nodes, 8)
    result = model_module.rollout(model, batch, starts, sample=True, generator=torch.Generator().manual_seed(0))
    assert bool(torch.isfinite(result.cost).all())
    result.log_prob.sum().backward()
    assert model.decoder_ffn is not None and model.decoder_ffn[0].weight.grad is not None
    assert isinstance(model.layers[0].norms[0], model_module.InstanceNorm)
    with pytest.raises(ValueError, match="norm"):
        model_module.RRNCO(model_module.ModelConfig("tsp", norm="batch"))


def test_a_dev_set_that_is_not_the_one_its_costs_belong_to_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(train, "DEV_DIR", tmp_path)
    config = train.TrainConfig("acvrp", 9, dev_size=9, dev_count=8, model={"dim": 16, "layers": 1, "heads": 2, "ffn": 32})
    batches = train.dev_batches("acvrp", 9, 8, [toy_city()])
    card = {"costs": [1.0] * 8, "fingerprint": train.fingerprint(batches)}
    train.dev_path("acvrp", 9).write_text(json.dumps(card))
    assert train.Trainer(config, tmp_path, torch.device("cpu"), [toy_city()]).dev_costs == card["costs"]
    with pytest.raises(RuntimeError, match="fingerprint"):
        train.Trainer(config, tmp_path, torch.device("cpu"), [toy_city(seed=1)])


def test_bfloat16_autocast_trains_with_float32_costs(tmp_path: Path) -> None:
    config = train.TrainConfig(
        "acvrp", 12, epochs=1, steps=2, batch=4, dev_size=10, amp=True, model={"dim": 32, "layers": 1, "heads": 4, "ffn": 64}
    )
    trainer = train.Trainer(config, tmp_path, torch.device("cpu"), [toy_city()])
    before = [p.detach().clone() for p in trainer.model.parameters()]
    batch = trainer.sampler.sample(2)
    with trainer.autocast():
        result = model_module.rollout(trainer.model, batch, model_module.default_starts("cvrp", batch.nodes, 4), sample=True)
    assert result.cost.dtype == torch.float32 and result.log_prob.dtype == torch.float32
    trainer.run(progress=False)
    assert all(np.isfinite(row["loss"]) for row in trainer.history)
    assert any(not torch.equal(a, b) for a, b in zip(before, trainer.model.parameters(), strict=True))


def test_an_instance_without_coordinates_is_placed_by_classical_scaling_then_scaled_as_training_scales(tmp_path: Path) -> None:
    """A bare matrix (no coordinates) is never read as all points at (0, 0): its points are the classical
    multidimensional scaling of the matrix, normalised by the same ``model_coords`` as the sampler's."""
    from frontierco.kit.solverkit import classical_mds

    city = toy_city(11, seed=4)
    matrix = city.distance[:11, :11]
    bare = data.from_instance(CVRPInstance("bare", EdgeWeights("EXPLICIT", matrix=matrix), np.r_[0, np.ones(10, dtype=int)], 50))
    expected = data.model_coords(classical_mds(matrix))
    assert torch.allclose(bare.coords[0], torch.from_numpy(expected))
    assert float(bare.coords.min()) == 0.0 and float(bare.coords[0].amax(0).max()) == pytest.approx(1.0)
    assert len({tuple(p) for p in bare.coords[0].numpy().round(6)}) == 11  # distinct points, not zeros
    # the same from a VRPLIB file a user brings: an EXPLICIT matrix, no coordinate section
    from frontierco.problems.files import read_instance, write_instance

    path = tmp_path / "bare.vrp"
    write_instance(path, CVRPInstance("bare", EdgeWeights("EXPLICIT", matrix=matrix), np.r_[0, np.ones(10, dtype=int)], 50))
    read = read_instance(path)
    assert read.weights.coords is None
    expected_read = data.model_coords(classical_mds(read.weights.full_matrix()))
    assert torch.allclose(data.from_instance(read).coords[0], torch.from_numpy(expected_read))
    # on a Euclidean matrix the scaling recovers the layout up to a rigid motion: same pairwise distances after the
    # same normalisation (min-max with one factor can differ by rotation, so compare distances up to one scale)
    points = np.random.default_rng(0).random((12, 2))
    euclid = np.linalg.norm(points[:, None] - points[None], axis=-1)
    placed = data.from_instance(TSPInstance("euclid", EdgeWeights("EXPLICIT", matrix=euclid))).coords[0].numpy()
    seen = np.linalg.norm(placed[:, None] - placed[None], axis=-1)
    assert np.allclose(seen / seen.max(), euclid / euclid.max(), atol=1e-9)


def test_every_shipped_checkpoint_card_says_how_a_coordinate_free_instance_is_placed() -> None:
    for name in ("atsp", "acvrp", "cvrp", "acvrptw"):
        card = json.loads((checkpoint.SHIPPED / f"{name}.json").read_text())
        assert card["input"]["without_coordinates"] == data.WITHOUT_COORDINATES


def test_the_unseen_collections_city_is_held_out_of_training() -> None:
    """The realcity-*-100-unseen collections draw from one city only, and training never draws from it."""

    registry = suite_registry()
    for name in ("realcity-acvrp-100-unseen", "realcity-atsp-100-unseen"):
        entries = registry.collection(name).entries
        cities = {e.source.params["city"] for e in entries}
        assert cities == {"aguascalientes"}
        assert all(e.source.params["coordinates"] is False for e in entries)
        assert not cities & set(train.training_city_names())
    assert {"monaco", "paris"} <= set(train.training_city_names())
