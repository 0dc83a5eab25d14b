"""The contract cases: tiny instances every solver of these problems must handle, by name, each built on call."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from frontierco.problems.graphs.dominating import mds_ba
from frontierco.problems.graphs.generators import mis_er
from frontierco.problems.graphs.mds import MDSInstance
from frontierco.problems.graphs.mis import MISInstance


def mis_cases() -> dict[str, Callable[[], object]]:
    return {
        "tiny": lambda: mis_er("e20", 1, n=20, p=0.2).instance,
        "n1": lambda: MISInstance("m1", 1, np.zeros((0, 2), dtype=np.int64)),
        "n3": lambda: MISInstance("m3", 3, np.array([[0, 1], [0, 2], [1, 2]])),
    }


def mds_cases() -> dict[str, Callable[[], object]]:
    return {
        "tiny": lambda: mds_ba("ba30", 1, n=30, m=2).instance,
        "n1": lambda: MDSInstance("d1", 1, np.zeros((0, 2), dtype=np.int64)),
        "isolated": lambda: MDSInstance("d4", 4, np.array([[0, 1]])),  # a path of two and two isolated vertices
    }
