"""Clarke-Wright savings (1964) for CVRP: the classical construction, in memory that grows with n (nearest-neighbour
candidate pairs above 2,000 customers), used by the ``savings`` solver and as the first solution of others."""

from __future__ import annotations

import numpy as np

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
    routes: dict[int, list[int]] = {c: [c] for c in range(1, n)}
    owner = {c: c for c in range(1, n)}
    load = {c: float(instance.demands[c]) for c in range(1, n)}
    limit = instance.max_distance
    length: dict[int, float] = {}
    if limit is not None:  # half the checker's slack: float sums taken in another order still pass
        limit += ROUTE_LENGTH_TOLERANCE / 2
        customers = np.arange(1, n)
        service, depot = float(instance.service_time or 0.0), np.zeros_like(customers)
        trips = weights.between(depot, customers).astype(np.float64) + weights.between(customers, depot)
        length = {int(c): float(t) + service for c, t in zip(customers, trips, strict=True)}
    for k in order:
        if saving[k] <= 0:
            break
        a, b = int(i[k]), int(j[k])
        ra, rb = owner[a], owner[b]
        if ra == rb or load[ra] + load[rb] > instance.capacity:
            continue
        if limit is not None and length[ra] + length[rb] - shorter[k] > limit:
            continue
        left, right = routes[ra], routes[rb]
        if left[-1] != a and symmetric and left[0] == a:
            left.reverse()
        if right[0] != b and symmetric and right[-1] == b:
            right.reverse()
        if left[-1] != a or right[0] != b:
            continue
        left.extend(right)
        load[ra] += load.pop(rb)
        if limit is not None:
            length[ra] += length.pop(rb) - float(shorter[k])
        for c in routes.pop(rb):
            owner[c] = ra
    return list(routes.values())
