"""DeepACO (Ye et al., NeurIPS 2023) for TSP with its authors' published heuristic networks (neural local
search variant): an ant system whose heuristic is the network's heatmap, each ant's tour improved by the
neural local search (2-opt, then rounds of heatmap-guided perturbation and 2-opt), until the time limit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from frontierco.problems import TSPInstance, TSPSolution
from frontierco.registry import FileSource, FileStore
from frontierco.solver import Budget, Solver
from frontierco.solverkit import Clock, unit_square

ORIGIN = "https://raw.githubusercontent.com/henry-yeh/DeepACO/9a756a3/pretrained/tsp_nls"
# the authors' released weights (MIT), named by public origin and sha256; resolved through FileStore (cache,
# offline mirror, download), never copied into this repository
SHA256 = {
    100: "64747fc268917a169680831c5e0ec199ee05132b8a59588f160afc2400906142",
    500: "3c7f2de8ada93a016b2a17a79d50c1d50ee8233ffa33fb803c4d56e249352e3a",
    1000: "17be651adbd6a3aa66916204cf4f72c84941f5687bde19bf144193dd07a45455",
}
WEIGHTS = {size: FileSource(f"checkpoints/deepaco/tsp_nls/tsp{size}.pt", f"{ORIGIN}/tsp{size}.pt", sha) for size, sha in SHA256.items()}
MAX_NODES = 4000  # the ant system keeps dense n x n pheromone and heuristic matrices
EPS = 1e-10  # the heuristic of an edge outside the sparse graph (the authors' value)
SEARCH_CANDIDATES = 10


def trained_size(n: int) -> int:
    return min(WEIGHTS, key=lambda size: abs(np.log(size / n)))


def load_network(size: int, store: FileStore | None = None) -> Any:
    """The published network trained on ``size`` nodes, strict=True, in evaluation mode (as the authors test it)."""
    import torch

    from .model import HeuristicNetwork

    network = HeuristicNetwork()
    path = (store or FileStore()).path(WEIGHTS[size])
    network.load_state_dict(torch.load(path, map_location="cpu", weights_only=True), strict=True)
    return network.eval()


def heuristic_matrix(network: Any, points: np.ndarray, start: int = 0) -> np.ndarray:
    """eta (n, n): the network's score on each node's n/10 nearest neighbours (at least 10), EPS elsewhere."""
    import torch

    from frontierco.heatmap_gnn import knn_edges

    n = len(points)
    edge_index, edge_attr = knn_edges(points, max(10, n // 10))
    indicator = torch.zeros((n, 1))
    indicator[start] = 1.0
    with torch.no_grad():
        eta = network(indicator, edge_index, edge_attr).double().numpy()
    matrix = np.full((n, n), EPS)
    matrix[edge_index[0].numpy(), edge_index[1].numpy()] += eta
    return matrix


class DeepAco(Solver):
    name = "deepaco"
    problems = ("tsp",)
    version = "1"
    requires = {"torch": "torch>=2.2", "numba": "numba>=0.59"}
    deterministic = True
    published_weights = tuple(WEIGHTS.values())

    def setup(self) -> None:
        import torch

        self.torch = torch
        self.ants = int(self.params.get("ants", 48))  # the authors' test setting
        self.decay = float(self.params.get("decay", 0.9))
        self.local_search = str(self.params.get("local_search", "nls"))  # nls | 2opt | none
        self.nls_rounds = int(self.params.get("nls_rounds", 10))  # T_NLS
        self.perturbation_moves = int(self.params.get("perturbation_moves", 20))  # T_p
        if self.local_search not in ("nls", "2opt", "none"):
            raise ValueError(f"deepaco: local_search must be nls, 2opt or none, not {self.local_search!r}")
        self.networks: dict[int, Any] = {}

    def network(self, size: int) -> Any:
        if size not in self.networks:
            self.networks[size] = load_network(size)
        return self.networks[size]

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[TSPSolution]:
        from frontierco.tour_search import TourCosts, candidates, two_opt

        from .ants import construct, deposit

        self.torch.set_num_threads(max(1, budget.threads))
        clock = Clock(budget.time_limit, margin=0.05)
        n = instance.n
        if n <= 3:
            yield TSPSolution(np.arange(n))
            return
        if n > MAX_NODES:
            raise ValueError(f"deepaco keeps n x n matrices: {n} nodes is above its {MAX_NODES}")
        points = unit_square(instance)
        eta = heuristic_matrix(self.network(trained_size(n)), points)
        costs = TourCosts.of(instance) if self.local_search != "none" else None
        search = None if costs is None else candidates(costs, points, SEARCH_CANDIDATES)
        # the perturbation searches the "heuristic distance" 1 / (eta / row max + 1e-5): short where eta is high
        guide = TourCosts.dense(1.0 / (eta / eta.max(1, keepdims=True) + 1e-5)) if self.local_search == "nls" else None
        guide_lists = None if guide is None else candidates(guide, points, SEARCH_CANDIDATES)
        pheromone = np.ones((n, n))
        rng = np.random.default_rng(budget.seed)
        best = np.inf

        def improve(tour: np.ndarray) -> np.ndarray:
            if costs is None or search is None:
                return tour
            tour = two_opt(tour, costs, search)
            if guide is None or guide_lists is None:
                return tour
            kept, kept_length, current = tour, costs.length(tour), tour
            for _ in range(self.nls_rounds):
                if clock.expired():
                    break
                current = two_opt(two_opt(current, guide, guide_lists, self.perturbation_moves), costs, search)
                if (value := costs.length(current)) < kept_length:
                    kept, kept_length = current, value
            return kept

        while not clock.expired():
            tours = construct(pheromone * eta, 0, self.ants, int(rng.integers(2**31)))
            improved = []
            for tour in tours:
                if clock.expired() and improved:
                    break
                improved.append(improve(tour))
            tours = np.stack(improved)
            for tour in tours:
                if (value := instance.weights.path_length(np.append(tour, tour[0]))) < best:
                    best = value
                    yield TSPSolution(tour)
            # pheromone in the network's units (unit-square lengths), as the authors' ants deposit
            unit_lengths = np.linalg.norm(points[tours] - points[np.roll(tours, -1, axis=1)], axis=2).sum(1)
            deposit(pheromone, tours, np.maximum(unit_lengths, 1e-12), self.decay)
