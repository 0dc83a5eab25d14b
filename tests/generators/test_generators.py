import networkx as nx
import numpy as np
import pytest

from frontierco.errors import RegistryError
from frontierco.problems import MILPSolution, evaluate, problem_of
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.files import natural_suffix, write_instance
from frontierco.problems.generate import GENERATORS, generate

SMALL = {
    "tsp-uniform": {"n": 50},
    "tsp-clustered": {"n": 60, "clusters": 4},
    "tsp-dimacs-uniform": {"n": 60},
    "tsp-dimacs-clustered": {"n": 300},
    "tsp-dimacs": {"n": 300, "clustered": True},
    "cvrp-uniform": {"n": 50},
    "cvrp-xlike": {"n": 40},
    "mis-er": {"n": 60, "p": 0.1},
    "mis-er-sparse": {"n": 200, "degree": 6.0},
    "mis-ba": {"n": 60, "m": 3},
    "mis-rb": {"cliques": [6, 8], "clique_size": [4, 6]},
    "mis-rb-frontierco": {"cliques": [6, 8], "clique_size": [4, 6], "vertices": [24, 48]},
    "mds-ba": {"n": [50, 70], "m": 4},
    "mds-sparse": {"n": 300, "degree": 4.0},
    "milp-setcover": {"rows": 30, "cols": 60},
    "milp-cauction": {"items": 15, "bids": 30},
    "milp-cauction-arbitrary": {"items": 15, "bids": 30},
    "milp-facility": {"customers": 6, "facilities": 5},
    "milp-indset": {"nodes": 40},
    "realcity-atsp": {"city": "monaco", "n": 20},
    "realcity-acvrp": {"city": "monaco", "n": 20},
    "realcity-acvrptw": {"city": "monaco", "n": 20},
    "cflp-cornuejols": {"customers": 12, "facilities": 5},
    "cpmp-frontierco": {"n": 30, "p": 4},
    "stp-hypercube": {"dimension": 5, "perturbed": True},
    "stp-random": {"n": 40, "m": 80, "terminals": 8},
    "fjsp-random": {"jobs": 5, "machines": 4, "operations": 3},
}


def test_every_generator_is_covered():
    assert set(SMALL) == set(GENERATORS)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_same_seed_same_bytes_different_seed_differs(tmp_path, name):
    a, b, c = (generate(name, "g", seed, SMALL[name]).instance for seed in (7, 7, 8))
    assert problem_of(a).name == GENERATORS[name].problem
    assert content_sha256(a) == content_sha256(b) != content_sha256(c)
    suffix = natural_suffix(a)
    write_instance(tmp_path / f"a{suffix}", a)
    write_instance(tmp_path / f"b{suffix}", b)
    write_instance(tmp_path / f"c{suffix}", c)
    assert (tmp_path / f"a{suffix}").read_bytes() == (tmp_path / f"b{suffix}").read_bytes()
    assert (tmp_path / f"a{suffix}").read_bytes() != (tmp_path / f"c{suffix}").read_bytes()


RB_RECIPES = [
    ("mis-rb", {"cliques": [20, 25], "clique_size": [9, 12]}),
    ("mis-rb-frontierco", {"cliques": [40, 54], "clique_size": [20, 24], "vertices": [800, 1200]}),
]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("generator", "params"), RB_RECIPES)
def test_rb_planted_solution_is_optimal_and_feasible(seed, generator, params):
    built = generate(generator, "rb", seed, params)
    graph = built.instance
    verdict = evaluate(graph, built.certificate)
    assert verdict.feasible and verdict.objective == built.known_optimum
    k = graph.n // int(built.known_optimum)
    # every group is a clique, so no independent set has more than one vertex per group
    groups = graph.edges // k
    within = groups[:, 0] == groups[:, 1]
    assert within.sum() == int(built.known_optimum) * k * (k - 1) // 2
    if generator == "mis-rb-frontierco":
        assert 800 <= graph.n <= 1200 and 40 <= built.known_optimum <= 54 and 20 <= k <= 24


def test_cvrp_uniform_capacity_and_demands():
    instance = generate("cvrp-uniform", "c", 0, {"n": 100}).instance
    assert instance.capacity == 50 and instance.demands[0] == 0
    assert instance.demands[1:].min() >= 1 and instance.demands[1:].max() <= 9


def test_cvrp_uniform_unknown_size_needs_capacity():
    with pytest.raises(RegistryError, match="no standard capacity for n=77"):
        generate("cvrp-uniform", "c", 0, {"n": 77})
    assert generate("cvrp-uniform", "c", 0, {"n": 77, "capacity": 45}).instance.capacity == 45


