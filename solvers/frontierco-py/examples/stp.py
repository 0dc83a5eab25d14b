"""Shortest-path heuristic (Takahashi and Matsuyama), written as a FrontierCO STP solve file (kwargs: n, m,
graph_edges {(u, v): cost}, terminals; vertices numbered from 1): grow a tree from the first terminal by the
shortest path to the nearest terminal not yet in it."""

import heapq


def solve(**kwargs):
    n, terminals = kwargs["n"], kwargs["terminals"]
    neighbours = {v: [] for v in range(1, n + 1)}
    for (u, v), cost in kwargs["graph_edges"].items():
        neighbours[u].append((v, cost))
        neighbours[v].append((u, cost))
    tree, edges, cost_sum = {terminals[0]}, [], 0.0
    left = set(terminals) - tree
    while left:
        distance, parent = {v: 0.0 for v in tree}, {}
        heap = [(0.0, v) for v in tree]
        while heap:
            d, v = heapq.heappop(heap)
            if d > distance[v]:
                continue
            if v in left:
                break
            for w, c in neighbours[v]:
                if d + c < distance.get(w, float("inf")):
                    distance[w], parent[w] = d + c, v
                    heapq.heappush(heap, (d + c, w))
        while v not in tree:
            u = parent[v]
            edges.append((min(u, v), max(u, v)))
            cost_sum += kwargs["graph_edges"][(min(u, v), max(u, v))]
            tree.add(v)
            v = u
        left -= tree
    yield {"declared_cost": cost_sum, "num_edges": len(edges), "edges": edges}
