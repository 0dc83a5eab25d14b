"""DeepACO's pheromone and heuristic with the moves of its ants, in two layouts: the authors' dense n x n matrices
(``ants.py``) up to ``DENSE_NODES`` nodes, and the network's sparse graph alone above (``sparse.py``): the same
interface, so that the solver's loop is one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

Perturb = Callable[[np.ndarray], np.ndarray]

EPS = 1e-10  # the heuristic of an edge off the sparse graph (the authors' value)
DENSE_NODES = 4000  # up to this many nodes the authors' dense matrices; an n x n matrix of 18,512 nodes is 2.7 GB
GUIDE_CANDIDATES = 10  # the candidates of the perturbation: least heuristic distance first
NLS_OFFSET = 1e-5  # the heuristic distance 1 / (eta / row max + 1e-5) (the authors' neural local search)


@dataclass
class Graph:
    """The network's scores on its sparse graph: ``edges`` (2, m) and ``eta`` (m,), source-major."""

    n: int
    edges: np.ndarray
    eta: np.ndarray

    def dense(self) -> np.ndarray:
        """eta (n, n): the score on the graph's edges plus EPS, EPS elsewhere (the authors' matrix)."""
        matrix = np.full((self.n, self.n), EPS)
        matrix[self.edges[0], self.edges[1]] += self.eta
        return matrix


@dataclass
class DenseTours:
    """The authors' TSP colony: pheromone and heuristic as n x n matrices."""

    eta: np.ndarray
    points: np.ndarray
    pheromone: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.pheromone = np.ones_like(self.eta)

    def construct(self, count: int, seed: int) -> np.ndarray:
        from .ants import construct

        return construct(self.pheromone * self.eta, 0, count, seed)

    def deposit(self, tours: np.ndarray, lengths: np.ndarray, decay: float) -> None:
        from .ants import deposit

        deposit(self.pheromone, tours, lengths, decay)

    def perturber(self, moves: int) -> Perturb:
        """The neural perturbation: up to ``moves`` improving 2-opt moves on the heuristic distance (a dense matrix)."""
        from frontierco.kit.tour_search import TourCosts, candidates, two_opt

        guide = TourCosts.dense(1.0 / (self.eta / self.eta.max(1, keepdims=True) + NLS_OFFSET))
        lists = candidates(guide, self.points, GUIDE_CANDIDATES)
        return lambda tour: two_opt(tour, guide, lists, moves)


@dataclass
class SparseTours:
    """The TSP colony on the sparse graph: candidate lists (n, k), heuristic and pheromone on them."""

    candidates: np.ndarray
    eta: np.ndarray
    points: np.ndarray
    pheromone: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.pheromone = np.ones_like(self.eta)

    @classmethod
    def of(cls, graph: Graph, points: np.ndarray) -> SparseTours:
        return cls(graph.edges[1].reshape(graph.n, -1), graph.eta.reshape(graph.n, -1) + EPS, points)

    def construct(self, count: int, seed: int) -> np.ndarray:
        from .sparse import construct_tours

        return construct_tours(self.candidates, self.pheromone * self.eta, self.points, 0, count, seed)

    def deposit(self, tours: np.ndarray, lengths: np.ndarray, decay: float) -> None:
        from .sparse import deposit_tours

        deposit_tours(self.pheromone, self.candidates, tours, lengths, decay)

    def perturber(self, moves: int) -> Perturb:
        """The neural perturbation on the sparse graph: the heuristic distance on the candidate edges, its value
        for EPS off them, each node's candidates of least heuristic distance first."""
        from .sparse import perturb

        row_max = self.eta.max(1, keepdims=True)
        guide = 1.0 / (self.eta / row_max + NLS_OFFSET)
        far = 1.0 / (EPS / row_max[:, 0] + NLS_OFFSET)
        order = np.argsort(guide, axis=1, kind="stable")[:, :GUIDE_CANDIDATES]
        lists = np.ascontiguousarray(np.take_along_axis(self.candidates, order, 1))
        return lambda tour: perturb(tour, self.candidates, guide, far, lists, moves)


@dataclass
class DenseRoutes:
    """The authors' CVRP colony: pheromone and heuristic as n x n matrices."""

    eta: np.ndarray
    pheromone: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.pheromone = np.ones_like(self.eta)

    def construct(self, demand: np.ndarray, count: int, seed: int) -> np.ndarray:
        from .ants import construct_routes

        return construct_routes(self.pheromone * self.eta, demand, count, seed)

    def deposit(self, visits: np.ndarray, lengths: np.ndarray, decay: float) -> None:
        from .ants import deposit_routes

        deposit_routes(self.pheromone, visits, lengths, decay)


@dataclass
class SparseRoutes:
    """The CVRP colony on the sparse graph: each customer's candidate customers (row 0 unused), the depot's edges
    to and from every customer apart."""

    candidates: np.ndarray
    eta: np.ndarray
    leave_eta: np.ndarray
    back_eta: np.ndarray
    pheromone: np.ndarray = field(init=False)
    leave: np.ndarray = field(init=False)
    back: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.pheromone, self.leave, self.back = np.ones_like(self.eta), np.ones_like(self.leave_eta), np.ones_like(self.back_eta)

    @classmethod
    def of(cls, graph: Graph) -> SparseRoutes:
        """From the CVRP graph (``solver.sparse_graph``): the customers' k-nearest edges, then depot to each
        customer, then each customer to the depot."""
        n, customers = graph.n, graph.n - 1
        k = (graph.edges.shape[1] - 2 * customers) // customers
        candidates = np.zeros((n, k), dtype=np.int64)
        eta = np.zeros((n, k))
        candidates[1:] = graph.edges[1, : customers * k].reshape(customers, k)
        eta[1:] = graph.eta[: customers * k].reshape(customers, k) + EPS
        leave, back = np.zeros(n), np.zeros(n)
        leave[1:] = graph.eta[customers * k : customers * (k + 1)] + EPS
        back[1:] = graph.eta[customers * (k + 1) :] + EPS
        return cls(candidates, eta, leave, back)

    def construct(self, demand: np.ndarray, count: int, seed: int) -> np.ndarray:
        from .sparse import construct_routes

        weights = self.pheromone * self.eta
        return construct_routes(self.candidates, weights, self.leave * self.leave_eta, self.back * self.back_eta, demand, count, seed)

    def deposit(self, visits: np.ndarray, lengths: np.ndarray, decay: float) -> None:
        from .sparse import deposit_routes

        deposit_routes(self.pheromone, self.leave, self.back, self.candidates, visits, lengths, decay)
