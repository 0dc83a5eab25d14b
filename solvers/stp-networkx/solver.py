"""networkx's Steiner tree approximation (Mehlhorn's 2-approximation): the baseline."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.problems import STPInstance, STPSolution
from frontierco.solver import Budget, Solver


class NetworkxSteiner(Solver):
    name = "stp-networkx"
    problems = ("stp",)
    version = "1"
    deterministic = True
    requires = {"networkx": "networkx>=3.0"}

    def solve(self, instance: STPInstance, budget: Budget) -> Iterator[STPSolution]:
        import networkx as nx
        from networkx.algorithms.approximation import steiner_tree

        graph = nx.Graph()
        graph.add_nodes_from(range(instance.n))
        graph.add_weighted_edges_from((u, v, w) for (u, v), w in zip(instance.edges.tolist(), instance.weights.tolist(), strict=True))
        tree = steiner_tree(graph, instance.terminals.tolist(), weight="weight", method="mehlhorn")
        yield STPSolution(np.array(list(tree.edges()), dtype=np.int64).reshape(-1, 2))
