"""SCIP on the single-commodity flow model of the Steiner tree problem, started from the shortest-path
heuristic's improved tree; SCIP's dual bound is yielded after every slice of the search."""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import scipy.sparse as sp

from frontierco.kit.solverkit import Clock, ScipSearch
from frontierco.kit.steiner_search import iterated_search, search_weights, spanning_tree_within, tree_cost, warm_up
from frontierco.problems import MILPInstance, STPInstance, STPSolution
from frontierco.solver import Bound, Budget, Proven, Solver

HEURISTIC_SHARE = 0.5  # of the budget, for the starting tree
SLICES = 6  # the search is cut in this many slices, a dual bound after each


class _Rows:
    """A sparse constraint matrix built block by block: ``add(rows, cols, vals, lower, upper)`` with rows
    numbered within the block."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.lower: list[np.ndarray] = []
        self.upper: list[np.ndarray] = []
        self.count = 0

    def add(self, rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> None:
        self.rows.append(self.count + rows)
        self.cols.append(cols)
        self.vals.append(vals)
        self.lower.append(lower)
        self.upper.append(upper)
        self.count += len(lower)

    def matrix(self, columns: int) -> sp.csr_matrix:
        entries = (np.concatenate(self.vals), (np.concatenate(self.rows), np.concatenate(self.cols)))
        return sp.csr_matrix(entries, shape=(self.count, columns))


def flow_model(instance: STPInstance, root: int) -> MILPInstance:
    """Columns y_a (arc a used; arcs 2e = u->v and 2e+1 = v->u of edge e = (u, v)) and f_a = column 2m + a (flow
    on a). The root sends one unit to every other terminal: flow conservation per vertex, f_a <= (k - 1) y_a, one
    direction per edge, in-degree 1 at a terminal and at most 1 elsewhere, none at the root, and a Steiner
    vertex that is entered is also left (a tree without non-terminal leaves)."""
    n, m, k = instance.n, instance.m, len(instance.terminals)
    tail, head = instance.edges.reshape(-1), instance.edges[:, ::-1].reshape(-1)
    arcs, flows, ones = np.arange(2 * m), 2 * m + np.arange(2 * m), np.ones(2 * m)
    terminal = np.zeros(n, dtype=bool)
    terminal[instance.terminals] = True
    supply = terminal.astype(np.float64)
    supply[root] = -(k - 1)
    rows = _Rows()
    rows.add(np.concatenate([head, tail]), np.concatenate([flows, flows]), np.concatenate([ones, -ones]), supply, supply)
    rows.add(
        np.concatenate([arcs, arcs]),
        np.concatenate([flows, arcs]),
        np.concatenate([ones, -(k - 1) * ones]),
        np.full(2 * m, -np.inf),
        np.zeros(2 * m),
    )
    rows.add(arcs // 2, arcs, ones, np.full(m, -np.inf), np.ones(m))
    in_lower = np.where(terminal, 1.0, -np.inf)
    in_lower[root] = -np.inf
    rows.add(head, arcs, ones, in_lower, np.ones(n))
    steiner = np.flatnonzero(~terminal)
    position = np.full(n, -1)
    position[steiner] = np.arange(len(steiner))
    entering, leaving = ~terminal[head], ~terminal[tail]
    rows.add(
        np.concatenate([position[head[entering]], position[tail[leaving]]]),
        np.concatenate([arcs[entering], arcs[leaving]]),
        np.concatenate([ones[entering], -ones[leaving]]),
        np.full(len(steiner), -np.inf),
        np.zeros(len(steiner)),
    )
    into_root = head == root
    return MILPInstance(
        name=instance.name,
        sense="min",
        objective=np.concatenate([np.repeat(instance.weights.astype(np.float64), 2), np.zeros(2 * m)]),
        matrix=rows.matrix(4 * m),
        row_lower=np.concatenate(rows.lower),
        row_upper=np.concatenate(rows.upper),
        col_lower=np.zeros(4 * m),
        col_upper=np.concatenate([np.where(into_root, 0.0, 1.0), np.where(into_root, 0.0, k - 1.0)]),
        integrality=np.concatenate([np.ones(2 * m, dtype=np.int64), np.zeros(2 * m, dtype=np.int64)]),
        col_names=tuple(f"y{a}" for a in range(2 * m)) + tuple(f"f{a}" for a in range(2 * m)),
        row_names=tuple(f"r{i}" for i in range(rows.count)),
    )


def flow_values(instance: STPInstance, tree: np.ndarray, root: int) -> np.ndarray:
    """The model's column values for a tree: its edges directed away from the root, each carrying one unit
    per terminal below it."""
    m = instance.m
    ends = instance.edges[tree]
    neighbours: dict[int, list[tuple[int, int]]] = {}
    for e, (u, v) in zip(tree.tolist(), ends.tolist(), strict=True):
        neighbours.setdefault(u, []).append((v, 2 * e))  # arc u -> v
        neighbours.setdefault(v, []).append((u, 2 * e + 1))  # arc v -> u
    terminal = np.zeros(instance.n, dtype=bool)
    terminal[instance.terminals] = True
    order, parent_arc, seen = [root], {root: -1}, {root}
    for v in order:
        for w, arc in neighbours.get(v, []):
            if w not in seen:
                seen.add(w)
                parent_arc[w] = arc
                order.append(w)
    below = {v: int(terminal[v] and v != root) for v in order}
    values = np.zeros(4 * m)
    for v in reversed(order[1:]):
        arc = parent_arc[v]
        values[arc] = 1.0
        values[2 * m + arc] = below[v]
        above = instance.edges[arc // 2]
        parent = int(above[1] if arc % 2 else above[0])
        below[parent] += below[v]
    return values


class StpScip(Solver):
    name = "stp-scip"
    problems = ("stp",)
    version = "1"
    deterministic = True
    requires = {"pyscipopt": "pyscipopt>=5.0", "numba": "numba>=0.59"}

    def setup(self) -> None:
        warm_up()

    def solve(self, instance: STPInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        tree = np.zeros(0, dtype=np.int64)
        for tree in iterated_search(instance, budget.seed, clock.started + HEURISTIC_SHARE * budget.time_limit):
            solution = STPSolution(instance.edges[tree])
            if len(instance.terminals) <= 2:  # no tree, or a shortest path: optimal
                yield Proven(solution)
                return
            yield solution
        best = tree_cost(instance, tree)
        root = int(instance.terminals[0])

        from frontierco.problems.milp.mps import to_scip

        model, variables = to_scip(flow_model(instance, root))
        model.setParam("randomization/randomseedshift", budget.seed)
        model.setParam("parallel/maxnthreads", budget.threads)
        search = ScipSearch(model, variables)
        search.offer(flow_values(instance, tree, root))
        weights = search_weights(instance)
        step = budget.time_limit / SLICES
        while not search.finished and not clock.expired():
            until = model.getSolvingTime() + min(step, clock.left())
            for values, proven in search.run(until):
                arcs = np.flatnonzero(values[: 2 * instance.m] > 0.5)
                found = spanning_tree_within(instance, arcs // 2, weights)
                if found is None:
                    continue
                if proven:
                    yield Proven(STPSolution(instance.edges[found]))
                    return
                if tree_cost(instance, found) < best:
                    best = tree_cost(instance, found)
                    yield STPSolution(instance.edges[found])
            bound = model.getDualbound()
            if -model.infinity() < bound < model.infinity():
                yield Bound(math.ceil(bound - 1e-6) if instance.integer_weights else bound)
