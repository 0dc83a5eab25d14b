"""Iterated local search with (1,2)-swaps for maximum independent set, after Andrade, Resende and Werneck ("Fast
local search for the maximum independent set problem", Journal of Heuristics 18, 2012; "ARW").

The solution is kept as ARW keep it: every vertex's tightness (its neighbours in the solution), and the vertices
split into solution, free (tightness 0) and the rest, so that insertions and removals cost a vertex's degree.
A (1,2)-swap takes one solution vertex x out and puts in two non-adjacent vertices whose only solution
neighbour is x; the local search examines only the solution vertices that gained a 1-tight neighbour since they
were last examined (a running sum of each vertex's solution neighbours names the one neighbour of a 1-tight
vertex), and inserts free vertices whenever there are any.

Each iteration perturbs the current solution by forcing k vertices into it (their solution neighbours leave):
k = 1 mostly; with probability 1/(2|S|), k = i + 1 with probability 2^-i; the first vertex is, of four drawn
at random outside the solution, the one that has been outside longest, and the others are drawn from the
vertices two steps from it. The forced vertices stay during the local search that follows. A solution smaller
than the current one by delta is accepted with probability 1 / (1 + delta * delta_best) (delta_best: its
distance to the best solution found), else the iteration is undone; an equal or larger one is kept.

The search runs in pieces of a given number of iterations, its state in arrays; randomness is a xorshift
generator seeded from the run's seed, so a seed gives the same search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the scalar state (``LocalSearch.state``)
SIZE, FREE, BEST, ITERATION, RANDOM, QUEUED, LOGGED, MOVES, STAMP = range(9)
CANDIDATES = 4  # vertices drawn for the perturbation; the one outside the solution longest is forced in


@njit(cache=True)
def xorshift(state: np.ndarray, slot: int) -> int:
    """The next number of a xorshift64* generator (non-negative, 62 bits) whose state is ``state[slot]``; the
    searches of mis-search share it, each with its own slot."""
    x = np.uint64(state[slot])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[slot] = np.int64(x)
    return int((x * np.uint64(2685821657736338717)) >> np.uint64(2))


@njit(cache=True)
def _random(state: np.ndarray) -> int:
    return xorshift(state, RANDOM)


@njit(cache=True)
def _below(state: np.ndarray, bound: int) -> int:
    return _random(state) % bound


@njit(cache=True)
def _place(perm: np.ndarray, where: np.ndarray, v: int, slot: int) -> None:
    """Swap v into ``perm[slot]``."""
    other = perm[slot]
    old = where[v]
    perm[old], perm[slot] = other, v
    where[other], where[v] = old, slot


@njit(cache=True)
def _push(queue: np.ndarray, queued: np.ndarray, state: np.ndarray, v: int) -> None:
    if not queued[v]:
        queued[v] = True
        queue[state[QUEUED]] = v
        state[QUEUED] += 1


@njit(cache=True)
def _insert(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    v: int,
) -> None:
    """Put a free vertex v into the solution (the front of ``perm``: [0, SIZE) solution, [SIZE, SIZE + FREE) free)."""
    size, free = state[SIZE], state[FREE]
    _place(perm, where, v, size)  # v was among the free: the first free slot now
    state[SIZE] = size + 1
    state[FREE] = free - 1
    gained = False
    for e in range(indptr[v], indptr[v + 1]):
        u = indices[e]
        tight[u] += 1
        owner[u] += v
        if tight[u] == 1:  # u was free: move it past the free block
            last = state[SIZE] + state[FREE] - 1
            _place(perm, where, u, last)
            state[FREE] -= 1
            gained = True
    if gained:
        _push(queue, queued, state, v)
    log[state[LOGGED]] = v + 1
    state[LOGGED] += 1
    state[MOVES] += 1


@njit(cache=True)
def _remove(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    v: int,
) -> None:
    """Take a solution vertex v out: it becomes free, as may its neighbours."""
    size = state[SIZE]
    _place(perm, where, v, size - 1)
    state[SIZE] = size - 1
    state[FREE] += 1  # v is free now: the slot just after the solution
    for e in range(indptr[v], indptr[v + 1]):
        u = indices[e]
        tight[u] -= 1
        owner[u] -= v
        if tight[u] == 0:
            _place(perm, where, u, state[SIZE] + state[FREE])
            state[FREE] += 1
        elif tight[u] == 1:
            _push(queue, queued, state, owner[u])
    log[state[LOGGED]] = -(v + 1)
    state[LOGGED] += 1
    state[MOVES] += 1


@njit(cache=True)
def _fill(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
) -> None:
    """Insert free vertices, drawn at random, until there are none."""
    while state[FREE] > 0:
        v = perm[state[SIZE] + _below(state, state[FREE])]
        _insert(indptr, indices, perm, where, tight, owner, queue, queued, log, state, v)


@njit(cache=True)
def _two_improvement(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    mark: np.ndarray,
    x: int,
) -> bool:
    """A (1,2)-swap at solution vertex x, if two of its 1-tight neighbours are not adjacent."""
    ones = np.empty(indptr[x + 1] - indptr[x], np.int64)
    k = 0
    for e in range(indptr[x], indptr[x + 1]):
        u = indices[e]
        if tight[u] == 1:
            ones[k] = u
            k += 1
    if k < 2:
        return False
    for i in range(k - 1):
        u = ones[i]
        state[STAMP] += 1
        stamp = state[STAMP]
        for e in range(indptr[u], indptr[u + 1]):
            mark[indices[e]] = stamp  # u's neighbours, this round
        for j in range(i + 1, k):
            w = ones[j]
            if mark[w] != stamp:
                _remove(indptr, indices, perm, where, tight, owner, queue, queued, log, state, x)
                _insert(indptr, indices, perm, where, tight, owner, queue, queued, log, state, u)
                _insert(indptr, indices, perm, where, tight, owner, queue, queued, log, state, w)
                return True
    return False


@njit(cache=True)
def _local_search(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    mark: np.ndarray,
    forced: np.ndarray,
) -> None:
    """Free insertions and (1,2)-swaps until neither applies; ``forced`` vertices are not swapped out."""
    _fill(indptr, indices, perm, where, tight, owner, queue, queued, log, state)
    while state[QUEUED] > 0:
        state[QUEUED] -= 1
        x = queue[state[QUEUED]]
        queued[x] = False
        if where[x] >= state[SIZE] or forced[x]:
            continue
        if _two_improvement(indptr, indices, perm, where, tight, owner, queue, queued, log, state, mark, x):
            _fill(indptr, indices, perm, where, tight, owner, queue, queued, log, state)


@njit(cache=True)
def _force(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    forced: np.ndarray,
    v: int,
) -> None:
    """Put v into the solution, taking its solution neighbours out."""
    for e in range(indptr[v], indptr[v + 1]):
        u = indices[e]
        if where[u] < state[SIZE]:
            _remove(indptr, indices, perm, where, tight, owner, queue, queued, log, state, u)
    _insert(indptr, indices, perm, where, tight, owner, queue, queued, log, state, v)
    forced[v] = True


@njit(cache=True)
def _undo(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    start: int,
) -> None:
    """Reverse the moves logged since ``start``."""
    end = state[LOGGED]
    for i in range(end - 1, start - 1, -1):
        move = log[i]
        if move > 0:
            _remove(indptr, indices, perm, where, tight, owner, queue, queued, log, state, move - 1)
        else:
            _insert(indptr, indices, perm, where, tight, owner, queue, queued, log, state, -move - 1)
    state[LOGGED] = start


@njit(cache=True)
def _perturb(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    forced: np.ndarray,
    age: np.ndarray,
) -> int:
    """Force k vertices in (ARW's rule for k and for the vertices); how many were forced."""
    n = perm.shape[0]
    size = state[SIZE]
    if size == n:
        return 0
    k = 1
    if _below(state, 2 * max(size, 1)) == 0:
        k = 2
        while _below(state, 2) == 1 and k < n:
            k += 1
    first, oldest = -1, np.iinfo(np.int64).max
    for _ in range(CANDIDATES):
        v = perm[size + _below(state, n - size)]
        if age[v] < oldest:
            first, oldest = v, age[v]
    _force(indptr, indices, perm, where, tight, owner, queue, queued, log, state, forced, first)
    count = 1
    tries = 0
    while count < k and tries < 8 * k and indptr[first + 1] > indptr[first]:
        tries += 1
        y = indices[indptr[first] + _below(state, indptr[first + 1] - indptr[first])]
        if indptr[y + 1] == indptr[y]:
            continue
        z = indices[indptr[y] + _below(state, indptr[y + 1] - indptr[y])]
        if where[z] < state[SIZE]:
            continue
        clash = False
        for e in range(indptr[z], indptr[z + 1]):
            if forced[indices[e]]:
                clash = True
                break
        if clash or z == first:
            continue
        _force(indptr, indices, perm, where, tight, owner, queue, queued, log, state, forced, z)
        count += 1
    return count


@njit(cache=True)
def _iterate(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    mark: np.ndarray,
    forced: np.ndarray,
    age: np.ndarray,
    best: np.ndarray,
    iterations: int,
) -> bool:
    """Run ``iterations`` ILS iterations, or until the best solution grows; whether it did (``best`` holds it)."""
    for _ in range(iterations):
        state[ITERATION] += 1
        before = state[SIZE]
        state[LOGGED] = 0
        _perturb(indptr, indices, perm, where, tight, owner, queue, queued, log, state, forced, age)
        _local_search(indptr, indices, perm, where, tight, owner, queue, queued, log, state, mark, forced)
        for i in range(state[LOGGED]):
            v = abs(log[i]) - 1
            forced[v] = False
        after = state[SIZE]
        if after > state[BEST]:
            state[BEST] = after
            best[:] = False
            for i in range(after):
                best[perm[i]] = True
            for i in range(state[LOGGED]):
                age[abs(log[i]) - 1] = state[ITERATION]
            return True
        if after < before:
            delta, delta_best = before - after, state[BEST] - after
            if _below(state, 1 << 30) * (1 + delta * delta_best) >= (1 << 30):  # rejected
                _undo(indptr, indices, perm, where, tight, owner, queue, queued, log, state, 0)
                for i in range(state[QUEUED]):
                    queued[queue[i]] = False
                state[QUEUED] = 0
                continue
        for i in range(state[LOGGED]):
            age[abs(log[i]) - 1] = state[ITERATION]
    return False


class LocalSearch:
    """ARW's iterated local search on a graph given by compressed adjacency lists, from a starting solution."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, start: np.ndarray, seed: int) -> None:
        n = len(indptr) - 1
        self.indptr, self.indices = indptr.astype(np.int64), indices.astype(np.int64)
        self.perm = np.arange(n, dtype=np.int64)
        self.where = np.arange(n, dtype=np.int64)
        self.tight = np.zeros(n, np.int64)
        self.owner = np.zeros(n, np.int64)
        self.queue = np.zeros(n, np.int64)
        self.queued = np.zeros(n, np.bool_)
        self.mark = np.zeros(n, np.int64)
        self.forced = np.zeros(n, np.bool_)
        self.age = np.zeros(n, np.int64)
        self.best = np.zeros(n, np.bool_)
        self.state = np.zeros(9, np.int64)
        self.state[FREE] = n
        self.state[RANDOM] = (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) % (1 << 62) or 1
        self.log = np.zeros(12 * n + 16, np.int64)  # an iteration's moves: at most ~5n, and as many to undo them
        self.arrays = (
            self.indptr,
            self.indices,
            self.perm,
            self.where,
            self.tight,
            self.owner,
            self.queue,
            self.queued,
            self.log,
            self.state,
        )
        _start(*self.arrays, np.asarray(start, dtype=np.int64))
        _local_search(*self.arrays, self.mark, self.forced)
        self.state[BEST] = self.state[SIZE]
        self.best[self.perm[: self.state[SIZE]]] = True

    def run(self, iterations: int) -> bool:
        """Up to ``iterations`` iterations; True as soon as a larger solution is found (``solution``)."""
        return bool(_iterate(*self.arrays, self.mark, self.forced, self.age, self.best, iterations))

    @property
    def solution(self) -> np.ndarray:
        return np.flatnonzero(self.best)

    @property
    def size(self) -> int:
        return int(self.state[BEST])

    @property
    def steps(self) -> int:
        """Insertions and removals so far: the search's own measure of work."""
        return int(self.state[MOVES])


@njit(cache=True)
def _start(
    indptr: np.ndarray,
    indices: np.ndarray,
    perm: np.ndarray,
    where: np.ndarray,
    tight: np.ndarray,
    owner: np.ndarray,
    queue: np.ndarray,
    queued: np.ndarray,
    log: np.ndarray,
    state: np.ndarray,
    start: np.ndarray,
) -> None:
    for v in start:
        if where[v] >= state[SIZE] and tight[v] == 0:
            _insert(indptr, indices, perm, where, tight, owner, queue, queued, log, state, v)
        state[LOGGED] = 0


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk): for the solver's setup."""
    # the path 0-1-2-3, from the set {1}
    indptr = np.array([0, 1, 3, 5, 6])
    indices = np.array([1, 0, 2, 1, 3, 2])
    LocalSearch(indptr, indices, np.array([1]), 0).run(10)
