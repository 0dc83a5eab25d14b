"""Local search over the open set for capacitated facility location (splittable demand): close / open / swap moves,
each open set priced by its optimal assignment (nearest open facility when that fits, else a transportation LP)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from frontierco.kit.solverkit import Clock
from frontierco.problems import CFLPInstance, CFLPSolution, MILPInstance
from frontierco.problems.milp.mps import to_highs
from frontierco.solver import Budget, Solver

TRIES = 20  # moves priced exactly per descent step before the set counts as a local optimum


class _Pricer:
    """The cheapest assignment of all customers to an open set, and its cost: the nearest open facility when those
    loads fit, else one transportation LP over all facilities kept in HiGHS, in which closing a facility sets its
    columns' upper bounds to 0 (so each open set is a warm-started re-solve from the previous basis)."""

    def __init__(self, instance: CFLPInstance, clock: Clock) -> None:
        self.instance = instance
        self.clock = clock
        self.total_demand = float(instance.demand.sum())
        self._highs: Any = None
        self._lp_open = np.ones(instance.n, dtype=bool)

    def move_bounds(self, is_open: np.ndarray) -> tuple[list[tuple[int, ...]], np.ndarray]:
        """Every close (i,), open (k,) and swap (i, k) move of the open set, with a lower bound on the cost of the set
        it leads to: fixed costs plus every customer at its cheapest open facility, capacities ignored (exact when
        those loads fit); inf when the set's capacity cannot hold the demand. All in O(n m) array work, with each
        customer's cheapest and second-cheapest open facility (Whitaker's fast interchange)."""
        inst = self.instance
        cost, fixed, capacity = inst.cost, inst.fixed_cost, inst.capacity
        opened, closed = np.flatnonzero(is_open), np.flatnonzero(~is_open)
        sub = cost[opened]
        owner_row = np.argmin(sub, axis=0)
        best = sub[owner_row, np.arange(inst.m)]
        if len(opened) > 1:
            masked = sub.copy()
            masked[owner_row, np.arange(inst.m)] = np.inf
            second = masked.min(axis=0)
        else:
            second = np.full(inst.m, 1e30)
        base = float(fixed[opened].sum() + best.sum())
        room = float(capacity[opened].sum()) - self.total_demand
        close = base - fixed[opened] + np.bincount(owner_row, weights=second - best, minlength=len(opened))
        close[capacity[opened] > room + 1e-9] = np.inf
        gain = np.minimum(cost[closed], best) - best  # (closed, m), <= 0
        add = base + fixed[closed] + gain.sum(axis=1)
        owners = np.zeros((inst.m, len(opened)))
        owners[np.arange(inst.m), owner_row] = 1.0
        lost = (np.minimum(cost[closed], second) - np.minimum(cost[closed], best)) @ owners  # (closed, opened)
        swap = base - fixed[opened][None, :] + (fixed[closed] + gain.sum(axis=1))[:, None] + lost
        swap[capacity[closed][:, None] - capacity[opened][None, :] < -room - 1e-9] = np.inf
        moves: list[tuple[int, ...]] = [(int(i),) for i in np.concatenate([opened, closed])]
        moves.extend((int(i), int(k)) for k in closed for i in opened)
        return moves, np.concatenate([close, add, swap.ravel()])

    def price(self, is_open: np.ndarray) -> tuple[float, CFLPSolution | None]:
        """The set's exact cost and an optimal assignment for it (None when the set cannot serve everyone)."""
        inst = self.instance
        opened = np.flatnonzero(is_open)
        if not opened.size or inst.capacity[opened].sum() < self.total_demand - 1e-9:
            return np.inf, None
        nearest = opened[np.argmin(inst.cost[opened], axis=0)]
        load = np.bincount(nearest, weights=inst.demand, minlength=inst.n)
        fixed = float(inst.fixed_cost[opened].sum())
        if np.all(load <= inst.capacity + 1e-9):
            assigned = float(inst.cost[nearest, np.arange(inst.m)].sum())
            return fixed + assigned, CFLPSolution(opened, np.arange(inst.m), nearest, np.ones(inst.m))
        return self._transport(is_open, opened, fixed)

    def _transport(self, is_open: np.ndarray, opened: np.ndarray, fixed: float) -> tuple[float, CFLPSolution | None]:
        """min sum c_ij x_ij: sum_i x_ij = 1, sum_j d_j x_ij <= b_i, x_ij = 0 for closed i."""
        import highspy

        inst = self.instance
        n, m = inst.n, inst.m
        if self._highs is None:
            self._highs = to_highs(_transport_lp(inst))
            self._highs.setOptionValue("threads", 1)
            # HiGHS keeps one thread scheduler per process: if an earlier model in this process started it with
            # another count, every run would fail (kError) until it is reset
            self._highs.resetGlobalScheduler(True)
        changed = np.flatnonzero(is_open != self._lp_open)
        if changed.size:
            columns = (changed[:, None] * m + np.arange(m)[None, :]).ravel().astype(np.int32)
            upper = np.repeat(is_open[changed].astype(np.float64), m)
            self._highs.changeColsBounds(len(columns), columns, np.zeros(len(columns)), upper)
            self._lp_open = is_open.copy()
        self._highs.setOptionValue("time_limit", self.clock.left())
        self._highs.run()
        if self._highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return np.inf, None
        x = np.clip(np.array(self._highs.getSolution().col_value).reshape(n, m), 0.0, 1.0)
        facility, customer = np.nonzero((x > 1e-9) & is_open[:, None])
        fractions = x[facility, customer]
        solution = CFLPSolution(opened, customer, facility, fractions)
        return fixed + float(np.dot(fractions, inst.cost[facility, customer])), solution


