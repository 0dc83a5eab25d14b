"""egn-mds: the EGN / DiffUCO dominating-set loss, the greedy cover with its pruning, the checkpoint card (input
layout pinned), the training graphs and collections, and the solver's sets (dominating, shrinking)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from frontierco.errors import FrontiercoError  # noqa: E402
from frontierco.kit.vertex_gnn import LAYOUT, ModelConfig, VertexGNN, directed_edges, vertex_features  # noqa: E402
from frontierco.problems import MDSInstance, MDSSolution, evaluate  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.problems.graphs.mis import canonical_edges  # noqa: E402
from frontierco.registry import Registry  # noqa: E402
from frontierco.solver import Budget, discover, get_solver, load_solver_module  # noqa: E402
from frontierco.workspace import Context  # noqa: E402

loss_module = load_solver_module("egn-mds", "loss")
decode = load_solver_module("egn-mds", "decode")
checkpoint = load_solver_module("egn-mds", "checkpoint")
train = load_solver_module("egn-mds", "train")


def path_and_loner() -> MDSInstance:
    """The path 0-1-2 and an isolated vertex 3."""
    return MDSInstance("p3", 4, canonical_edges(np.array([[0, 1], [1, 2]])))


def ba(seed: int, n: int = 120) -> MDSInstance:
    graph = generate("mds-ba", "ba", seed, {"n": n, "m": 4}).instance
    assert isinstance(graph, MDSInstance)
    return graph


def test_the_shipped_card_records_the_layout_the_code_feeds() -> None:
    card = json.loads((checkpoint.SHIPPED / "mds.json").read_text())
    assert card["input"]["layout"] == LAYOUT
    assert LAYOUT == "one, degree/mean, log1p(degree)/log1p(max degree), neighbour mean degree/mean, uniform random"


def test_the_loss_is_the_expected_size_plus_beta_times_the_expected_undominated() -> None:
    edges = torch.from_numpy(directed_edges(path_and_loner()))
    sure = 40.0  # sigmoid(40) is 1 to float precision
    chosen = torch.tensor([-sure, sure, -sure, sure])  # {1, 3} dominates everything
    assert float(loss_module.dominating_set_loss(chosen, edges, 1.2)) == pytest.approx(2 / 4)
    nothing = torch.full((4,), -sure)  # every vertex undominated
    assert float(loss_module.dominating_set_loss(nothing, edges, 1.2)) == pytest.approx(1.2 * 4 / 4)
    half = torch.zeros(4)  # p = 1/2: v undominated with probability 2^-(degree + 1), degrees 1, 2, 1, 0
    assert float(loss_module.dominating_set_loss(half, edges, 1.2)) == pytest.approx((2 + 1.2 * (0.25 + 0.125 + 0.25 + 0.5)) / 4)


def test_the_decode_covers_by_decreasing_score_then_drops_redundant_vertices() -> None:
    graph = path_and_loner()
    # 0 (covers 0, 1), 1 (covers 2), 3 (covers 3); then 0 is redundant (0 and 1 stay dominated by 1)
    assert decode.greedy_cover(graph.adjacency.indptr.tolist(), graph.adjacency.indices.tolist(), np.array([0, 1, 3, 2])) == [0, 1, 3]
    assert decode.decode(graph, np.array([5.0, 4.0, 0.0, 1.0])).vertices().tolist() == [1, 3]
    assert decode.decode(graph, decode.degree_scores(graph)).vertices().tolist() == [1, 3]
    big = ba(2)
    search = decode.decode(big, np.random.default_rng(0).random(big.n))
    assert evaluate(big, MDSSolution(search.vertices())).feasible
    assert not any(search.redundant(v) for v in search.vertices().tolist())


def test_a_checkpoint_loads_as_saved_and_another_layout_is_refused(tmp_path: Path) -> None:
    torch.manual_seed(0)
    network = VertexGNN(ModelConfig(hidden=8, layers=2))
    checkpoint.export(network, tmp_path / "mds.pt", {"name": "mds"})
    graph = path_and_loner()
    x = torch.from_numpy(vertex_features(graph, np.random.default_rng(0)))
    e = torch.from_numpy(directed_edges(graph))
    torch.testing.assert_close(checkpoint.load(tmp_path / "mds.pt")(x, e), network.eval()(x, e))
    card = json.loads((tmp_path / "mds.json").read_text())
    card["input"]["layout"] = "something else"
    (tmp_path / "mds.json").write_text(json.dumps(card))
    with pytest.raises(FrontiercoError, match="input layout"):
        checkpoint.load(tmp_path / "mds.pt")


def test_the_shipped_checkpoint_is_small_and_matches_its_card() -> None:
    assert (checkpoint.SHIPPED / "mds.pt").stat().st_size < 200_000
    checkpoint.load(checkpoint.SHIPPED / "mds.pt")  # sha256 and layout checked


def test_descending_the_loss_on_a_graph_lowers_it() -> None:
    graph = ba(3)
    torch.manual_seed(0)
    network = VertexGNN(ModelConfig(hidden=16, layers=3))
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-2)
    x = torch.from_numpy(vertex_features(graph, np.random.default_rng(0)))
    e = torch.from_numpy(directed_edges(graph))
    losses = []
    for _ in range(40):
        loss = loss_module.dominating_set_loss(network(x, e), e)
        losses.append(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert losses[-1] < losses[0]


def test_training_graphs_follow_frontierco_recipe_on_seeds_no_collection_uses() -> None:
    graph = train.training_graph(0)
    assert 800 <= graph.n <= 1200 and graph.m == 4 * (graph.n - 4)  # BA(n, 4): 4 edges per vertex after the first 4
    registry = Registry.of(Context.discover())
    collections = ("mds-ba-800-1200", "mds-ba-800-1200-fresh", "mds-ba-easy")  # one recipe: a seed is a graph
    seeds = [e.source.seed for name in collections for e in registry.collection(name).entries]
    assert len(set(seeds)) == len(seeds) and all(s < train.TRAIN_SEED for s in seeds)
    fresh = registry.collection("mds-ba-800-1200-fresh").entries
    assert {e.split for e in fresh} == {"test"} and len(fresh) == 12


def test_the_solver_yields_shrinking_dominating_sets_from_the_decode() -> None:
    solver = get_solver("egn-mds").load()(stall=2)
    solver.setup()
    graph = ba(5, 300)
    sizes = []
    for solution in solver.solve(graph, Budget(time_limit=1.0, seed=0)):
        verdict = evaluate(graph, solution)
        assert verdict.feasible
        sizes.append(verdict.objective)
    first = decode.decode(graph, solver.scores(graph, np.random.default_rng(0))).size
    assert sizes[0] == first and sizes == sorted(set(sizes), reverse=True)


@pytest.mark.parametrize("kind", ["degree", "random"])
def test_a_control_feeds_the_decoder_other_scores(kind: str) -> None:
    graph = ba(6)
    solver = get_solver("egn-mds").load()(scores=kind)
    solver.setup()
    scores = solver.scores(graph, np.random.default_rng(1))
    if kind == "degree":  # larger degree first, the noise only breaks ties
        assert np.all(np.diff(graph.adjacency.degrees[np.argsort(-scores)]) <= 0)
    else:
        np.testing.assert_array_equal(scores, np.random.default_rng(1).random(graph.n))


def test_egn_mds_counts_as_a_learned_row() -> None:
    assert discover()["egn-mds"].learned
