"""DIMES (Qiu, Sun, Yang, NeurIPS 2022) for TSP with its authors' published heatmap networks: a nearest-neighbour
tour at once (before the network runs), greedy decoding from many starts, 2-opt, then rounds of
low-temperature sampling from the heatmap, each sampled tour 2-opted, until the time limit; every improvement
is yielded."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from typing import Any

import numpy as np

from frontierco.filestore import FileStore
from frontierco.kit.nearest_tour import nearest_tour
from frontierco.kit.solverkit import Clock, unit_square
from frontierco.manifests import FileSource
from frontierco.problems import TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver

ORIGIN = "https://raw.githubusercontent.com/DIMESTeam/DIMES/95aaa91/TSP"
# the authors' released weights (MIT), named by public origin and sha256; resolved through FileStore (cache,
# offline mirror, download), never copied into this repository
SHA256 = {
    100: "9b10cb33bdb934901e82ea60032d63e3991c5d826d9b3c35de15e42117541c0f",
    500: "72b229f99a39946b489b88654264c1293fab64eed3cbb7efb914064ec609d2e8",
    1000: "67b6a6b39f8977714eb3a8cf357b0630ae952332a735cb87adaa222657a29f71",
    10000: "704f5fd525162ecea4ee24ec6f332aec89dfed8c1ab816b6c4d6a5069785f066",
}
FILES = {
    100: "TSP-Full/tsp100~net100.pt",
    500: "TSP-KNN/output/tsp500~net120.pt",
    1000: "TSP-KNN/output/tsp1000~net120.pt",
    10000: "TSP-KNN/output/tsp10000~net50.pt",
}
WEIGHTS = {
    size: FileSource(f"checkpoints/dimes/{FILES[size].rsplit('/', 1)[1]}", f"{ORIGIN}/{FILES[size]}", sha) for size, sha in SHA256.items()
}
KNN = 50  # the k of the networks' k-nearest-neighbour graphs
MAX_NODES = 100_000  # the network's graph: about 30 KB and 0.6 ms of one core a node (100,000 nodes: 3 GB, 63 s)
SEARCH_CANDIDATES = 10  # the candidate lists of the 2-opt


FULL_GRAPH_LIMIT = 300  # up to this many nodes the TSP-100 network (complete graph), above it the TSP-10000 one


def trained_size(n: int) -> int:
    """The network for an instance of n nodes, chosen by measured quality (`benchmarks/dimes_networks.py`:
    the solver's tour after 10 s on six seeded uniform instances per size): the complete-graph TSP-100
    network up to 300 nodes (at 200: 1.5-1.7% shorter than the 500 and 1000 ones), the TSP-10000 network
    above (at 500, 1000 and 2000: 0.7-1.7% shorter than the 500 and 1000 ones, even on their own sizes)."""
    return 100 if n <= FULL_GRAPH_LIMIT else 10000


def load_network(size: int, store: FileStore | None = None) -> Any:
    """The published network trained on ``size`` nodes, loaded with strict=True. Its batch normalisation
    normalises with each graph's own statistics, as the authors' test scripts run it (in training mode)."""
    import torch

    from .model import FullNetwork, KnnNetwork

    network = FullNetwork() if size == 100 else KnnNetwork()
    path = (store or FileStore()).path(WEIGHTS[size])
    network.load_state_dict(torch.load(path, map_location="cpu", weights_only=True), strict=True)
    network.eval()
    for module in network.modules():
        if isinstance(module, torch.nn.BatchNorm1d):
            module.train()
    return network


def heatmap(network: Any, points: np.ndarray, full_graph: bool, device: str = "cpu") -> tuple[np.ndarray, np.ndarray]:
    """Candidate lists (n, k) and their scores theta (n, k) for the unit-square ``points`` (the network runs on
    ``device``; decoding runs on the CPU)."""
    import torch

    from frontierco.kit.heatmap_gnn import complete_edges, knn_edges

    edge_index, edge_attr = complete_edges(points) if full_graph else knn_edges(points, KNN)
    with torch.no_grad():
        inputs = (torch.from_numpy(points).float(), edge_index, edge_attr)
        theta = network.to(device)(*(t.to(device) for t in inputs)).double().cpu().numpy()
    n = len(points)
    return edge_index[1].numpy().reshape(n, -1), theta.reshape(n, -1)


class Dimes(Solver):
    name = "dimes"
    problems = ("tsp",)
    learned = True
    version = "4"  # 4: the nearest-neighbour tour from candidate lists (the same tour, in O(n k)); up to 100,000 nodes
    requires = {"torch": "torch>=2.2", "numba": "numba>=0.59"}
    deterministic = True
    published_weights = tuple(WEIGHTS.values())

    def setup(self) -> None:
        import torch

        self.torch = torch
        for module in (
            "frontierco.kit.tour_search",
            "frontierco.kit.nearest_tour",
            f"{__package__}.decode",
        ):  # compiled (or loaded from numba's cache) before the clock
            import_module(module).warm_up()
        self.starts = int(self.params["starts"])  # greedy starts, the paper's G setting
        self.temperature = float(self.params["temperature"])  # the paper's S setting (tau)
        self.batch = int(self.params["batch"])  # sampled tours per round
        self.local_search = bool(self.params["local_search"])
        chosen = self.params["network"]  # a trained size, or "auto" (by instance size)
        if chosen != "auto" and int(chosen) not in WEIGHTS:
            raise ValueError(f"dimes: network must be 'auto' or one of {sorted(WEIGHTS)}, got {chosen!r}")
        self.chosen = None if chosen == "auto" else int(chosen)
        self.networks: dict[int, Any] = {}

    def network(self, size: int) -> Any:
        if size not in self.networks:
            self.networks[size] = load_network(size, self.files)
        return self.networks[size]

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[TSPSolution]:
        clock = Clock(budget.time_limit, margin=0.05)
        n = instance.n
        if n > MAX_NODES:
            raise ValueError(
                f"dimes serves up to {MAX_NODES:,} nodes: its network reads the 50-nearest-neighbour graph (at {MAX_NODES:,} nodes"
                f" about 3 GB and 63 s of one core before the first decoded tour), and the paper describes no scheme for larger"
                f" instances; this one has {n:,}"
            )
        if n <= 3:
            yield TSPSolution(np.arange(n))
            return
        rng = np.random.default_rng(budget.seed)
        # milliseconds; before anything slow (the numba modules' import, the heatmap)
        first = nearest_tour(instance.weights, int(rng.integers(n)))
        yield TSPSolution(first)
        from frontierco.kit.tour_search import TourCosts, candidates, two_opt

        from .decode import construct

        self.torch.set_num_threads(max(1, budget.threads))
        points = unit_square(instance)
        size = self.chosen or trained_size(n)
        neighbours, theta = heatmap(self.network(size), points, full_graph=size == 100, device=budget.device)
        costs = TourCosts.of(instance) if self.local_search else None
        search = None if costs is None else candidates(costs, points, SEARCH_CANDIDATES)

        def length(tour: np.ndarray) -> float:
            return instance.weights.path_length(np.append(tour, tour[0]))

        # greedy from distinct starts, in chunks so that a large instance still answers within its limit
        order = rng.permutation(n)[: min(self.starts, n)]
        greedy, greedy_length = None, np.inf
        for chunk in np.array_split(order, max(1, len(order) // 16)):
            for tour in construct(chunk, neighbours, theta, points, 0.0, int(rng.integers(2**31))):
                if (value := length(tour)) < greedy_length:
                    greedy, greedy_length = tour, value
            if clock.expired():
                break
        assert greedy is not None
        best = length(first)
        if greedy_length < best:
            best = greedy_length
            yield TSPSolution(greedy)
        if search is not None and costs is not None:
            improved = two_opt(greedy, costs, search)
            if (value := length(improved)) < best:
                best = value
                yield TSPSolution(improved)
        while not clock.expired():
            starts = rng.integers(n, size=self.batch)
            sampled = construct(starts, neighbours, theta, points, self.temperature, int(rng.integers(2**31)))
            tours: list[np.ndarray] = list(sampled)
            if search is not None and costs is not None:
                scores = costs.edge(sampled, np.roll(sampled, -1, axis=1)).sum(1)
                tours = [two_opt(sampled[i], costs, search) for i in np.argsort(scores)[:4] if not clock.expired()]
            for tour in tours:
                if (value := length(tour)) < best:
                    best = value
                    yield TSPSolution(tour)
