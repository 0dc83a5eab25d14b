"""NuMVC, local search for minimum vertex cover with edge weights, two-stage exchange and configuration checking
(Cai, Su, Luo and Sattar, "NuMVC: an efficient local search algorithm for minimum vertex cover", Journal of
Artificial Intelligence Research 46, 2013); the complement of a vertex cover is an independent set.

Every edge has a weight (1 at first) and every vertex a dscore: the weight of the uncovered edges it would cover
(outside the cover), or minus the weight of the edges only it covers (inside). Whenever the cover covers every
edge it is recorded and its vertex of highest dscore leaves, so the search looks for a cover one smaller. A step
takes out the cover vertex of highest dscore (the longest unmoved among equals; not the vertex the step before
added, as in the authors' code), then covers a random uncovered edge by the endpoint of higher dscore among those
whose configuration changed (a neighbour moved) since it last left the cover; then every uncovered edge gains
weight 1, and when the mean weight reaches gamma = n / 2 all weights are scaled by rho = 0.3 (the paper's values).

The search runs in pieces of a given number of steps, its state in arrays; randomness is a xorshift generator
seeded from the run's seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from frontierco.kit.independent_set_search import xorshift

# the scalar state (``CoverSearch.state``)
STEP, RANDOM, UNCOVERED, COVER, BEST, TOTAL, TABU = range(7)
RHO = 0.3
GAMMA = 0.5  # times n


@njit(cache=True)
def _random(state: np.ndarray) -> int:
    return xorshift(state, RANDOM)


@njit(cache=True)
def _add(
    v: int,
    ptr: np.ndarray,
    other: np.ndarray,
    edge: np.ndarray,
    weight: np.ndarray,
    inside: np.ndarray,
    dscore: np.ndarray,
    conf: np.ndarray,
    cover: np.ndarray,
    cover_at: np.ndarray,
    uncovered: np.ndarray,
    uncovered_at: np.ndarray,
    stamp: np.ndarray,
    state: np.ndarray,
) -> None:
    inside[v] = True
    dscore[v] = -dscore[v]
    cover_at[v] = state[COVER]
    cover[state[COVER]] = v
    state[COVER] += 1
    stamp[v] = state[STEP]
    for i in range(ptr[v], ptr[v + 1]):
        z, e = other[i], edge[i]
        conf[z] = True
        if inside[z]:
            dscore[z] += weight[e]
        else:
            dscore[z] -= weight[e]
            last = uncovered[state[UNCOVERED] - 1]  # e leaves the uncovered list
            at = uncovered_at[e]
            uncovered[at] = last
            uncovered_at[last] = at
            uncovered_at[e] = -1
            state[UNCOVERED] -= 1


@njit(cache=True)
def _drop(
    v: int,
    ptr: np.ndarray,
    other: np.ndarray,
    edge: np.ndarray,
    weight: np.ndarray,
    inside: np.ndarray,
    dscore: np.ndarray,
    conf: np.ndarray,
    cover: np.ndarray,
    cover_at: np.ndarray,
    uncovered: np.ndarray,
    uncovered_at: np.ndarray,
    stamp: np.ndarray,
    state: np.ndarray,
) -> None:
    inside[v] = False
    dscore[v] = -dscore[v]
    last = cover[state[COVER] - 1]
    at = cover_at[v]
    cover[at] = last
    cover_at[last] = at
    cover_at[v] = -1
    state[COVER] -= 1
    conf[v] = False
    stamp[v] = state[STEP]
    for i in range(ptr[v], ptr[v + 1]):
        z, e = other[i], edge[i]
        conf[z] = True
        if inside[z]:
            dscore[z] -= weight[e]
        else:
            dscore[z] += weight[e]
            uncovered[state[UNCOVERED]] = e
            uncovered_at[e] = state[UNCOVERED]
            state[UNCOVERED] += 1


@njit(cache=True)
def _highest(cover: np.ndarray, dscore: np.ndarray, stamp: np.ndarray, state: np.ndarray, tabu: int) -> int:
    """The cover vertex of highest dscore, the longest unmoved among equals, other than ``tabu`` (when there is
    another)."""
    best = -1
    for i in range(state[COVER]):
        v = cover[i]
        if v == tabu:
            continue
        if best < 0 or dscore[v] > dscore[best] or (dscore[v] == dscore[best] and stamp[v] < stamp[best]):
            best = v
    return best if best >= 0 else cover[0]


@njit(cache=True)
def _rescore(ends: np.ndarray, weight: np.ndarray, inside: np.ndarray, dscore: np.ndarray) -> int:
    """dscores from the weights; the total weight."""
    dscore[:] = 0
    total = 0
    for e in range(ends.shape[0]):
        a, b = ends[e, 0], ends[e, 1]
        total += weight[e]
        if inside[a] and not inside[b]:
            dscore[a] -= weight[e]
        elif inside[b] and not inside[a]:
            dscore[b] -= weight[e]
        elif not inside[a] and not inside[b]:
            dscore[a] += weight[e]
            dscore[b] += weight[e]
    return total


@njit(cache=True)
def _steps(
    ends: np.ndarray,
    ptr: np.ndarray,
    other: np.ndarray,
    edge: np.ndarray,
    weight: np.ndarray,
    inside: np.ndarray,
    dscore: np.ndarray,
    conf: np.ndarray,
    cover: np.ndarray,
    cover_at: np.ndarray,
    uncovered: np.ndarray,
    uncovered_at: np.ndarray,
    stamp: np.ndarray,
    best: np.ndarray,
    state: np.ndarray,
    steps: int,
) -> bool:
    """Up to ``steps`` steps, or until a smaller cover is found (``best``, as a membership array); whether one was."""
    arrays = (ptr, other, edge, weight, inside, dscore, conf, cover, cover_at, uncovered, uncovered_at, stamp, state)
    n, m = inside.shape[0], ends.shape[0]
    limit = int(GAMMA * n) * m
    for _ in range(steps):
        state[STEP] += 1
        if state[UNCOVERED] == 0:
            improved = state[COVER] < state[BEST]
            if improved:
                state[BEST] = state[COVER]
                best[:] = inside
            if state[COVER] == 0:
                return improved
            _drop(_highest(cover, dscore, stamp, state, -1), *arrays)
            if improved:
                return True
            continue
        _drop(_highest(cover, dscore, stamp, state, state[TABU]), *arrays)  # not the vertex the last step added
        e = uncovered[_random(state) % state[UNCOVERED]]
        a, b = ends[e, 0], ends[e, 1]
        if not conf[a]:
            v = b
        elif not conf[b]:
            v = a
        elif dscore[a] > dscore[b] or (dscore[a] == dscore[b] and stamp[a] < stamp[b]):
            v = a
        else:
            v = b
        _add(v, *arrays)
        state[TABU] = v
        for i in range(state[UNCOVERED]):
            f = uncovered[i]
            weight[f] += 1
            dscore[ends[f, 0]] += 1
            dscore[ends[f, 1]] += 1
        state[TOTAL] += state[UNCOVERED]
        if state[TOTAL] >= limit:
            for f in range(m):
                weight[f] = int(RHO * weight[f])
            state[TOTAL] = _rescore(ends, weight, inside, dscore)
    return False


class CoverSearch:
    """NuMVC on a graph (edges ``ends``, u < v), from an independent set ``start``."""

    def __init__(self, n: int, ends: np.ndarray, start: np.ndarray, seed: int) -> None:
        m = len(ends)
        self.ends = np.ascontiguousarray(ends, dtype=np.int64)
        sources = np.concatenate([self.ends[:, 0], self.ends[:, 1]])
        order = np.argsort(sources, kind="stable")
        self.ptr = np.concatenate([[0], np.cumsum(np.bincount(sources, minlength=n))]).astype(np.int64)
        self.other = np.concatenate([self.ends[:, 1], self.ends[:, 0]])[order]
        self.edge = np.concatenate([np.arange(m), np.arange(m)])[order].astype(np.int64)
        self.weight = np.ones(m, np.int64)
        self.inside = np.ones(n, np.bool_)
        self.inside[np.asarray(start, dtype=np.int64)] = False
        self.dscore = np.zeros(n, np.int64)
        self.conf = np.ones(n, np.bool_)
        self.cover = np.flatnonzero(self.inside).astype(np.int64)
        self.cover_at = np.full(n, -1, np.int64)
        self.cover_at[self.cover] = np.arange(len(self.cover))
        self.cover = np.concatenate([self.cover, np.zeros(n - len(self.cover), np.int64)])
        self.uncovered = np.zeros(max(m, 1), np.int64)
        self.uncovered_at = np.full(max(m, 1), -1, np.int64)
        self.stamp = np.zeros(n, np.int64)
        self.best = self.inside.copy()
        self.state = np.zeros(7, np.int64)
        self.state[TABU] = -1
        self.state[RANDOM] = (seed * 0x9E3779B97F4A7C15 + 0x5851F42D4C957F2D) % (1 << 62) or 1
        self.state[COVER] = int(self.inside.sum())
        self.state[BEST] = self.state[COVER]
        self.state[TOTAL] = _rescore(self.ends, self.weight, self.inside, self.dscore)
        self.n = n

    def run(self, steps: int) -> bool:
        """Up to ``steps`` steps; True as soon as a smaller cover (a larger independent set) is found."""
        arrays = (self.ptr, self.other, self.edge, self.weight, self.inside, self.dscore, self.conf, self.cover, self.cover_at)
        return bool(_steps(self.ends, *arrays, self.uncovered, self.uncovered_at, self.stamp, self.best, self.state, steps))

    @property
    def solution(self) -> np.ndarray:
        """The independent set of the best cover."""
        return np.flatnonzero(~self.best)

    @property
    def size(self) -> int:
        return self.n - int(self.state[BEST])

    @property
    def steps(self) -> int:
        return int(self.state[STEP])


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk): for the solver's setup."""
    CoverSearch(4, np.array([[0, 1], [1, 2], [2, 3]]), np.array([1, 3]), 0).run(10)
