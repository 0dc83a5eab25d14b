"""Minimum-degree greedy, written as a FrontierCO MIS solve file (kwargs: graph, a networkx graph of nodes 1..n)."""


def solve(**kwargs):
    graph = kwargs["graph"].copy()
    chosen = []
    while graph.number_of_nodes():
        v = min(graph.nodes, key=lambda u: (graph.degree(u), u))
        chosen.append(v)
        graph.remove_nodes_from([v, *graph.neighbors(v)])
    yield {"mis_nodes": chosen}
