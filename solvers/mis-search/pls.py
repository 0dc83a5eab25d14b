"""Phased local search for maximum clique (Pullan, "Phased local search for the maximum clique problem", Journal
of Combinatorial Optimization 12, 2006), on the complement graph given as a boolean matrix: its cliques are the
independent sets sought.

A clique C grows by vertices adjacent to all of C, and, when there are none, moves on a plateau by swapping in a
vertex adjacent to all of C but one (which leaves and may not come back in this iteration), until nothing can be
added or swapped or no vertex of the clique the plateau started from is left. The vertex taken is chosen, by
phase, at random (50 iterations), by least penalty (50), or by greatest degree (100), ties at random; every
iteration adds 1 to the penalty of the clique's vertices, and every second one takes 1 off all penalties. After
an iteration, a random vertex joins the clique and the members not adjacent to it leave (after a penalty
iteration the clique restarts from that vertex alone). PLS's iteration counts and penalty delay; no parameter
depends on the instance.

The search runs in pieces of a given number of steps (additions and swaps), its state in arrays; randomness is
a xorshift generator seeded from the run's seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from frontierco.kit.independent_set_search import xorshift

# the scalar state (``PhasedSearch.state``)
RANDOM, STEP, ITERATION, SIZE, BEST, UPDATES = range(6)
PHASES = (50, 50, 100)  # iterations of random, penalty and degree selection, in turn
PENALTY_DELAY = 2


@njit(cache=True)
def _random(state: np.ndarray) -> int:
    return xorshift(state, RANDOM)


@njit(cache=True)
def _add(adjacent: np.ndarray, inside: np.ndarray, missing: np.ndarray, members: np.ndarray, state: np.ndarray, v: int) -> None:
    """v joins the clique; every vertex not adjacent to v misses one more member."""
    inside[v] = True
    members[state[SIZE]] = v
    state[SIZE] += 1
    row = adjacent[v]
    for u in range(inside.shape[0]):
        if not row[u] and u != v:
            missing[u] += 1


@njit(cache=True)
def _drop(adjacent: np.ndarray, inside: np.ndarray, missing: np.ndarray, members: np.ndarray, state: np.ndarray, v: int) -> None:
    inside[v] = False
    for i in range(state[SIZE]):
        if members[i] == v:
            members[i] = members[state[SIZE] - 1]
            break
    state[SIZE] -= 1
    row = adjacent[v]
    for u in range(inside.shape[0]):
        if not row[u] and u != v:
            missing[u] -= 1


@njit(cache=True)
def _select(
    inside: np.ndarray,
    missing: np.ndarray,
    banned: np.ndarray,
    penalty: np.ndarray,
    degree: np.ndarray,
    state: np.ndarray,
    want: int,
    phase: int,
) -> int:
    """A vertex outside the clique missing ``want`` of its members and not banned, by the phase's rule; -1 if none."""
    chosen, key, ties = -1, 0, 0
    for v in range(inside.shape[0]):
        if inside[v] or missing[v] != want or banned[v]:
            continue
        if phase == 0:
            value = 0
        elif phase == 1:
            value = -penalty[v]
        else:
            value = degree[v]
        if chosen < 0 or value > key:
            chosen, key, ties = v, value, 1
        elif value == key:
            ties += 1
            if _random(state) % ties == 0:
                chosen = v
    return chosen


