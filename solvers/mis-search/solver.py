"""mis-search: maximum independent set by local search (PLS on the complement, NuMVC, or ARW's iterated local
search, by the graph's size and density) and, where the complement allows, an exact maximum-clique branch and
bound on the complement, the two taking turns by work. Every better set is yielded as found; a set the branch
and bound proves optimal is yielded as Proven."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import numpy as np

from frontierco.kit import independent_set_search as ils
from frontierco.kit.solverkit import Clock, static_greedy_independent_set
from frontierco.problems import MISInstance, MISSolution
from frontierco.solver import Budget, Proven, Solver

from . import clique, numvc, pls

EXACT_MAX_VERTICES = 4000  # the complement as a bit matrix: n^2 / 8 bytes, 2 MB at 4,000
EXACT_SMALL = 400  # up to here the branch and bound takes turns whatever the density
EXACT_MAX_DENSITY = 0.8  # past EXACT_SMALL vertices, only a complement this sparse gets branch-and-bound turns
COVER_MAX_VERTICES = 50_000  # NuMVC scans the cover at each step: on larger graphs ARW's search is the local search
NODES = 20_000  # branch-and-bound nodes per turn
STEPS = 50_000  # local search steps (PLS, NuMVC) or moves (ARW) in the first turn
GROWTH = 8  # the local search's turns double up to this many times the first: the exact search's share falls to 1/9


class MisSearch(Solver):
    name = "mis-search"
    problems = ("mis",)
    version = "2"
    requires = {"numba": "numba>=0.59"}
    deterministic = True

    def setup(self) -> None:
        for module in (clique, ils, numvc, pls):
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
        local: Local
        exact = None
        if exact_fits(instance):
            adjacent = complement(instance)
            exact = clique.Clique(adjacent, len(best.vertices))
            local = pls.PhasedSearch(adjacent, best.vertices, budget.seed)
        elif instance.n <= COVER_MAX_VERTICES:
            local = numvc.CoverSearch(instance.n, instance.edges, best.vertices, budget.seed)
        else:
            local = arw
        turn = STEPS
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
            for found in local_search(local, turn, len(best.vertices)):
                best = MISSolution(found)
                yield best
            turn = min(2 * turn, GROWTH * STEPS)


class Local(Protocol):
    """A local search that runs in pieces of work and says when its best set grew."""

    def run(self, work: int) -> bool: ...

    @property
    def solution(self) -> np.ndarray: ...

    @property
    def size(self) -> int: ...

    @property
    def steps(self) -> int: ...


def local_search(search: Local, work: int, size: int) -> Iterator[np.ndarray]:
    """A turn of ``work`` for the local search: each set larger than ``size`` it finds. (ARW's search runs 64
    iterations at a time, its steps its moves.)"""
    end = search.steps + work
    while search.steps < end:
        piece = 64 if isinstance(search, ils.LocalSearch) else end - search.steps
        if search.run(piece) and search.size > size:
            size = search.size
            yield search.solution


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
