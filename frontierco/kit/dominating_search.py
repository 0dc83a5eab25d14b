"""The local search of minimum dominating set over flat CSR lists (written here for mds-greedy; egn-mds runs it
too): the chosen set with how often each vertex is dominated, the classical greedy completion (Johnson 1974;
Chvatal 1979) with lazy re-evaluation of stale gains, redundant-vertex pruning (a vertex whose closed
neighbourhood is dominated twice), and remove-and-repair moves (drop a vertex of the set, re-dominate what it
alone dominated greedily among the neighbours, drop what became redundant nearby; a larger set is undone, an
equal one kept: a plateau walk). Plain Python over lists; loops look at the clock every ``CHECK_EVERY`` steps.
"""

from __future__ import annotations

import heapq
import random

import numpy as np

from frontierco.kit.solverkit import Clock

CHECK_EVERY = 256  # loop iterations between looks at the clock


class DominatingSearch:
    """The set, with how often each vertex is dominated, over flat CSR lists."""

    def __init__(self, indptr: list[int], indices: list[int], chosen: np.ndarray, n: int) -> None:
        self.indptr, self.indices, self.n = indptr, indices, n
        self.inside = bytearray(n)
        self.count = [0] * n
        self.size = 0
        for v in chosen.tolist():
            self.add(v)

    def closed(self, v: int) -> list[int]:
        return [v, *self.indices[self.indptr[v] : self.indptr[v + 1]]]

    def add(self, v: int) -> None:
        self.inside[v] = 1
        self.size += 1
        for u in self.closed(v):
            self.count[u] += 1

    def remove(self, v: int) -> None:
        self.inside[v] = 0
        self.size -= 1
        for u in self.closed(v):
            self.count[u] -= 1

    def redundant(self, v: int) -> bool:
        count = self.count
        return all(count[u] >= 2 for u in self.closed(v))

    def vertices(self) -> np.ndarray:
        return np.flatnonzero(np.frombuffer(bytes(self.inside), dtype=np.uint8))

    def greedy(self, tie: list[float], clock: Clock, until: float) -> bool:
        """Complete the set greedily (most undominated vertices covered first); False when the clock reached
        ``until`` seconds first."""
        count = self.count
        indptr = self.indptr
        heap = [(indptr[v] - indptr[v + 1] - 1, tie[v], v) for v in range(self.n) if not self.inside[v]]
        heapq.heapify(heap)
        undominated = sum(1 for c in count if c == 0)
        steps = 0
        while undominated and heap:
            steps += 1
            if steps % CHECK_EVERY == 0 and clock.elapsed() > until:
                return False
            _, t, v = heapq.heappop(heap)
            gain = sum(1 for u in self.closed(v) if count[u] == 0)
            if gain == 0:
                continue
            if heap and -heap[0][0] > gain:
                heapq.heappush(heap, (-gain, t, v))
                continue
            self.add(v)
            undominated -= gain
        return True

    def complete(self, fallback: np.ndarray, indptr: np.ndarray, indices: np.ndarray) -> None:
        """Dominate what is still undominated with the vertices of ``fallback`` (a dominating set) next to it
        (found with numpy over the CSR arrays, then added one by one)."""
        undominated = np.asarray(self.count) == 0
        near = undominated.copy()
        rows = np.flatnonzero(np.diff(indptr) > 0)
        if rows.size:
            near[rows] |= np.logical_or.reduceat(undominated[indices], indptr[rows])
        for v in fallback[near[fallback]].tolist():
            if not self.inside[v]:
                self.add(v)

    def prune(self, order: list[int], clock: Clock) -> None:
        """Drop the redundant vertices of ``order``, in that order, until the clock runs out."""
        for step, v in enumerate(order):
            if step % CHECK_EVERY == 0 and clock.expired():
                return
            if self.inside[v] and self.redundant(v):
                self.remove(v)

    def move(self, v: int, rng: random.Random) -> int:
        """Remove-and-repair around ``v``; returns the change in size (kept when <= 0, else undone)."""
        if self.indptr[v] == self.indptr[v + 1]:
            return 0  # an isolated vertex dominates only itself: it stays
        count, before, done = self.count, self.size, []
        self.remove(v)
        done.append((v, False))
        lost = [u for u in self.closed(v) if count[u] == 0]
        while lost:
            scores: dict[int, int] = {}
            for u in lost:
                for w in self.closed(u):
                    if w != v:
                        scores[w] = scores.get(w, 0) + 1
            top = max(scores.values())
            w = rng.choice([w for w, s in scores.items() if s == top])
            self.add(w)
            done.append((w, True))
            lost = [u for u in lost if count[u] == 0]
        near = {x for w, _ in done[1:] for u in self.closed(w) for x in self.closed(u) if self.inside[x]}
        for x in sorted(near, key=lambda x: (self.indptr[x + 1] - self.indptr[x], rng.random())):
            if self.inside[x] and self.redundant(x):
                self.remove(x)
                done.append((x, False))
        change = self.size - before
        if change > 0:
            for x, added in reversed(done):
                if added:
                    self.remove(x)
                else:
                    self.add(x)
        return change
