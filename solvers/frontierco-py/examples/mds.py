"""Greedy by newly dominated vertices, written as a FrontierCO MDS solve file (kwargs: graph, a networkx graph of
nodes 1..n); then each vertex whose removal keeps the set dominating is dropped, and the smaller set yielded."""


def solve(**kwargs):
    graph = kwargs["graph"]
    closed = {v: {v, *graph.neighbors(v)} for v in graph.nodes}
    undominated, chosen = set(graph.nodes), []
    while undominated:
        v = max(graph.nodes, key=lambda u: (len(closed[u] & undominated), -u))
        chosen.append(v)
        undominated -= closed[v]
    yield {"mds_nodes": sorted(chosen)}
    kept = set(chosen)
    count = {v: len(closed[v] & kept) for v in graph.nodes}
    for v in sorted(chosen, key=graph.degree):
        if all(count[u] >= 2 for u in closed[v]):
            kept.remove(v)
            for u in closed[v]:
                count[u] -= 1
    if len(kept) < len(chosen):
        yield {"mds_nodes": sorted(kept)}
