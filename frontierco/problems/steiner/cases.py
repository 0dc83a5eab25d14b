"""The contract cases: tiny instances every solver of these problems must handle, by name, each built on call."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from frontierco.problems.steiner.generators import stp_random
from frontierco.problems.steiner.stp import STPInstance


def stp_cases() -> dict[str, Callable[[], object]]:
    return {
        "tiny": lambda: stp_random("r20", 1, n=20, m=40, terminals=6).instance,
        "one-terminal": lambda: STPInstance.build("t1", 1, np.zeros((0, 2)), np.zeros(0, dtype=np.int64), [0]),
        "two-terminals": lambda: STPInstance.build("t2", 3, [[0, 1], [1, 2], [0, 2]], [1, 1, 3], [0, 2]),
    }
