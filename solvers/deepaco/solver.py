"""DeepACO (Ye et al., NeurIPS 2023) with its authors' published heuristic networks (neural local search
variant) for TSP and CVRP: an ant system whose heuristic is the network's heatmap (for TSP after a
nearest-neighbour tour yielded at once, before the network runs); each TSP ant's tour is
improved by the neural local search (2-opt, then rounds of heatmap-guided perturbation and 2-opt), the best
CVRP ants' solutions by PyVRP's local search; until the time limit."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from typing import Any

import numpy as np

from frontierco.filestore import FileStore
from frontierco.kit.solverkit import Clock, depot_routes, nearest_neighbour, refuse_route_limit, unit_square
from frontierco.manifests import FileSource
from frontierco.problems import CVRPInstance, CVRPSolution, TSPInstance, TSPSolution
from frontierco.problems.routing.cvrp import routes_length
from frontierco.solver import Budget, Solver

from .colony import DENSE_NODES, DenseRoutes, DenseTours, Graph, SparseRoutes, SparseTours

ORIGIN = "https://raw.githubusercontent.com/henry-yeh/DeepACO/9a756a3/pretrained"
# the authors' released weights (MIT), named by public origin and sha256; resolved through FileStore (cache,
# offline mirror, download), never copied into this repository
SHA256 = {
    ("tsp", 100): "64747fc268917a169680831c5e0ec199ee05132b8a59588f160afc2400906142",
    ("tsp", 500): "3c7f2de8ada93a016b2a17a79d50c1d50ee8233ffa33fb803c4d56e249352e3a",
    ("tsp", 1000): "17be651adbd6a3aa66916204cf4f72c84941f5687bde19bf144193dd07a45455",
    ("cvrp", 100): "2f52380254070fd24b81f705bbd336d3a1516edbc30f52e432d09c6460aeb4f5",
    ("cvrp", 500): "defe91e36ffa94c6cd2edb31f298e7fc2cb30303da1c58f81fd110dc4a9ec153",
}
WEIGHTS = {
    (problem, size): FileSource(f"checkpoints/deepaco/{problem}_nls/{problem}{size}.pt", f"{ORIGIN}/{problem}_nls/{problem}{size}.pt", sha)
    for (problem, size), sha in SHA256.items()
}
ANTS = {"tsp": 48, "cvrp": 20}  # the authors' test settings
SEARCHED_ANTS = 8  # CVRP: the ants whose solutions get the local search each iteration (the authors' choice)
MAX_NODES = 35_000  # the network's graph: about 60 KB a node for its 100 edges, 13 us of one core an edge
GRAPH_DEGREE = {"tsp": 100, "cvrp": 50}  # the authors' n/10 neighbours, at most as many as at the largest trained size
SEARCH_CANDIDATES = 10


def trained_size(problem: str, n: int) -> int:
    return min((size for p, size in WEIGHTS if p == problem), key=lambda size: abs(np.log(size / n)))


def load_network(problem: str, size: int, store: FileStore | None = None) -> Any:
    """The published network for ``problem`` trained on ``size`` nodes (customers), strict=True, in evaluation
    mode (as the authors test it)."""
    import torch

    from .model import HeuristicNetwork

    network = HeuristicNetwork()
    path = (store or FileStore()).path(WEIGHTS[(problem, size)])
    network.load_state_dict(torch.load(path, map_location="cpu", weights_only=True), strict=True)
    return network.eval()


def sparse_graph(points: np.ndarray, problem: str) -> tuple[Any, Any]:
    """The authors' sparse graph: each node's n/10 nearest neighbours (at least 10, at most as many as the
    largest network was trained with: 100 for TSP-1000, 50 for CVRP-500); for CVRP among the customers, plus
    every depot-customer edge in both directions. Edge input: the edge's length."""
    import torch

    from frontierco.kit.heatmap_gnn import knn_edges

    n = len(points)
    if problem == "tsp":
        return knn_edges(points, min(max(10, n // 10), GRAPH_DEGREE["tsp"]))
    customers = np.arange(1, n)
    index, _ = knn_edges(points[1:], min(max(10, (n - 1) // 10), GRAPH_DEGREE["cvrp"]))
    depot = np.zeros(n - 1, dtype=np.int64)
    source = np.concatenate([index[0].numpy() + 1, depot, customers])
    target = np.concatenate([index[1].numpy() + 1, customers, depot])
    length = np.linalg.norm(points[source] - points[target], axis=1)
    return torch.from_numpy(np.stack([source, target])).long(), torch.from_numpy(length).float()[:, None]


def heatmap(network: Any, points: np.ndarray, node_input: np.ndarray, problem: str, device: str = "cpu") -> Graph:
    """The network's score eta on each edge of the sparse graph. ``node_input``: TSP, 1 at the ants' start node
    0; CVRP, the demands as fractions of the capacity (0 at the depot). The network runs on ``device``; the ants
    run on the CPU."""
    import torch

    edge_index, edge_attr = sparse_graph(points, problem)
    x = torch.from_numpy(node_input).float()[:, None]
    with torch.no_grad():
        eta = network.to(device)(x.to(device), edge_index.to(device), edge_attr.to(device)).double().cpu().numpy()
    return Graph(len(points), edge_index.numpy(), eta)


def heuristic_matrix(network: Any, points: np.ndarray, node_input: np.ndarray, problem: str, device: str = "cpu") -> np.ndarray:
    """eta (n, n): the network's score on the sparse graph's edges, EPS elsewhere (the authors' dense matrix)."""
    return heatmap(network, points, node_input, problem, device).dense()


def routes_of(visits: np.ndarray) -> list[list[int]]:
    """A visit sequence (0 at the depot, -1 after the end) as routes of customers."""
    visits = visits[visits >= 0]
    return [r[r != 0].tolist() for r in np.split(visits, np.flatnonzero(visits == 0)) if np.any(r != 0)]


def visits_of(routes: list[list[int]], width: int) -> np.ndarray:
    flat = [0] + [node for route in routes for node in (*route, 0)]
    return np.array(flat + [-1] * (width - len(flat)), dtype=np.int64)


class DeepAco(Solver):
    name = "deepaco"
    problems = ("tsp", "cvrp")
    learned = True
    version = "3"  # 3: above 4,000 nodes the ants on the sparse graph (colony.py, sparse.py); graphs of 100 (TSP) or 50 (CVRP) at most
    requires = {"torch": "torch>=2.2", "numba": "numba>=0.59"}
    deterministic = True
    published_weights = tuple(WEIGHTS.values())

    def setup(self) -> None:
        import torch

        self.torch = torch
        for module in (
            "frontierco.kit.tour_search",
            f"{__package__}.ants",
            f"{__package__}.sparse",
        ):  # compiled (or loaded from numba's cache) before the clock
            import_module(module).warm_up()
        self.ants = int(self.params["ants"])  # 0: the authors' setting (TSP 48, CVRP 20)
        self.decay = float(self.params["decay"])
        self.local_search = str(self.params["local_search"])  # nls | 2opt (TSP) | none
        self.nls_rounds = int(self.params["nls_rounds"])  # T_NLS
        self.perturbation_moves = int(self.params["perturbation_moves"])  # T_p
        self.iterations = int(self.params["iterations"])  # 0: until the time limit; 10: the authors' T
        if self.local_search not in ("nls", "2opt", "none"):
            raise ValueError(f"deepaco: local_search must be nls, 2opt or none, not {self.local_search!r}")
        self.networks: dict[tuple[str, int], Any] = {}

    def network(self, problem: str, n: int) -> Any:
        key = (problem, trained_size(problem, n))
        if key not in self.networks:
            self.networks[key] = load_network(*key, self.files)
        return self.networks[key]

    def solve(self, instance: TSPInstance | CVRPInstance, budget: Budget) -> Iterator[TSPSolution | CVRPSolution]:
        refuse_route_limit(instance, self.name)  # its ants build routes by capacity alone
        self.torch.set_num_threads(max(1, budget.threads))
        clock = Clock(budget.time_limit, margin=0.05)
        if instance.n > MAX_NODES:
            raise ValueError(
                f"deepaco serves up to {MAX_NODES:,} nodes: its network reads a graph of 100 edges a node (at {MAX_NODES:,} nodes"
                f" about 2 GB and 45 s of one core before the first ant), and no partition scheme of its authors is implemented"
                f" here; this one has {instance.n:,}"
            )
        if isinstance(instance, TSPInstance):
            yield from self.solve_tsp(instance, budget, clock)
        else:
            yield from self.solve_cvrp(instance, budget, clock)

    def rounds(self, clock: Clock) -> Iterator[int]:
        iteration = 0
        while not clock.expired() and (self.iterations == 0 or iteration < self.iterations):
            yield iteration
            iteration += 1

    def solve_tsp(self, instance: TSPInstance, budget: Budget, clock: Clock) -> Iterator[TSPSolution]:
        n = instance.n
        if n <= 3:
            yield TSPSolution(np.arange(n))
            return
        rng = np.random.default_rng(budget.seed)
        # milliseconds; before anything slow (the numba modules' import, the heatmap)
        first = nearest_neighbour(instance.weights, int(rng.integers(n)))
        yield TSPSolution(first)
        from frontierco.kit.tour_search import TourCosts, candidates, two_opt

        best = instance.weights.path_length(np.append(first, first[0]))
        points = unit_square(instance)
        start = np.zeros(n)
        start[0] = 1.0
        graph = heatmap(self.network("tsp", n), points, start, "tsp", budget.device)
        colony = DenseTours(graph.dense(), points) if n <= DENSE_NODES else SparseTours.of(graph, points)
        costs = TourCosts.of(instance) if self.local_search != "none" else None
        search = None if costs is None else candidates(costs, points, SEARCH_CANDIDATES)
        # the perturbation: moves on the "heuristic distance" 1 / (eta / row max + 1e-5), short where eta is high
        perturb = colony.perturber(self.perturbation_moves) if self.local_search == "nls" else None

        def improve(tour: np.ndarray) -> np.ndarray:
            if costs is None or search is None:
                return tour
            tour = two_opt(tour, costs, search)
            if perturb is None:
                return tour
            kept, kept_length, current = tour, costs.length(tour), tour
            for _ in range(self.nls_rounds):
                if clock.expired():
                    break
                current = two_opt(perturb(current), costs, search)
                if (value := costs.length(current)) < kept_length:
                    kept, kept_length = current, value
            return kept

        for _ in self.rounds(clock):
            tours = colony.construct(self.ants or ANTS["tsp"], int(rng.integers(2**31)))
            improved: list[np.ndarray] = []
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
            colony.deposit(tours, np.maximum(unit_lengths, 1e-12), self.decay)

    def solve_cvrp(self, instance: CVRPInstance, budget: Budget, clock: Clock) -> Iterator[CVRPSolution]:
        from frontierco.kit.route_search import RouteSearch

        n = instance.n
        if n < 2:
            yield CVRPSolution(())
            return
        if np.any(instance.demands > instance.capacity):
            return  # a customer no vehicle can carry: no feasible solution exists
        points = unit_square(instance)
        demand = instance.demands / instance.capacity
        graph = heatmap(self.network("cvrp", n - 1), points, demand, "cvrp", budget.device)
        colony = DenseRoutes(graph.dense()) if n <= DENSE_NODES else SparseRoutes.of(graph)
        # PyVRP's search keeps n x n matrices: above DENSE_NODES each route's own 2-opt instead
        search = RouteSearch(instance, budget.seed) if self.local_search != "none" and n <= DENSE_NODES else None
        route_search = self.local_search != "none" and n > DENSE_NODES
        rng = np.random.default_rng(budget.seed)
        best = np.inf

        def unit_length(visits: np.ndarray) -> float:
            path = visits[visits >= 0]
            return float(np.linalg.norm(points[path[1:]] - points[path[:-1]], axis=1).sum())

        for _ in self.rounds(clock):
            visits = colony.construct(demand, self.ants or ANTS["cvrp"], int(rng.integers(2**31)))
            solutions = [[r.tolist() for r in depot_routes(v)] for v in visits]
            lengths = np.array([routes_length(instance.weights, [np.asarray(r) for r in s]) for s in solutions])
            for a in np.argsort(lengths, kind="stable")[: SEARCHED_ANTS if search is not None or route_search else 0]:
                if clock.expired():
                    break
                improved = search.descend(solutions[a]) if search is not None else two_opt_routes(instance, solutions[a])
                value = np.inf if improved is None else routes_length(instance.weights, [np.asarray(r) for r in improved])
                if improved is not None and value < lengths[a]:
                    solutions[a], lengths[a] = improved, value
                    visits[a] = visits_of(improved, visits.shape[1])
            a = int(np.argmin(lengths))
            if lengths[a] < best:
                best = float(lengths[a])
                yield CVRPSolution(tuple(np.array(r, dtype=np.int64) for r in solutions[a]))
            colony.deposit(visits, np.maximum([unit_length(v) for v in visits], 1e-12), self.decay)


def two_opt_routes(instance: CVRPInstance, routes: list[list[int]]) -> list[list[int]]:
    """Each route (from the depot 0 and back) to a 2-opt local optimum of its own, on its 10-nearest candidate lists
    (``frontierco.kit.tour_search``, the instance's own coordinates and rounding rule)."""
    from frontierco.kit.tour_search import RULE_CODES, TourCosts, nearest_neighbours, two_opt

    coords = instance.weights.coords
    if coords is None or instance.weights.rule not in RULE_CODES:
        return routes
    result = []
    for route in routes:
        path = np.array([0, *route], dtype=np.int64)
        if len(path) < 5:
            result.append(route)
            continue
        xy = np.ascontiguousarray(coords[path], dtype=np.float64)
        costs = TourCosts(np.zeros((1, 1)), xy, RULE_CODES[instance.weights.rule])
        tour = two_opt(np.arange(len(path)), costs, nearest_neighbours(xy, SEARCH_CANDIDATES))
        tour = np.roll(tour, -int(np.flatnonzero(tour == 0)[0]))
        result.append(path[tour[1:]].tolist())
    return result
