"""The contract cases: tiny instances every solver of these problems must handle, by name, each built on call."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from frontierco.problems.facility.cflp import CFLPInstance
from frontierco.problems.facility.cpmp import CPMPInstance
from frontierco.problems.facility.generators import cflp_cornuejols, cpmp_frontierco


def cflp_cases() -> dict[str, Callable[[], object]]:
    def split_needed() -> CFLPInstance:
        """Two facilities of capacity 6 and one customer of demand 10: only a split serves it."""
        return CFLPInstance("cflp-split", np.array([6.0, 6.0]), np.array([1.0, 2.0]), np.array([10.0]), np.array([[3.0], [5.0]]))

    return {
        "tiny": lambda: cflp_cornuejols("cflp-tiny", 1, customers=8, facilities=4, ratio=2.0).instance,
        "n1": lambda: CFLPInstance("cflp-1", np.array([5.0]), np.array([7.0]), np.array([3.0]), np.array([[2.0]])),
        "split": split_needed,
        "infeasible": lambda: CFLPInstance("cflp-short", np.array([4.0, 4.0]), np.array([1.0, 1.0]), np.array([5.0, 5.0]), np.ones((2, 2))),
    }


def cpmp_cases() -> dict[str, Callable[[], object]]:
    def tight() -> CPMPInstance:
        """Four points, p = 2, capacity 2 each: the two nearby pairs must go to different medians."""
        coords = np.array([[0.0, 0.0], [1.0, 0.0], [10.0, 0.0], [11.0, 0.0]])
        return CPMPInstance("cpmp-tight", 2, coords, np.full(4, 2.0), np.ones(4))

    return {
        "tiny": lambda: cpmp_frontierco("cpmp-tiny", 1, n=12, p=3).instance,
        "n1": lambda: CPMPInstance("cpmp-1", 1, np.zeros((1, 2)), np.array([1.0]), np.array([1.0])),
        "tight": tight,
        "infeasible": lambda: CPMPInstance("cpmp-short", 1, np.array([[0.0, 0.0], [3.0, 4.0]]), np.full(2, 1.0), np.ones(2)),
    }
