"""A malformed MDS dict, then every node (a dominating set), then a non-dominating one."""


def solve(**kwargs):
    graph = kwargs["graph"]
    yield {"mds_nodes": [[1, 2], [3]]}
    yield {"mds_nodes": sorted(graph.nodes)}
    yield {"mds_nodes": [1]}
