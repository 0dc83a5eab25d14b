"""What the MIS and MDS adaptors share: FrontierCO's ``load_data`` gives a networkx graph with nodes 1..n (the
file's 1-based numbers), and ``solve`` yields those labels."""

from __future__ import annotations

import numpy as np

from frontierco.problems import MDSInstance, MISInstance

from . import field, integers


def graph(instance: MISInstance | MDSInstance) -> object:
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(range(1, instance.n + 1))
    g.add_edges_from((instance.edges + 1).tolist())
    return g


def vertices(data: object, key: str, form: str) -> np.ndarray:
    """The yielded 1-based labels as 0-based vertices (a label outside 1..n is left for the checker to name)."""
    return integers(field(data, key, form), repr(key)) - 1