@pytest.mark.parametrize("depot, expected", [("C", [500, 500]), ("E", [0, 0])])
def test_xlike_depot_positions(depot, expected):
    instance = generate("cvrp-xlike", "x", 0, {"n": 30, "depot": depot, "customers": "R", "demand": "U"}).instance
    assert instance.weights.coords[0].tolist() == expected
    assert instance.weights.rule == "EUC_2D" and np.all(instance.demands[1:] == 1)


def test_xlike_capacity_fits_the_largest_demand():
    for seed in range(10):
        instance = generate("cvrp-xlike", "x", seed, {"n": 50}).instance
        assert instance.capacity >= instance.demands.max()


def test_setcover_every_row_coverable_and_every_column_used():
    instance = generate("milp-setcover", "s", 3, {"rows": 50, "cols": 100}).instance
    assert instance.matrix.getnnz(axis=1).min() >= 2
    assert instance.matrix.getnnz(axis=0).min() >= 1
    assert evaluate(instance, MILPSolution(np.ones(100))).feasible


def test_facility_all_open_all_to_nearest_is_feasible():
    instance = generate("milp-facility", "f", 1, {"customers": 8, "facilities": 6, "ratio": 5.0}).instance
    n_x = 8 * 6
    x = np.zeros(instance.num_cols)
    x[n_x:] = 1.0
    x[:n_x] = np.tile(np.ones(6) / 6, 8)  # split each customer evenly: capacity ratio 5 makes it fit
    assert evaluate(instance, MILPSolution(x)).feasible


def test_indset_clique_rows_cover_every_edge():
    instance = generate("milp-indset", "i", 2, {"nodes": 60, "affinity": 4}).instance
    graph = nx.barabasi_albert_graph(60, 4, seed=2)
    rows = instance.matrix.tolil().rows
    covered = {(min(a, b), max(a, b)) for row in rows for i, a in enumerate(row) for b in row[i + 1 :]}
    assert {(min(u, v), max(u, v)) for u, v in graph.edges()} <= covered


def test_arbitrary_auction_bids_bidders_and_their_xor_items():
    """Every bid is a column with a positive price; rows are items sold at most once; a bidder's dummy row holds
    its 3 to 6 bids (the first bundle and its substitutes, all of the first bundle's size), each bid in at most one."""
    items, bids = 40, 200
    instance = generate("milp-cauction-arbitrary", "a", 5, {"items": items, "bids": bids}).instance
    matrix = instance.matrix.tocsc()
    assert instance.sense == "max" and matrix.shape[1] == bids and (instance.objective > 0).all()
    assert (instance.row_upper == 1).all() and np.isneginf(instance.row_lower).all() and set(matrix.data) == {1.0}
    real = sum(name.startswith("item_") for name in instance.row_names)
    assert all(name.startswith("bidder_") for name in instance.row_names[real:])
    dummies = instance.matrix.tocsr()[real:]
    assert dummies.shape[0] > 0 and (dummies.getnnz(axis=0) <= 1).all()
    for row in range(dummies.shape[0]):
        group = dummies[row].indices
        assert 3 <= len(group) <= 6  # the first bundle and 2-5 substitutes of the same size
        sizes = {matrix[:real, b].nnz for b in group}
        assert len(sizes) == 1
    assert evaluate(instance, MILPSolution(np.zeros(bids))).feasible


def test_stp_hypercube_terminals_are_the_even_vertices_and_perturbed_weights_lie_in_100_110():
    unit = generate("stp-hypercube", "h", 0, {"dimension": 4}).instance
    assert unit.n == 16 and unit.m == 32 and set(unit.weights.tolist()) == {1}
    assert [bin(int(t)).count("1") % 2 for t in unit.terminals] == [0] * 8 and len(unit.terminals) == 8
    assert all(bin(int(u) ^ int(v)).count("1") == 1 for u, v in unit.edges)
    perturbed = generate("stp-hypercube", "h", 3, {"dimension": 6, "perturbed": True}).instance
    assert perturbed.weights.min() >= 100 and perturbed.weights.max() <= 110 and len(set(perturbed.weights.tolist())) > 5


def test_stp_random_has_the_asked_sizes_and_connects_its_terminals():
    for seed in range(5):
        instance = generate("stp-random", "r", seed, {"n": 80, "m": 100, "terminals": 12, "low": 5, "high": 9}).instance
        assert (instance.n, instance.m, len(instance.terminals)) == (80, 100, 12)
        assert instance.weights.min() >= 5 and instance.weights.max() <= 9  # the instance itself refuses a disconnected terminal set
    with pytest.raises(RegistryError, match="n - 1 <= m"):
        generate("stp-random", "r", 0, {"n": 10, "m": 5, "terminals": 3})
