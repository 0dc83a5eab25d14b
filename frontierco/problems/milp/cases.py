"""The contract cases: tiny instances every solver of these problems must handle, by name, each built on call."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from frontierco.problems.milp.generators import milp_setcover
from frontierco.problems.milp.milp import MILPInstance


def _infeasible() -> MILPInstance:
    import scipy.sparse as sp

    # x + y >= 3 over binary x, y
    return MILPInstance(
        "infeasible",
        "min",
        np.ones(2),
        sp.csr_matrix(np.ones((1, 2))),
        np.array([3.0]),
        np.array([np.inf]),
        np.zeros(2),
        np.ones(2),
        np.ones(2, dtype=bool),
        ("x", "y"),
        ("r",),
    )


def milp_cases() -> dict[str, Callable[[], object]]:
    return {
        "tiny": lambda: milp_setcover("s", 1, rows=20, cols=40, density=0.1).instance,
        "infeasible": _infeasible,  # every solver must survive it: no solution, never a crash
    }
