"""A start that balances the machines' loads: the machine of each operation from the linear relaxation of
the least maximum load (HiGHS through SciPy), the few split operations then placed greedily, and the
operations list-scheduled on their machines.

Where the makespan is bound by the work, not by the jobs (many jobs on few machines), the earliest-finish
rules load the machines evenly by sending operations to slower machines, which adds work; the relaxation
keeps the total work near its least.
"""

from __future__ import annotations

import random

import numpy as np

from .schedule import Schedule, Shop, dispatch


def balanced_assignment(shop: Shop) -> tuple[list[int], float]:
    """A machine per operation, the one the relaxation gives most of it (an operation it splits goes, in
    decreasing order of its shortest time, to the eligible machine whose load it raises least), and the
    relaxation's least maximum load, a lower bound on the makespan (0 where HiGHS fails)."""
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    pairs = [(o, m, t) for o, options in enumerate(shop.options) for m, t in options.items()]
    k = len(pairs)  # x_0..x_{k-1}: the share of operation o on machine m; x_k: the maximum load
    ops, machines, times = (np.array(column) for column in zip(*pairs, strict=True))
    cost = np.zeros(k + 1)
    cost[k] = 1.0
    each_once = coo_matrix((np.ones(k), (ops, np.arange(k))), shape=(shop.size, k + 1))
    rows = np.concatenate([machines, np.arange(shop.num_machines)])
    cols = np.concatenate([np.arange(k), np.full(shop.num_machines, k)])
    loads = coo_matrix((np.concatenate([times, -np.ones(shop.num_machines)]), (rows, cols)), shape=(shop.num_machines, k + 1))
    result = linprog(
        cost,
        A_ub=loads.tocsr(),
        b_ub=np.zeros(shop.num_machines),
        A_eq=each_once.tocsr(),
        b_eq=np.ones(shop.size),
        bounds=(0, None),
        method="highs",
    )
    solved = result.status == 0
    share = result.x[:k] if solved else np.zeros(k)
    assign = [-1] * shop.size
    most = [0.0] * shop.size
    for (o, m, _), x in zip(pairs, share, strict=True):
        if x > most[o]:
            most[o], assign[o] = float(x), m
    load = [0] * shop.num_machines
    split = [o for o in range(shop.size) if most[o] < 1.0 - 1e-6]
    for o in range(shop.size):
        if most[o] >= 1.0 - 1e-6:
            load[assign[o]] += shop.options[o][assign[o]]
    for o in sorted(split, key=lambda p: -min(shop.options[p].values())):
        assign[o] = min(shop.options[o], key=lambda m: (load[m] + shop.options[o][m], shop.options[o][m]))
        load[assign[o]] += shop.options[o][assign[o]]
    return assign, float(result.x[k]) if solved else 0.0


def balanced_start(shop: Shop, assign: list[int], seed: int = 0, tries: int = 2) -> Schedule:
    """The best of ``tries`` list schedules (both rules, then randomised tie-breaks) with each operation on
    its machine in ``assign``."""
    fixed = shop.restricted(assign)
    rng = random.Random(seed)
    best: Schedule | None = None
    for k in range(tries):
        schedule = dispatch(fixed, ("mwkr", "eft")[k % 2], rng if k >= 2 else None)
        if best is None or schedule.makespan < best.makespan:
            best = schedule
    assert best is not None
    return best
