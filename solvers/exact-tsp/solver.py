"""Exact TSP/ATSP: an assignment-type MILP solved by HiGHS, with subtour elimination constraints added
lazily until the solution is one tour (then it is proven optimal)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock
from frontierco.problems import TSPInstance, TSPSolution
from frontierco.problems.milp.mps import new_highs
from frontierco.solver import Budget, Proven, Solver


def _arcs(instance: TSPInstance) -> tuple[np.ndarray, np.ndarray, bool]:
    n = instance.n
    symmetric = not instance.is_asymmetric
    if symmetric:
        i, j = np.triu_indices(n, 1)
    else:
        i, j = np.divmod(np.arange(n * n), n)
        keep = i != j
        i, j = i[keep], j[keep]
    return i.astype(np.int64), j.astype(np.int64), symmetric


def _cycles(n: int, i: np.ndarray, j: np.ndarray, symmetric: bool) -> list[list[int]]:
    """The node sequences of the cycles formed by the chosen edges (arcs)."""
    successors: list[list[int]] = [[] for _ in range(n)]
    for a, b in zip(i.tolist(), j.tolist(), strict=True):
        successors[a].append(b)
        if symmetric:
            successors[b].append(a)
    seen = np.zeros(n, dtype=bool)
    cycles = []
    for start in range(n):
        if seen[start]:
            continue
        cycle, previous, node = [start], -1, start
        seen[start] = True
        while True:
            options = [v for v in successors[node] if v != previous] or successors[node]
            nxt = options[0]
            if nxt == start or seen[nxt]:
                break
            cycle.append(nxt)
            seen[nxt] = True
            previous, node = node, nxt
        cycles.append(cycle)
    return cycles


class ExactTSP(Solver):
    name = "exact-tsp"
    problems = ("tsp",)
    version = "1"
    deterministic = True

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[object]:
        import highspy

        clock = Clock(budget.time_limit, margin=0.05)
        n = instance.n
        if n <= 3:
            yield Proven(TSPSolution(np.arange(n)))
            return
        i, j, symmetric = _arcs(instance)
        costs = instance.weights.between(i, j).astype(np.float64)
        m = len(i)
        highs = new_highs()
        highs.setOptionValue("random_seed", budget.seed)
        highs.setOptionValue("threads", budget.threads)
        highs.addCols(m, costs, np.zeros(m), np.ones(m), 0, np.zeros(m, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))
        highs.changeColsIntegrality(m, np.arange(m, dtype=np.int32), np.full(m, highspy.HighsVarType.kInteger))
        if symmetric:  # every node has degree 2
            self._add_rows(highs, [np.flatnonzero((i == v) | (j == v)) for v in range(n)], 2.0, 2.0)
        else:  # one arc out, one arc in
            self._add_rows(highs, [np.flatnonzero(i == v) for v in range(n)], 1.0, 1.0)
            self._add_rows(highs, [np.flatnonzero(j == v) for v in range(n)], 1.0, 1.0)
        while not clock.expired():
            highs.setOptionValue("time_limit", clock.left())
            highs.run()
            if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                return
            chosen = np.flatnonzero(np.asarray(highs.getSolution().col_value) > 0.5)
            cycles = _cycles(n, i[chosen], j[chosen], symmetric)
            tour = TSPSolution(np.array([v for cycle in cycles for v in cycle], dtype=np.int64))
            if len(cycles) == 1:
                yield Proven(tour)
                return
            yield tour  # the subtours patched end to end: feasible, not optimal
            members = np.zeros(n, dtype=np.int64)
            for label, cycle in enumerate(cycles):
                members[cycle] = label
            inside = [np.flatnonzero((members[i] == label) & (members[j] == label)) for label in range(len(cycles))]
            self._add_rows(highs, inside, -np.inf, None, [len(c) - 1.0 for c in cycles])

    @staticmethod
    def _add_rows(highs: object, rows: list[np.ndarray], lower: float, upper: float | None, uppers: list[float] | None = None) -> None:
        count = len(rows)
        starts = np.cumsum([0] + [len(r) for r in rows[:-1]]).astype(np.int32)
        indices = np.concatenate(rows).astype(np.int32)
        upper_bounds = np.array(uppers if uppers is not None else [upper] * count, dtype=np.float64)
        highs.addRows(count, np.full(count, lower), upper_bounds, len(indices), starts, indices, np.ones(len(indices)))  # type: ignore[attr-defined]