def _transport_lp(instance: CFLPInstance) -> MILPInstance:
    """The transportation LP over all facilities (column i*m + j: the fraction of customer j from facility i);
    capacities shrunk by 1e-7 of themselves so that the LP's own tolerance stays inside the checker's."""
    import scipy.sparse as sp

    n, m = instance.n, instance.m
    columns = np.arange(n * m)
    serve = sp.csr_matrix((np.ones(n * m), (np.tile(np.arange(m), n), columns)), shape=(m, n * m))
    load = sp.csr_matrix((np.tile(instance.demand, n), (np.repeat(np.arange(n), m), columns)), shape=(n, n * m))
    return MILPInstance(
        name=instance.name,
        sense="min",
        objective=instance.cost.ravel().astype(np.float64),
        matrix=sp.vstack([serve, load]).tocsr(),
        row_lower=np.concatenate([np.ones(m), np.full(n, -np.inf)]),
        row_upper=np.concatenate([np.ones(m), instance.capacity * (1 - 1e-7)]),
        col_lower=np.zeros(n * m),
        col_upper=np.ones(n * m),
        integrality=np.zeros(n * m, dtype=bool),
        col_names=tuple(f"x{i}_{j}" for i in range(n) for j in range(m)),
        row_names=tuple([f"serve{j}" for j in range(m)] + [f"capacity{i}" for i in range(n)]),
    )


class CFLPLocalSearch(Solver):
    name = "cflp-ls"
    problems = ("cflp",)
    version = "2"
    requires = {"highspy": "highspy>=1.7"}

    def solve(self, instance: CFLPInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        rng = np.random.default_rng(budget.seed)
        pricer = _Pricer(instance, clock)
        start = self._construct(pricer)
        value, solution = pricer.price(start)
        if solution is None:  # the constructed set cannot serve everyone (or its LP ran out of time): all open
            start = np.ones(instance.n, dtype=bool)
            value, solution = pricer.price(start)
            if solution is None:
                return  # not even every facility together can serve the demand
        best_value, best_set = value, start.copy()
        yield solution
        current: np.ndarray | None = start
        patience, stalled = int(self.params["patience"]), 0
        while current is not None and not clock.expired() and (patience == 0 or stalled < patience):
            current, value, solution = self._descend(pricer, current, value, clock)
            stalled += 1
            if solution is not None and value < best_value - 1e-9:
                best_value, best_set, stalled = value, current.copy(), 0
                yield solution
            current, value = self._kick(pricer, best_set, rng)

    @staticmethod
    def _construct(pricer: _Pricer) -> np.ndarray:
        """Facilities by fixed cost per unit of capacity, cheapest first, opened until they hold 1.2 times the
        demand (or all are open)."""
        inst = pricer.instance
        order = np.argsort(inst.fixed_cost / np.maximum(inst.capacity, 1e-9), kind="stable")
        enough = np.searchsorted(np.cumsum(inst.capacity[order]), 1.2 * pricer.total_demand) + 1
        is_open = np.zeros(inst.n, dtype=bool)
        is_open[order[:enough]] = True
        return is_open

    @staticmethod
    def _descend(pricer: _Pricer, is_open: np.ndarray, value: float, clock: Clock) -> tuple[np.ndarray, float, CFLPSolution | None]:
        """Descent over close, open and swap moves: moves in order of their lower bound, each priced exactly, the
        first that improves taken; a local optimum when none of the ``TRIES`` best-bounded moves improves."""
        _, solution = pricer.price(is_open)
        while not clock.expired():
            moves, bounds = pricer.move_bounds(is_open)
            improved = False
            for k in np.argsort(bounds, kind="stable")[:TRIES]:
                if bounds[k] >= value - 1e-9 or clock.expired():
                    break
                trial = is_open.copy()
                trial[list(moves[k])] = ~trial[list(moves[k])]
                trial_value, trial_solution = pricer.price(trial)
                if trial_value < value - 1e-9:
                    is_open, value, solution, improved = trial, trial_value, trial_solution, True
                    break
            if not improved:
                break
        return is_open, value, solution

    @staticmethod
    def _kick(pricer: _Pricer, is_open: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray | None, float]:
        """A random perturbation of the best set: flip two to four facilities, kept only if the result can serve
        everyone (None after 100 tries: then no perturbation is feasible, as with a single facility)."""
        for _ in range(100):
            if pricer.clock.expired():
                break
            trial = is_open.copy()
            flip = rng.choice(len(trial), size=min(len(trial), int(rng.integers(2, 5))), replace=False)
            trial[flip] = ~trial[flip]
            value, solution = pricer.price(trial)
            if solution is not None:
                return trial, value
        return None, np.inf
