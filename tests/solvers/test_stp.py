"""The STP solvers and their shared search: against optima found by enumerating the Steiner vertices of small
random graphs (the optimal tree is the pruned minimum spanning tree of the terminals and some Steiner vertices)."""

import itertools
import sys
import time

import networkx as nx
import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.kit.steiner_search import heuristic_tree, iterated_search, key_paths, prune, search_weights, tree_cost  # noqa: E402
from frontierco.problems import MILPSolution, STPInstance, STPSolution, evaluate  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.solver import Bound, Budget, Proven, get_solver  # noqa: E402


def brute_force(instance: STPInstance) -> float:
    graph = nx.Graph()
    graph.add_weighted_edges_from((u, v, w) for (u, v), w in zip(instance.edges.tolist(), instance.weights.tolist(), strict=True))
    steiner = sorted(set(range(instance.n)) - set(instance.terminals.tolist()))
    best = np.inf
    for size in range(len(steiner) + 1):
        for extra in itertools.combinations(steiner, size):
            sub = graph.subgraph(instance.terminals.tolist() + list(extra))
            if nx.is_connected(sub):
                best = min(best, sum(d["weight"] for _, _, d in nx.minimum_spanning_tree(sub).edges(data=True)))
    return float(best)


SMALL = [generate("stp-random", f"s{seed}", seed, {"n": 11, "m": 24, "terminals": 4, "high": 9}).instance for seed in range(4)]


@pytest.mark.parametrize("instance", SMALL, ids=lambda i: i.name)
def test_the_iterated_search_yields_feasible_better_trees_never_below_the_optimum(instance):
    optimum = brute_force(instance)
    costs = []
    for tree in iterated_search(instance, 0, time.monotonic() + 10):
        verdict = evaluate(instance, STPSolution(instance.edges[tree]))
        assert verdict.feasible and verdict.objective == tree_cost(instance, tree)
        costs.append(verdict.objective)
    assert costs == sorted(costs, reverse=True) and len(set(costs)) == len(costs)
    assert costs[-1] >= optimum and costs[-1] <= 1.1 * optimum


def test_the_shortest_path_heuristic_is_a_shortest_path_for_two_terminals():
    instance = generate("stp-random", "p", 5, {"n": 40, "m": 90, "terminals": 2}).instance
    graph = nx.Graph()
    graph.add_weighted_edges_from((u, v, w) for (u, v), w in zip(instance.edges.tolist(), instance.weights.tolist(), strict=True))
    tree = heuristic_tree(instance, int(instance.terminals[1]), search_weights(instance))
    s, t = instance.terminals.tolist()
    assert tree_cost(instance, tree) == nx.shortest_path_length(graph, s, t, weight="weight")


def test_pruning_leaves_only_terminal_leaves_and_key_paths_cover_the_tree():
    instance = generate("stp-random", "k", 2, {"n": 60, "m": 120, "terminals": 8}).instance
    spanning = nx.minimum_spanning_tree(nx.Graph(instance.edges.tolist()))
    everything = np.searchsorted(instance.keys, [min(u, v) * instance.n + max(u, v) for u, v in spanning.edges()])
    tree = prune(instance, everything)
    degree = np.bincount(instance.edges[tree].reshape(-1), minlength=instance.n)
    assert set(np.flatnonzero(degree == 1).tolist()) <= set(instance.terminals.tolist())
    assert evaluate(instance, STPSolution(instance.edges[tree])).feasible
    paths = key_paths(instance, tree)
    assert sorted(np.concatenate([p for p, _, _ in paths]).tolist()) == sorted(tree.tolist())
    terminal = set(instance.terminals.tolist())
    assert all(start in terminal or degree[start] >= 3 for _, start, _ in paths)


@pytest.mark.parametrize("instance", SMALL[:2], ids=lambda i: i.name)
def test_the_flow_model_has_the_optimum_and_holds_the_heuristic_tree(instance):
    pytest.importorskip("pyscipopt")
    from frontierco.problems.milp.mps import to_scip

    module = sys.modules[get_solver("stp-scip").load().__module__]
    root = int(instance.terminals[0])
    milp = module.flow_model(instance, root)
    tree = heuristic_tree(instance, root, search_weights(instance))
    point = evaluate(milp, MILPSolution(module.flow_values(instance, tree, root)))
    assert point.feasible and point.objective == tree_cost(instance, tree)
    model, _ = to_scip(milp)
    model.optimize()
    assert model.getStatus() == "optimal" and round(model.getObjVal()) == brute_force(instance)


def test_stp_scip_proves_a_small_optimum_with_its_bound():
    pytest.importorskip("pyscipopt")
    instance = SMALL[2]
    solver = get_solver("stp-scip").load()()
    solver.setup()
    items = list(solver.solve(instance, Budget(20.0)))
    assert isinstance(items[-1], Proven) and evaluate(instance, items[-1].solution).objective == brute_force(instance)
    assert all(item.value <= brute_force(instance) for item in items if isinstance(item, Bound))


@pytest.mark.parametrize("name", ["stp-sph", "stp-networkx", "stp-ls"])
def test_the_heuristics_yield_feasible_trees(name):
    instance = SMALL[3]
    solver = get_solver(name).load()()
    solver.setup()
    items = list(solver.solve(instance, Budget(5.0)))
    assert items and all(evaluate(instance, getattr(item, "solution", item)).objective >= brute_force(instance) for item in items)


def test_stp_ls_on_equal_weights_yields_better_and_better_trees_down_to_the_optimum_the_same_for_a_seed():
    instance = generate("stp-hypercube", "h4", 0, {"dimension": 4}).instance  # unit weights: the vertex-set search
    solver = get_solver("stp-ls").load()()
    solver.setup()

    def costs(seed: int) -> list[float]:
        items = list(solver.solve(instance, Budget(60.0, seed=seed)))  # ends by its stall rule, long before
        verdicts = [evaluate(instance, item) for item in items]
        assert all(v.feasible for v in verdicts)
        return [v.objective for v in verdicts]

    found = costs(1)
    assert found == sorted(found, reverse=True) and len(set(found)) == len(found)
    assert found[-1] == brute_force(instance)
    assert costs(1) == found
