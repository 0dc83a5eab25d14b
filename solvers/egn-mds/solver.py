"""egn-mds: minimum dominating set by the vertex scores of an Erdos Goes Neural GNN (Karalias and Loukas, NeurIPS
2020, trained here without labels on DiffUCO's MDS energy): the greedy cover by decreasing score with its
redundant vertices dropped, at once; then the suite's dominating-set local search (remove-and-repair moves, a
plateau walk, as mds-greedy runs it) from it, restarting from the decode of a new heatmap (a new draw of the
network's random input column) whenever the walk has gone ``stall`` x n moves without a smaller set. Every smaller
set is yielded.
``scores=degree`` / ``scores=random`` feed the same pipeline the degree (random tie-breaks) / uniform random
numbers instead of the network's logits: the controls that say what the network adds."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from frontierco.kit.dominating_search import CHECK_EVERY, DominatingSearch
from frontierco.kit.solverkit import Clock
from frontierco.problems import MDSInstance, MDSSolution
from frontierco.solver import Budget, Solver


class EgnMds(Solver):
    name = "egn-mds"
    problems = ("mds",)
    version = "1"
    requires = {"torch": "torch>=2.1"}
    deterministic = True
    learned = True  # a trained network scores the vertices (the boards count it with the learned rows)

    def setup(self) -> None:
        import torch

        from .checkpoint import SHIPPED, load

        torch.set_num_threads(1)
        self.model = load(SHIPPED / "mds.pt")

    def scores(self, instance: MDSInstance, rng: np.random.Generator) -> np.ndarray:
        """The vertex scores the decoder reads: the network's logits (a new draw of its random feature column
        each call), or a control's (parameter ``scores``): the degree with random tie-breaks, or uniform random
        numbers."""
        from frontierco.kit.vertex_gnn import vertex_logits

        from .decode import degree_scores

        kind = self.params["scores"]
        if kind == "degree":
            return degree_scores(instance) + rng.random(instance.n)  # degrees are integers: the noise breaks ties
        if kind == "random":
            return rng.random(instance.n)
        return vertex_logits(self.model, instance, rng)

    def solve(self, instance: MDSInstance, budget: Budget) -> Iterator[object]:
        from .decode import decode

        clock = Clock(budget.time_limit, margin=0.05)
        rng = np.random.default_rng(budget.seed)
        lists = (instance.adjacency.indptr.tolist(), instance.adjacency.indices.tolist())
        search = decode(instance, self.scores(instance, rng), lists)
        yield MDSSolution(search.vertices())
        best = search.size
        if best == 0:
            return
        walk = random.Random(budget.seed)
        stall = self.params["stall"] * instance.n
        while not clock.expired():
            for found in improvements(search, walk, clock, stall):
                if found.size < best:
                    best = found.size
                    yield MDSSolution(found)
            if clock.expired():
                break
            search = decode(instance, self.scores(instance, rng), lists)
            if search.size < best:
                best = search.size
                yield MDSSolution(search.vertices())


def improvements(search: DominatingSearch, walk: random.Random, clock: Clock, stall: int) -> Iterator[np.ndarray]:
    """The walk's smaller sets (remove-and-repair moves on random vertices of the set) until the clock runs out or
    it has made ``stall`` moves since its last one (``stall`` 0: never stalls)."""
    if search.size == 0:
        return
    best, steps, since = search.size, 0, 0
    members = search.vertices().tolist()
    while stall == 0 or steps - since < stall:
        steps += 1
        if steps % CHECK_EVERY == 0:
            if clock.expired():
                return
            members = search.vertices().tolist()
        v = members[walk.randrange(len(members))]
        if not search.inside[v]:
            continue
        search.move(v, walk)
        if search.size < best:
            best, since = search.size, steps
            members = search.vertices().tolist()
            yield search.vertices()