@njit(cache=True)
def _iterate(
    adjacent: np.ndarray,
    inside: np.ndarray,
    missing: np.ndarray,
    members: np.ndarray,
    banned: np.ndarray,
    start: np.ndarray,
    penalty: np.ndarray,
    degree: np.ndarray,
    best: np.ndarray,
    state: np.ndarray,
    steps: int,
) -> bool:
    """Iterations until ``steps`` more steps are done or the best clique grows; whether it did (``best``)."""
    n = inside.shape[0]
    end = state[STEP] + steps
    cycle = PHASES[0] + PHASES[1] + PHASES[2]
    while state[STEP] < end:
        position = state[ITERATION] % cycle
        phase = 0 if position < PHASES[0] else (1 if position < PHASES[0] + PHASES[1] else 2)
        banned[:] = False
        start[:] = inside
        overlap = state[SIZE]
        while True:
            v = _select(inside, missing, banned, penalty, degree, state, 0, phase)
            if v >= 0:
                _add(adjacent, inside, missing, members, state, v)
                state[STEP] += 1
                start[:] = inside  # a new plateau starts from the larger clique
                overlap = state[SIZE]
                continue
            if overlap == 0:
                break
            v = _select(inside, missing, banned, penalty, degree, state, 1, phase)
            if v < 0:
                break
            u = -1
            for i in range(state[SIZE]):
                u = members[i]
                if not adjacent[v, u]:
                    break  # the one member v is not adjacent to
            _drop(adjacent, inside, missing, members, state, u)
            banned[u] = True
            if start[u]:
                overlap -= 1
            _add(adjacent, inside, missing, members, state, v)
            state[STEP] += 1
        state[ITERATION] += 1
        state[STEP] += 1  # the iteration's perturbation: work even when nothing could be added or swapped
        improved = state[SIZE] > state[BEST]
        if improved:
            state[BEST] = state[SIZE]
            best[:] = inside
        for i in range(state[SIZE]):
            penalty[members[i]] += 1
        state[UPDATES] += 1
        if state[UPDATES] % PENALTY_DELAY == 0:
            for u in range(n):
                if penalty[u] > 0:
                    penalty[u] -= 1
        v = _random(state) % n
        if phase == 1:
            while state[SIZE] > 0:
                _drop(adjacent, inside, missing, members, state, members[state[SIZE] - 1])
        else:
            i = 0
            while i < state[SIZE]:
                u = members[i]
                if u != v and not adjacent[v, u]:
                    _drop(adjacent, inside, missing, members, state, u)  # the last member moves to slot i
                else:
                    i += 1
        if not inside[v]:
            _add(adjacent, inside, missing, members, state, v)
        if improved:
            return True
    return False


class PhasedSearch:
    """PLS for a maximum clique of the graph of the boolean matrix ``adjacent``, from the clique ``start``."""

    def __init__(self, adjacent: np.ndarray, start: np.ndarray, seed: int) -> None:
        n = adjacent.shape[0]
        self.adjacent = adjacent
        self.inside = np.zeros(n, np.bool_)
        self.missing = np.zeros(n, np.int64)
        self.members = np.zeros(n, np.int64)
        self.banned = np.zeros(n, np.bool_)
        self.start = np.zeros(n, np.bool_)
        self.penalty = np.zeros(n, np.int64)
        self.degree = adjacent.sum(axis=1).astype(np.int64)
        self.best = np.zeros(n, np.bool_)
        self.state = np.zeros(6, np.int64)
        self.state[RANDOM] = (seed * 0x9E3779B97F4A7C15 + 0x14057B7EF767814F) % (1 << 62) or 1
        for v in np.asarray(start, dtype=np.int64):
            _add(self.adjacent, self.inside, self.missing, self.members, self.state, int(v))
        self.state[BEST] = self.state[SIZE]
        self.best[:] = self.inside

    def run(self, steps: int) -> bool:
        """About ``steps`` more steps; True as soon as a larger clique is found (``solution``)."""
        arrays = (self.adjacent, self.inside, self.missing, self.members, self.banned, self.start, self.penalty, self.degree)
        return bool(_iterate(*arrays, self.best, self.state, steps))

    @property
    def solution(self) -> np.ndarray:
        return np.flatnonzero(self.best)

    @property
    def size(self) -> int:
        return int(self.state[BEST])

    @property
    def steps(self) -> int:
        return int(self.state[STEP])


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk): for the solver's setup."""
    square = np.array([[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]], dtype=bool)
    PhasedSearch(square, np.array([0]), 0).run(10)
