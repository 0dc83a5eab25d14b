"""egn-mis: maximum independent set by the vertex scores of an Erdos Goes Neural GNN (Karalias and Loukas, NeurIPS
2020, trained here without labels): the greedy set by decreasing score at once, then ARW's iterated local search
from it (the suite's, as mis-search runs it on large graphs), restarting from the greedy set of a new heatmap (a
new draw of the network's random input column) whenever the search has gone ``stall`` x n moves without a larger
set. Every larger set is yielded. ``decoder=expectation`` decodes the network's heatmap by EGN's conditional
expectation instead of greedily (``decode.expectation_decode``).
``scores=degree`` / ``scores=random`` feed the same pipeline minus the degree / uniform random numbers instead of
the network's logits: the controls that say what the network adds."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit import independent_set_search as ils
from frontierco.kit.solverkit import Clock
from frontierco.problems import MISInstance, MISSolution
from frontierco.solver import Budget, Proven, Solver

PIECE = 64  # ILS iterations between looks at the clock


class EgnMis(Solver):
    name = "egn-mis"
    problems = ("mis",)
    version = "1"
    requires = {"torch": "torch>=2.1", "numba": "numba>=0.59"}
    deterministic = True
    learned = True  # a trained network scores the vertices (the boards count it with the learned rows)

    def setup(self) -> None:
        import torch

        from .checkpoint import SHIPPED, load

        torch.set_num_threads(1)
        self.model = load(SHIPPED / "mis.pt")
        ils.warm_up()

    def scores(self, instance: MISInstance, rng: np.random.Generator) -> np.ndarray:
        """The vertex scores the decoder reads: the network's logits (a new draw of its random feature column
        each call), or a control's (parameter ``scores``): minus the degree with random tie-breaks, or uniform
        random numbers."""
        from .decode import degree_scores
        from .train import network_scores

        kind = self.params["scores"]
        if kind == "degree":
            return degree_scores(instance) + rng.random(instance.n)  # degrees are integers: the noise breaks ties
        if kind == "random":
            return rng.random(instance.n)
        return network_scores(self.model, instance, rng)

    def start(self, instance: MISInstance, rng: np.random.Generator) -> np.ndarray:
        """A decoded independent set: the greedy set by decreasing score, or (``decoder=expectation``, network
        scores only) the conditional-expectation rounding of the network's probabilities."""
        from .decode import decode, expectation_decode

        scores = self.scores(instance, rng)
        if self.params["decoder"] == "expectation":
            if self.params["scores"] != "network":
                raise ValueError("decoder=expectation reads the network's probabilities: it needs scores=network")
            return expectation_decode(instance, 1.0 / (1.0 + np.exp(-np.clip(scores, -50.0, 50.0))))
        return decode(instance, scores)

    def solve(self, instance: MISInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        if instance.m == 0:
            yield Proven(MISSolution(np.arange(instance.n, dtype=np.int64)))
            return
        rng = np.random.default_rng(budget.seed)
        start = self.start(instance, rng)
        yield MISSolution(start)
        best = len(start)
        adjacency = instance.adjacency
        restarts = 0
        while not clock.expired():
            search = ils.LocalSearch(adjacency.indptr, adjacency.indices, start, budget.seed + restarts)
            if search.size > best:
                best = search.size
                yield MISSolution(search.solution)
            for found in improvements(search, clock, self.params["stall"] * instance.n):
                if len(found) > best:
                    best = len(found)
                    yield MISSolution(found)
            restarts += 1
            start = self.start(instance, rng)


def improvements(search: ils.LocalSearch, clock: Clock, stall: int) -> Iterator[np.ndarray]:
    """The search's larger sets until the clock runs out or it has made ``stall`` moves since its last one
    (``stall`` 0: never stalls)."""
    since = search.steps
    while not clock.expired() and (stall == 0 or search.steps - since < stall):
        if search.run(PIECE):
            since = search.steps
            yield search.solution
