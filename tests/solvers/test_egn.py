"""egn: the input layout the checkpoint was trained on, the EGN loss, the greedy decoder, the checkpoint card, and
the solver's sets (independent, growing)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

from frontierco.errors import FrontiercoError  # noqa: E402
from frontierco.problems import MISInstance, evaluate  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.problems.graphs.mis import canonical_edges  # noqa: E402
from frontierco.solver import Budget, get_solver, load_solver_module  # noqa: E402

features = load_solver_module("egn", "features")
loss_module = load_solver_module("egn", "loss")
decode = load_solver_module("egn", "decode")
model_module = load_solver_module("egn", "model")
checkpoint = load_solver_module("egn", "checkpoint")


def path_and_loner() -> MISInstance:
    """The path 0-1-2 and an isolated vertex 3."""
    return MISInstance("p3", 4, canonical_edges(np.array([[0, 1], [1, 2]])))


def test_the_input_layout_is_the_one_the_shipped_checkpoint_records() -> None:
    x = features.vertex_features(path_and_loner(), np.random.default_rng(7))
    # degrees 1, 2, 1, 0: mean 1, largest 2; neighbours' mean degree 2, 1, 2, 0; then the rng's draws
    expected = [
        [1, 1, math.log(2) / math.log(3), 2],
        [1, 2, 1, 1],
        [1, 1, math.log(2) / math.log(3), 2],
        [1, 0, 0, 0],
    ]
    assert x.dtype == np.float32 and x.shape == (4, features.FEATURES)
    np.testing.assert_allclose(x[:, :4], expected, rtol=1e-6)
    np.testing.assert_allclose(x[:, 4], np.random.default_rng(7).random(4), rtol=1e-6)
    card = json.loads((checkpoint.SHIPPED / "mis.json").read_text())
    assert card["input"]["layout"] == features.LAYOUT


def test_messages_run_both_ways_along_every_edge() -> None:
    edges = features.directed_edges(path_and_loner())
    assert sorted(map(tuple, edges.T.tolist())) == [(0, 1), (1, 0), (1, 2), (2, 1)]


def test_the_loss_is_minus_the_expected_size_plus_beta_times_the_expected_violations() -> None:
    edges = torch.tensor([[0, 1], [1, 2]])
    independent = torch.tensor([1.0, 0.0, 1.0, 1.0])
    everything = torch.ones(4)
    assert float(loss_module.independent_set_loss(independent, edges, 1.5)) == pytest.approx(-3 / 4)
    assert float(loss_module.independent_set_loss(everything, edges, 1.5)) == pytest.approx((1.5 * 2 - 4) / 4)


def test_the_greedy_decode_takes_vertices_by_decreasing_score_while_free() -> None:
    graph = path_and_loner()
    assert decode.decode(graph, np.array([0.0, 5.0, 0.0, 1.0])).tolist() == [1, 3]
    assert decode.decode(graph, decode.degree_scores(graph)).tolist() == [0, 2, 3]


def test_a_checkpoint_loads_as_saved_and_another_layout_is_refused(tmp_path: Path) -> None:
    torch.manual_seed(0)
    network = model_module.EGN(model_module.ModelConfig(hidden=8, layers=2))
    checkpoint.export(network, tmp_path / "mis.pt", {"name": "mis"})
    graph = path_and_loner()
    x = torch.from_numpy(features.vertex_features(graph, np.random.default_rng(0)))
    e = torch.from_numpy(features.directed_edges(graph))
    loaded = checkpoint.load(tmp_path / "mis.pt")
    torch.testing.assert_close(loaded(x, e), network.eval()(x, e))
    card = json.loads((tmp_path / "mis.json").read_text())
    card["input"]["layout"] = "something else"
    (tmp_path / "mis.json").write_text(json.dumps(card))
    with pytest.raises(FrontiercoError, match="input layout"):
        checkpoint.load(tmp_path / "mis.pt")


def test_the_shipped_checkpoint_is_small_and_matches_its_card() -> None:
    assert (checkpoint.SHIPPED / "mis.pt").stat().st_size < 2_000_000
    checkpoint.load(checkpoint.SHIPPED / "mis.pt")  # sha256 and layout checked


def test_descending_the_loss_on_a_graph_lowers_it() -> None:
    graph = generate("mis-rb", "rb", 3, {"cliques": 6, "clique_size": 3}).instance
    torch.manual_seed(0)
    network = model_module.EGN(model_module.ModelConfig(hidden=16, layers=3))
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-2)
    x = torch.from_numpy(features.vertex_features(graph, np.random.default_rng(0)))
    e = torch.from_numpy(features.directed_edges(graph))
    undirected = torch.from_numpy(graph.edges.T.astype(np.int64))
    first = None
    for _ in range(60):
        loss = loss_module.independent_set_loss(torch.sigmoid(network(x, e)), undirected)
        first = loss.item() if first is None else first
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert loss.item() < first


def test_the_solver_yields_growing_independent_sets_from_the_greedy_decode() -> None:
    solver = get_solver("egn-mis").load()()
    solver.setup()
    graph = generate("mis-rb", "rb", 5, {"cliques": 15, "clique_size": 6}).instance
    sizes = []
    for solution in solver.solve(graph, Budget(time_limit=1.0, seed=0)):
        verdict = evaluate(graph, solution)
        assert verdict.feasible
        sizes.append(verdict.objective)
    first = len(decode.decode(graph, solver.scores(graph, np.random.default_rng(0))))
    assert sizes[0] == first and sizes == sorted(set(sizes)) and sizes[-1] <= 15


@pytest.mark.parametrize("kind", ["degree", "random"])
def test_a_control_feeds_the_decoder_other_scores(kind: str) -> None:
    graph = generate("mis-rb", "rb", 5, {"cliques": 15, "clique_size": 6}).instance
    solver = get_solver("egn-mis").load()(scores=kind)
    solver.setup()
    scores = solver.scores(graph, np.random.default_rng(1))
    if kind == "degree":  # lower degree first, the noise only breaks ties
        degrees = graph.adjacency.degrees
        assert np.all(np.diff(degrees[np.argsort(-scores)]) >= 0)
    else:
        np.testing.assert_array_equal(scores, np.random.default_rng(1).random(graph.n))


def test_egn_mis_counts_as_a_learned_row() -> None:
    from frontierco.solver import discover

    assert discover()["egn-mis"].learned


def path_of_four() -> MISInstance:
    return MISInstance("p4", 4, canonical_edges(np.array([[0, 1], [1, 2], [2, 3]])))


def test_the_expectation_decode_fixes_each_vertex_by_the_lower_conditional_loss() -> None:
    star = MISInstance("star", 4, canonical_edges(np.array([[0, 1], [0, 2], [0, 3]])))
    # the centre first: 1.5 x (0.8 x 3) >= 1, so out, though the greedy decode would take it; the leaves then in
    assert decode.expectation_decode(star, np.array([0.9, 0.8, 0.8, 0.8])).tolist() == [1, 2, 3]
    assert decode.decode(star, np.array([0.9, 0.8, 0.8, 0.8])).tolist() == [0]
    # 0, 1, 2 go out (a likely neighbour each time), 3 in; the free vertex 0 is then added greedily
    assert decode.expectation_decode(path_of_four(), np.array([0.95, 0.94, 0.93, 0.92])).tolist() == [0, 3]


def test_the_offset_centres_the_logits_on_the_uniform_stationary_heatmap() -> None:
    complete = MISInstance("k5", 5, canonical_edges(np.array([[u, v] for u in range(5) for v in range(u + 1, 5)])))
    network = model_module.EGN(model_module.ModelConfig(hidden=8, layers=2, offset=1.5))
    torch.nn.init.zeros_(network.head.weight)
    torch.nn.init.zeros_(network.head.bias)
    x = torch.from_numpy(features.vertex_features(complete, np.random.default_rng(0)))
    e = torch.from_numpy(features.directed_edges(complete))
    p = torch.sigmoid(network(x, e))
    torch.testing.assert_close(p, torch.full((5,), 1 / (1.5 * 4)))  # every degree 4
    undirected = torch.from_numpy(complete.edges.T.astype(np.int64))
    scaled = loss_module.independent_set_loss(p, undirected, 1.5) * loss_module.uniform_scale(5, 10, 1.5)
    assert float(scaled.detach()) == pytest.approx(-1.0)


def test_the_curriculum_starts_on_rb_small_graphs() -> None:
    train = load_solver_module("egn", "train")
    assert 200 <= train.training_graph(0, 0.25, small_steps=1).n <= 300
    assert 800 <= train.training_graph(1, 0.0, small_steps=1).n <= 1200


def test_the_expectation_decoder_feeds_the_search_and_needs_the_network() -> None:
    graph = generate("mis-rb", "rb", 5, {"cliques": 15, "clique_size": 6}).instance
    solver = get_solver("egn-mis").load()(decoder="expectation")
    solver.setup()
    solutions = list(solver.solve(graph, Budget(time_limit=0.5, seed=0)))
    assert all(evaluate(graph, s).feasible for s in solutions)
    probability = 1 / (1 + np.exp(-solver.scores(graph, np.random.default_rng(0))))
    assert len(solutions[0].vertices) == len(decode.expectation_decode(graph, probability))
    control = get_solver("egn-mis").load()(decoder="expectation", scores="degree")
    control.setup()
    with pytest.raises(ValueError, match="scores=network"):
        next(control.solve(graph, Budget(time_limit=0.5, seed=0)))
