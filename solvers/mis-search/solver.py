"""mis-search: maximum independent set by local search and, where the complement graph allows, an exact
maximum-clique branch and bound on the complement, the two taking turns by work. Every better set is yielded as
found; a set the branch and bound proves optimal is yielded as Proven."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock, static_greedy_independent_set
from frontierco.problems import MISInstance, MISSolution
from frontierco.solver import Budget, Proven, Solver

from . import clique, ils, numvc

EXACT_MAX_VERTICES = 4000  # the complement as a bit matrix: n^2 / 8 bytes, 2 MB at 4,000
EXACT_SMALL = 400  # up to here the branch and bound takes turns whatever the density
EXACT_MAX_DENSITY = 0.8  # past EXACT_SMALL vertices, only a complement this sparse gets branch-and-bound turns
COVER_MAX_VERTICES = 50_000  # NuMVC scans the cover at each step: on larger graphs ARW's search is the local search
NODES = 20_000  # branch-and-bound nodes per turn
STEPS = 50_000  # local search steps (NuMVC) or moves (ARW) per turn


class MisSearch(Solver):
    name = "mis-search"
    problems = ("mis",)
    version = "1"
    requires = {"numba": "numba>=0.59"}
    deterministic = True

    def setup(self) -> None:
        for module in (clique, ils, numvc):
            module.warm_up()  # compiled, or loaded from numba's cache, before the clock starts

    def solve(self, instance: MISInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        if instance.m == 0:
            yield Proven(MISSolution(np.arange(instance.n, dtype=np.int64)))
            return
        start = static_greedy_independent_set(instance)
        yield MISSolution(start)
        adjacency = instance.adjacency
        arw = ils.LocalSearch(adjacency.indptr, adjacency.indices, start, budget.seed)  # a local optimum at once
        best = MISSolution(arw.solution)
        if len(best.vertices) > len(start):
            yield best
        exact = clique.Clique(complement(instance), len(best.vertices)) if exact_fits(instance) else None
        cover = numvc.CoverSearch(instance.n, instance.edges, best.vertices, budget.seed) if instance.n <= COVER_MAX_VERTICES else None
        while not clock.expired():
            if exact is not None:
                exact.raise_incumbent(len(best.vertices))
                status = exact.search(NODES)
                if status == clique.IMPROVED and len(exact.found) > len(best.vertices):
                    best = MISSolution(exact.found)
                    yield best
                elif status == clique.FINISHED:
                    yield Proven(best)  # no independent set larger than the best one found exists
                    return
            for found in local_search(arw, cover, len(best.vertices)):
                best = MISSolution(found)
                yield best


def local_search(arw: ils.LocalSearch, cover: numvc.CoverSearch | None, size: int) -> Iterator[np.ndarray]:
    """A turn of the local search, NuMVC where it runs, else ARW's: each set larger than ``size`` it finds."""
    if cover is not None:
        end = cover.steps + STEPS
        while cover.steps < end:
            if cover.run(end - cover.steps) and cover.size > size:
                size = cover.size
                yield cover.solution
        return
    end = arw.moves + STEPS
    while arw.moves < end:
        if arw.run(64) and arw.size > size:
            size = arw.size
            yield arw.solution


def exact_fits(instance: MISInstance) -> bool:
    """Whether the branch and bound takes turns: a complement small enough to hold as bits, and few vertices or a
    complement not too dense (the DIMACS brock and p_hat graphs; not BHOSLIB's, whose complements are ~0.9)."""
    n = instance.n
    if not 2 <= n <= EXACT_MAX_VERTICES:
        return False
    density = 1.0 - 2.0 * instance.m / (n * (n - 1))
    return n <= EXACT_SMALL or density <= EXACT_MAX_DENSITY


def complement(instance: MISInstance) -> np.ndarray:
    """The complement of the graph as a boolean matrix: its cliques are the graph's independent sets."""
    n = instance.n
    adjacent = np.ones((n, n), dtype=bool)
    adjacent[instance.edges[:, 0], instance.edges[:, 1]] = False
    adjacent[instance.edges[:, 1], instance.edges[:, 0]] = False
    np.fill_diagonal(adjacent, False)
    return adjacent
