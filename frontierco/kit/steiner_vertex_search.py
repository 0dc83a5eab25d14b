"""A search over Steiner-vertex sets for Steiner tree instances whose edges all weigh the same (SteinLib's
unit-weight PUC instances: hypercubes, code covers, bipartite graphs).

With equal weights a tree costs its number of vertices less one, and any vertex set that holds the terminals
and induces a connected subgraph gives a tree of that cost (a spanning tree of the subgraph, pruned). The
search looks for such a set with as few non-terminals as it can, by a fixed-size exchange in the manner of
NuMVC (Cai, Su, Luo and Sattar, "NuMVC: an efficient local search algorithm for minimum vertex cover", JAIR
46, 2013): while the set induces a connected subgraph it is recorded and its least useful non-terminal leaves;
otherwise one non-terminal leaves and one joins. The score of a set is its number of connected components:

- a member leaves at the least cost in components, which one depth-first search gives for all members at
  once (articulation points: Hopcroft and Tarjan, "Efficient algorithms for graph manipulation", CACM 16,
  1973): a member whose removal leaves its component in p pieces adds p - 1 components;
- a vertex outside joins where it merges the most components (its neighbours' distinct components);
- ties go to the vertex that changed longest ago; a vertex that has just left may not join, and one that has
  just joined may not leave, for ``tenure`` steps; with probability ``noise`` per mille the leaving member is
  drawn at random instead.

Every step is one unit of the search's own work: ``VertexSearch.run(steps)`` takes that many and reports
whether the best set improved.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_NONE = 1 << 60


@njit(cache=True)
def _random(state: np.ndarray) -> np.uint64:
    """xorshift64 (Marsaglia 2003) on a one-element state."""
    x = state[0]
    x ^= (x << np.uint64(13)) & _MASK64
    x ^= x >> np.uint64(7)
    x ^= (x << np.uint64(17)) & _MASK64
    state[0] = x
    return x


@njit(cache=True)
def _components(
    indptr: np.ndarray,
    indices: np.ndarray,
    member: np.ndarray,
    label: np.ndarray,
    pieces: np.ndarray,
    work: np.ndarray,
) -> int:
    """The number of connected components of the subgraph the members induce; each member's component in
    ``label`` and in ``pieces`` how many pieces its component falls into without it (0 when it is alone).
    ``work`` is scratch space, (5, n)."""
    n = len(indptr) - 1
    disc, low, parent, cursor, stack = work[0], work[1], work[2], work[3], work[4]
    disc[:] = -1
    timer = 0
    count = 0
    for root in range(n):
        if not member[root] or disc[root] != -1:
            continue
        disc[root] = low[root] = timer
        timer += 1
        parent[root] = -1
        pieces[root] = 0  # the root has no parent side
        label[root] = count
        cursor[root] = indptr[root]
        top = 0
        stack[0] = root
        while top >= 0:
            v = stack[top]
            if cursor[v] < indptr[v + 1]:
                w = indices[cursor[v]]
                cursor[v] += 1
                if not member[w]:
                    continue
                if disc[w] == -1:
                    parent[w] = v
                    disc[w] = low[w] = timer
                    timer += 1
                    pieces[w] = 1  # the side of its parent
                    label[w] = count
                    cursor[w] = indptr[w]
                    top += 1
                    stack[top] = w
                elif w != parent[v] and disc[w] < low[v]:
                    low[v] = disc[w]
            else:
                top -= 1
                p = parent[v]
                if p != -1:
                    low[p] = min(low[p], low[v])
                    if low[v] >= disc[p]:
                        pieces[p] += 1
        count += 1
    return count


@njit(cache=True)
def _leaving(
    member: np.ndarray, terminal: np.ndarray, pieces: np.ndarray, changed: np.ndarray, tabu: np.ndarray, step: int, respect_tabu: bool
) -> int:
    """The non-terminal member whose removal adds the fewest components (oldest change first), or -1."""
    pick, score, age = -1, _NONE, _NONE
    for v in range(len(member)):
        if member[v] and not terminal[v] and not (respect_tabu and tabu[v] > step):
            if pieces[v] < score or (pieces[v] == score and changed[v] < age):
                pick, score, age = v, pieces[v], changed[v]
    return pick


@njit(cache=True)
def _random_member(member: np.ndarray, terminal: np.ndarray, size: int, state: np.ndarray) -> int:
    r = int(_random(state) % np.uint64(size))
    for v in range(len(member)):
        if member[v] and not terminal[v]:
            if r == 0:
                return v
            r -= 1
    return -1


@njit(cache=True)
def _joining(
    indptr: np.ndarray,
    indices: np.ndarray,
    member: np.ndarray,
    terminal: np.ndarray,
    label: np.ndarray,
    changed: np.ndarray,
    tabu: np.ndarray,
    step: int,
    seen: np.ndarray,
) -> int:
    """The vertex outside, next to the members, that merges the most components (oldest change first), or -1.
    ``seen`` is scratch space (n)."""
    seen[:] = -1
    pick, score, age = -1, _NONE, _NONE
    for v in range(len(member)):
        if member[v] or terminal[v] or tabu[v] > step:
            continue
        distinct = 0
        for t in range(indptr[v], indptr[v + 1]):
            w = indices[t]
            if member[w] and seen[label[w]] != v:
                seen[label[w]] = v
                distinct += 1
        if distinct and (-distinct < score or (-distinct == score and changed[v] < age)):
            pick, score, age = v, -distinct, changed[v]
    return pick


@njit(cache=True)
def _steps(
    indptr: np.ndarray,
    indices: np.ndarray,
    terminal: np.ndarray,
    member: np.ndarray,
    best: np.ndarray,
    counters: np.ndarray,
    changed: np.ndarray,
    tabu: np.ndarray,
    state: np.ndarray,
    steps: int,
    tenure: int,
    noise: int,
) -> bool:
    """``steps`` exchange steps from ``member``; ``counters`` holds (step, size of member's non-terminals,
    that of ``best``). True when ``best`` improved."""
    n = len(indptr) - 1
    label = np.zeros(n, np.int64)
    pieces = np.zeros(n, np.int64)
    work = np.zeros((5, n), np.int64)
    seen = np.full(n, -1, np.int64)
    improved = False
    for _ in range(steps):
        step, size = counters[0], counters[1]
        counters[0] += 1
        feasible = _components(indptr, indices, member, label, pieces, work) == 1
        if feasible and size < counters[2]:
            counters[2] = size
            best[:] = member
            improved = True
        leave = _leaving(member, terminal, pieces, changed, tabu, step, not feasible) if size else -1
        if leave >= 0 and noise and int(_random(state) % np.uint64(1000)) < noise:
            leave = _random_member(member, terminal, size, state)
        if leave >= 0:
            member[leave] = False
            counters[1] -= 1
            changed[leave] = step
            tabu[leave] = step + tenure
            if feasible:
                continue  # try one fewer
            _components(indptr, indices, member, label, pieces, work)
        elif feasible:
            continue
        join = _joining(indptr, indices, member, terminal, label, changed, tabu, step, seen)
        if join >= 0:
            member[join] = True
            counters[1] += 1
            changed[join] = step
            tabu[join] = step + tenure
    return improved


@dataclass
class VertexSearch:
    """The search's state on a graph (CSR adjacency ``indptr``, ``indices``), from the vertex set ``member``
    (terminals included, inducing a connected subgraph)."""

    indptr: np.ndarray
    indices: np.ndarray
    terminal: np.ndarray
    member: np.ndarray
    seed: int
    tenure: int = 3
    noise: int = 20

    def __post_init__(self) -> None:
        n = len(self.indptr) - 1
        self.member = self.member.copy()
        self.best = self.member.copy()
        size = int((self.member & ~self.terminal).sum())
        self.counters = np.array([0, size, size + 1], dtype=np.int64)  # the start is recorded at the first step
        self.changed = np.zeros(n, dtype=np.int64)
        self.tabu = np.zeros(n, dtype=np.int64)
        self.state = np.array([np.uint64(self.seed) * np.uint64(2654435761) + np.uint64(88172645463325252)], dtype=np.uint64)

    @property
    def steps_taken(self) -> int:
        return int(self.counters[0])

    def run(self, steps: int) -> bool:
        """Take ``steps`` steps; True when the best set improved."""
        return bool(
            _steps(
                self.indptr,
                self.indices,
                self.terminal,
                self.member,
                self.best,
                self.counters,
                self.changed,
                self.tabu,
                self.state,
                steps,
                self.tenure,
                self.noise,
            )
        )


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk): for a solver's setup."""
    indptr = np.array([0, 2, 4, 6, 8])
    indices = np.array([1, 3, 0, 2, 1, 3, 0, 2])  # a 4-cycle
    terminal = np.array([True, False, True, False])
    VertexSearch(indptr, indices, terminal, np.ones(4, dtype=bool), seed=0).run(10)
