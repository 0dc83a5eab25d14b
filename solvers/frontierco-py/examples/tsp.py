"""Nearest-neighbour tour, written as a FrontierCO TSP solve file (kwargs: nodes, a list of [x, y])."""

import math


def solve(**kwargs):
    nodes = kwargs["nodes"]
    matrix = kwargs.get("dist_matrix")  # only for instances given by a matrix

    def distance(a, b):
        if matrix is not None:
            return matrix[a][b]
        return math.dist(nodes[a], nodes[b])

    n = len(nodes) if matrix is None else len(matrix)
    tour, left = [0], set(range(1, n))
    while left:
        last = tour[-1]
        nearest = min(left, key=lambda v: distance(last, v))
        tour.append(nearest)
        left.remove(nearest)
    yield {"tour": tour}
