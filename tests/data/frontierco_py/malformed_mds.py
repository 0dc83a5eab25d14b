"""Yields four things that are not FrontierCO MDS solution dicts, then stops."""


def solve(**kwargs):
    yield "1 2 3"
    yield {"nodes": [1, 2]}
    yield {"mds_nodes": [1.5]}
    yield {"mds_nodes": "12"}
