"""The contract cases: tiny instances every solver of these problems must handle, by name, each built on call."""

from __future__ import annotations

from collections.abc import Callable

from frontierco.problems.fjsp.fjsp import FJSPInstance
from frontierco.problems.fjsp.generators import fjsp_random


def fjsp_cases() -> dict[str, Callable[[], object]]:
    return {
        "tiny": lambda: fjsp_random("f-tiny", 1, jobs=4, machines=3, operations=3).instance,
        "one": lambda: FJSPInstance.from_lists("f1", 1, [[[(0, 5)]]]),
        "3x3": lambda: FJSPInstance.from_lists(
            "f3x3",
            3,
            [
                [[(0, 3), (1, 5)], [(1, 2)], [(2, 4), (0, 6)]],
                [[(1, 4)], [(0, 3), (2, 3)], [(1, 1)]],
                [[(2, 2), (0, 2)], [(2, 5)], [(0, 4), (1, 3)]],
            ],
        ),
        "idle-machine": lambda: FJSPInstance.from_lists("fidle", 3, [[[(0, 2)], [(1, 3)]], [[(1, 1), (0, 4)]]]),
    }
