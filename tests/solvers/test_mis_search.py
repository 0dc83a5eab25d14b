"""mis-search: the branch and bound proves the optimum of small graphs, the local searches find it, every set is
independent, the first set comes before any search, and a seed gives the same search."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.kit import independent_set_search as ils  # noqa: E402
from frontierco.problems import MISInstance, MISSolution, evaluate  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.solver import Budget, Proven, get_solver, load_solver_module  # noqa: E402

clique = load_solver_module("mis-search", "clique")
numvc = load_solver_module("mis-search", "numvc")
pls = load_solver_module("mis-search", "pls")
solver_module = load_solver_module("mis-search", "solver")


def _random_graph(n: int, p: float, seed: int) -> MISInstance:
    rng = np.random.default_rng(seed)
    u, v = np.triu_indices(n, 1)
    keep = rng.random(len(u)) < p
    return MISInstance(f"g{seed}", n, np.stack([u[keep], v[keep]], axis=1).astype(np.int64))


def _alpha(instance: MISInstance) -> int:
    """The independence number, by networkx's exact clique search on the complement."""
    graph = nx.Graph()
    graph.add_nodes_from(range(instance.n))
    graph.add_edges_from(instance.edges.tolist())
    return int(nx.max_weight_clique(nx.complement(graph), weight=None)[1])


def _independent(instance: MISInstance, vertices: np.ndarray) -> bool:
    return evaluate(instance, MISSolution(np.asarray(vertices))).feasible


def _rb(seed: int) -> tuple[MISInstance, int]:
    """A small RB graph with a planted optimum (one vertex per group)."""
    generated = generate("mis-rb", "rb", seed, {"cliques": 12, "clique_size": 5})
    return generated.instance, 12


@pytest.mark.parametrize(("n", "p", "seed"), [(30, 0.5, 1), (40, 0.3, 2), (45, 0.7, 3)])
def test_the_branch_and_bound_proves_the_independence_number(n: int, p: float, seed: int) -> None:
    instance = _random_graph(n, p, seed)
    search = clique.Clique(solver_module.complement(instance), 0)
    found = np.zeros(0, dtype=np.int64)
    status = clique.PAUSED
    while status != clique.FINISHED:
        status = search.search(7)  # small pieces: the search resumes where it stopped
        if status == clique.IMPROVED:
            assert len(search.found) > len(found) and _independent(instance, search.found)
            found = search.found
    assert len(found) == _alpha(instance)


def test_an_incumbent_from_outside_cuts_the_search_and_is_then_proven_optimal() -> None:
    instance = _random_graph(40, 0.4, 5)
    alpha = _alpha(instance)
    alone = clique.Clique(solver_module.complement(instance), 0)
    while alone.search(1000) != clique.FINISHED:
        pass
    told = clique.Clique(solver_module.complement(instance), alpha)
    while told.search(1000) != clique.FINISHED:
        pass
    assert told.nodes < alone.nodes and len(told.found) == 0  # nothing larger than alpha exists


@pytest.mark.parametrize("seed", [1, 2])
def test_arw_s_local_search_finds_the_planted_optimum_and_keeps_its_books(seed: int) -> None:
    instance, optimum = _rb(seed)
    adjacency = instance.adjacency
    search = ils.LocalSearch(adjacency.indptr, adjacency.indices, np.array([0]), seed)
    for _ in range(2000):
        if search.run(10) and search.size == optimum:
            break
        size = int(search.state[ils.SIZE])
        current = search.perm[:size]
        assert _independent(instance, current)
        chosen = np.zeros(instance.n, dtype=bool)
        chosen[current] = True
        tightness = np.array([chosen[adjacency.neighbours(v)].sum() for v in range(instance.n)])
        assert np.array_equal(tightness, search.tight)
        free = search.perm[size : size + int(search.state[ils.FREE])]
        assert np.all(tightness[free] == 0) and np.all(tightness[search.perm[size + len(free) :]] > 0)
    assert search.size == optimum and _independent(instance, search.solution)


@pytest.mark.parametrize("seed", [1, 2])
def test_numvc_finds_the_planted_optimum(seed: int) -> None:
    instance, optimum = _rb(seed)
    search = numvc.CoverSearch(instance.n, instance.edges, np.array([0]), seed)
    for _ in range(200):
        if search.run(1000):
            assert _independent(instance, search.solution)
        if search.size == optimum:
            break
    assert search.size == optimum and _independent(instance, search.solution)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_phased_local_search_finds_the_planted_optimum_as_a_clique_of_the_complement(seed: int) -> None:
    instance, optimum = _rb(seed)
    search = pls.PhasedSearch(solver_module.complement(instance), np.array([0]), seed)
    for _ in range(200):
        if search.run(1000):
            assert _independent(instance, search.solution)
        if search.size == optimum:
            break
        current = np.flatnonzero(search.inside)
        assert _independent(instance, current) and len(current) == search.state[pls.SIZE]
    assert search.size == optimum and _independent(instance, search.solution)


def test_a_seed_gives_the_same_search() -> None:
    instance, _ = _rb(3)
    adjacency = instance.adjacency
    runs = []
    for _ in range(2):
        arw = ils.LocalSearch(adjacency.indptr, adjacency.indices, np.array([0]), 11)
        cover = numvc.CoverSearch(instance.n, instance.edges, np.array([0]), 11)
        phased = pls.PhasedSearch(solver_module.complement(instance), np.array([0]), 11)
        arw.run(300)
        cover.run(3000)
        phased.run(3000)
        runs.append((arw.perm.copy(), arw.steps, cover.best.copy(), cover.weight.copy(), phased.inside.copy(), phased.penalty.copy()))
    assert all(np.array_equal(a, b) for a, b in zip(runs[0], runs[1], strict=True))


def _yields(instance: MISInstance, seconds: float) -> list[object]:
    solver = get_solver("mis-search").load()()
    solver.setup()
    return list(solver.solve(instance, Budget(time_limit=seconds, seed=0)))


def test_a_dense_graph_s_sets_grow_are_independent_and_the_last_is_proven() -> None:
    instance = _random_graph(60, 0.3, 7)
    out = _yields(instance, 30.0)
    assert isinstance(out[-1], Proven)
    sets = [item.solution if isinstance(item, Proven) else item for item in out]
    sizes = [len(s.vertices) for s in sets]
    assert all(_independent(instance, s.vertices) for s in sets)
    assert all(b > a for a, b in zip(sizes[:-2], sizes[1:-1], strict=False)) and sizes[-1] == _alpha(instance)


def test_the_first_set_is_the_greedy_one_before_any_search() -> None:
    from frontierco.kit.solverkit import static_greedy_independent_set

    instance, _ = _rb(4)
    solver = get_solver("mis-search").load()()
    first = next(iter(solver.solve(instance, Budget(time_limit=5.0))))
    assert np.array_equal(first.vertices, static_greedy_independent_set(instance))


def test_a_graph_without_edges_is_all_one_proven_set() -> None:
    (only,) = _yields(MISInstance("empty", 5, np.zeros((0, 2), dtype=np.int64)), 5.0)
    assert isinstance(only, Proven) and len(only.solution.vertices) == 5
