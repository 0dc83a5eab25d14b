"""Greedy plus local search for minimum dominating set, for graphs up to millions of vertices.

1. An independent dominating set in a few vectorised rounds over the edge list: a vertex joins when its key
   (degree, then a seeded random tie-break) beats every undecided neighbour's; a maximal independent set
   dominates the graph.
2. The classical greedy (Johnson 1974; Chvatal 1979), lazily: take the vertex covering the most undominated
   vertices; a popped gain is recomputed and pushed back while it is stale. Stopped at 45% of the budget (the
   largest graphs), its set is completed with the vertices of step 1 next to an undominated vertex.
3. Redundant vertices removed (every vertex of N[v] dominated twice), least degree first.
4. Until the time runs out, remove-and-repair moves: drop a random vertex of the set, dominate what it alone
   dominated by greedy choices among the neighbours (not the dropped vertex), then drop whatever became
   redundant nearby; a move that makes the set larger is undone, an equal one is kept (plateau walk).
Steps 2 and 4 run in Python over flat lists and stop when the clock says so; every better set is yielded.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from frontierco.kit.dominating_search import CHECK_EVERY, DominatingSearch
from frontierco.kit.solverkit import Clock, independent_dominating_set
from frontierco.problems import MDSInstance, MDSSolution
from frontierco.solver import Budget, Solver


class MDSGreedy(Solver):
    name = "mds-greedy"
    problems = ("mds",)
    version = "2"
    deterministic = False  # the local search stops on the clock

    def solve(self, instance: MDSInstance, budget: Budget) -> Iterator[MDSSolution]:
        clock = Clock(budget.time_limit, margin=0.05)
        rng = np.random.default_rng(budget.seed)
        tie = rng.random(instance.n)
        degree = np.bincount(instance.edges.ravel(), minlength=instance.n)
        first = independent_dominating_set(instance.n, instance.edges, degree + tie)
        yield MDSSolution(first)
        best = first.size
        adjacency = instance.adjacency
        indptr, indices, until = adjacency.indptr.tolist(), adjacency.indices.tolist(), 0.45 * budget.time_limit
        if clock.elapsed() > until:  # no time for the greedy: the walk starts from the first set
            search = DominatingSearch(indptr, indices, first, instance.n)
        else:
            search = DominatingSearch(indptr, indices, np.zeros(0, dtype=np.int64), instance.n)
            if not search.greedy(tie.tolist(), clock, until):
                search.complete(first, adjacency.indptr, adjacency.indices)  # out of time: completed with the first set
        members = search.vertices()
        search.prune(members[np.lexsort((tie[members], degree[members]))].tolist(), clock)
        if search.size < best:
            best = search.size
            yield MDSSolution(search.vertices())
        walk = random.Random(budget.seed)
        last_yield, steps = clock.elapsed(), 0
        members = search.vertices().tolist()
        while search.size and not clock.expired():
            steps += 1
            if steps % CHECK_EVERY == 0:
                members = search.vertices().tolist()
            v = members[walk.randrange(len(members))]
            if not search.inside[v]:
                continue
            search.move(v, walk)
            if search.size < best and clock.elapsed() - last_yield > 0.2:
                best, last_yield = search.size, clock.elapsed()
                yield MDSSolution(search.vertices())
        if search.size < best:
            yield MDSSolution(search.vertices())
