"""Clarke-Wright savings (1964) for CVRP: the classical construction, in memory that grows with n (nearest-neighbour
candidate pairs above 2,000 customers), used by the ``savings`` solver and as the first solution of others."""

from __future__ import annotations

import numpy as np
from numba import njit

from frontierco.problems import CVRPInstance
from frontierco.problems.routing.cvrp import ROUTE_LENGTH_TOLERANCE

FULL_PAIRS_UP_TO = 2000
NEIGHBOURS = 50


def candidate_pairs(instance: CVRPInstance) -> tuple[np.ndarray, np.ndarray]:
    """Ordered customer pairs (i, j) to consider joining: all of them for small instances, else each
    customer with its nearest neighbours."""
    n = instance.n
    customers = np.arange(1, n)
    if n - 1 <= FULL_PAIRS_UP_TO:
        i, j = np.meshgrid(customers, customers, indexing="ij")
        keep = i != j
        return i[keep], j[keep]
    weights = instance.weights
    k = min(NEIGHBOURS, n - 2)
    if weights.coords is not None:
        from scipy.spatial import cKDTree

        _, nearest = cKDTree(weights.coords[1:]).query(weights.coords[1:], k=k + 1)
        nearest = nearest[:, 1:] + 1
    else:
        assert weights.matrix is not None
        block = weights.matrix[1:, 1:].astype(np.float64) + np.diag(np.full(n - 1, np.inf))
        nearest = np.argpartition(block, k, axis=1)[:, :k] + 1
    first, second = np.repeat(customers, nearest.shape[1]), nearest.ravel()
    return np.concatenate([first, second]), np.concatenate([second, first])


@njit(cache=True)
def _merge(
    first: np.ndarray,
    second: np.ndarray,
    order: np.ndarray,
    shorter: np.ndarray,
    demands: np.ndarray,
    capacity: float,
    length: np.ndarray,
    limit: float,
    symmetric: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Clarke and Wright's merges over the pairs in ``order`` (positive savings only; a merge of pair k takes
    ``shorter[k]`` off the routes' ``length``, which must stay within ``limit``), routes as linked lists of
    customers 1..n-1: the first customer of each route (0 where the route was merged away) and each customer's
    successor (0 at a route's end)."""
    n = demands.shape[0]
    start = np.arange(n)
    end = np.arange(n)
    succ = np.zeros(n, dtype=np.int64)
    pred = np.zeros(n, dtype=np.int64)
    owner = np.arange(n)
    load = demands.astype(np.float64)
    for k in order:
        a, b = first[k], second[k]
        ra, rb = owner[a], owner[b]
        if ra == rb or load[ra] + load[rb] > capacity or length[ra] + length[rb] - shorter[k] > limit:
            continue
        if end[ra] != a and symmetric and start[ra] == a:
            _reverse(ra, start, end, succ, pred)
        if start[rb] != b and symmetric and end[rb] == b:
            _reverse(rb, start, end, succ, pred)
        if end[ra] != a or start[rb] != b:
            continue
        succ[a], pred[b] = b, a
        end[ra] = end[rb]
        load[ra] += load[rb]
        length[ra] += length[rb] - shorter[k]
        c = b
        while c != 0:
            owner[c] = ra
            c = succ[c]
        start[rb] = 0
    start[0] = 0
    return start, succ


@njit(cache=True)
def _reverse(route: int, start: np.ndarray, end: np.ndarray, succ: np.ndarray, pred: np.ndarray) -> None:
    c = start[route]
    while c != 0:
        following = succ[c]
        succ[c], pred[c] = pred[c], following
        c = following
    start[route], end[route] = end[route], start[route]


def savings_routes(instance: CVRPInstance, shape: float = 1.0) -> list[list[int]]:
    """Merge routes in order of decreasing saving d(i,0) + d(0,j) - shape * d(i,j), joining the route that ends
    at i to the route that starts at j while the load fits and, when the instance has a maximum route length,
    while the joined route (its travel, shorter than the two by d(i,0) + d(0,j) - d(i,j), plus its service times)
    stays within it (routes may be turned around when the distances are symmetric; that changes no length).
    ``shape`` is the route-shape parameter of Yellow (1970) and Gaskell (1967): 1 is Clarke and Wright's saving;
    above 1 favours joining near customers over sharing the trip to the depot."""
    n = instance.n
    weights = instance.weights
    matrix = weights.matrix
    symmetric = weights.rule != "EXPLICIT" or matrix is None or bool(np.array_equal(matrix, matrix.T))
    i, j = candidate_pairs(instance)
    zeros = np.zeros_like(i)
    joined = weights.between(i, j).astype(np.float64)
    saving = weights.between(i, zeros).astype(np.float64) + weights.between(zeros, j) - shape * joined
    shorter = saving + (shape - 1.0) * joined  # what a merge takes off the length: the saving at shape 1
    order = np.argsort(-saving, kind="stable")
    order = order[saving[order] > 0]
    length = np.zeros(n)  # each route's travel plus service times: needed only against a limit
    limit = np.inf
    if instance.max_distance is not None:  # half the checker's slack: float sums taken in another order still pass
        limit = instance.max_distance + ROUTE_LENGTH_TOLERANCE / 2
        customers = np.arange(1, n)
        depot = np.zeros_like(customers)
        length[1:] = weights.between(depot, customers) + weights.between(customers, depot) + float(instance.service_time or 0.0)
    first, second = i.astype(np.int64), j.astype(np.int64)
    start, succ = _merge(first, second, order, shorter, instance.demands, float(instance.capacity), length, limit, symmetric)
    routes = []
    for head in start[start > 0]:
        route = [int(head)]
        while succ[route[-1]]:
            route.append(int(succ[route[-1]]))
        routes.append(route)
    return routes
