"""STP: FrontierCO's ``load_data`` gives ``n``, ``m``, ``graph_edges`` ({(u, v): cost} with u < v, costs as floats)
and ``terminals``, vertices numbered from 1 as in the SteinLib file; ``solve`` yields ``{'edges': [(u, v), ...],
'declared_cost': ..., 'num_edges': ...}``. The cost is recomputed by the checker; the declared one is ignored."""

from __future__ import annotations

from typing import Any

import numpy as np

from frontierco.problems import STPInstance, STPSolution

from . import Malformed, field

FORM = "{'edges': [(1, 4), (4, 7), ...], 'declared_cost': ..., 'num_edges': ...} (vertices numbered from 1)"


def kwargs(instance: STPInstance) -> dict[str, Any]:
    pairs = (instance.edges + 1).tolist()
    costs = instance.weights.astype(float).tolist()
    return {
        "n": instance.n,
        "m": len(pairs),
        "graph_edges": {(min(u, v), max(u, v)): c for (u, v), c in zip(pairs, costs, strict=True)},
        "terminals": (instance.terminals + 1).tolist(),
    }


def solution(instance: STPInstance, data: object) -> STPSolution:
    edges = field(data, "edges", FORM)
    if not isinstance(edges, list | tuple | np.ndarray):
        raise Malformed(f"'edges' must be a list of vertex pairs, got a {type(edges).__name__}")
    try:
        array = np.asarray(edges)
    except ValueError:
        raise Malformed("'edges' must be a list of vertex pairs (u, v)") from None
    if array.size and (array.ndim != 2 or array.shape[1] != 2 or not np.issubdtype(array.dtype, np.integer)):
        raise Malformed(f"'edges' must be a list of integer vertex pairs (u, v), got {str(edges)[:60]}")
    return STPSolution(array.reshape(-1, 2).astype(np.int64) - 1)
