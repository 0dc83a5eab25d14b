"""Maximum independent set as maximum clique of the complement graph, by branch and bound with greedy-colouring
bounds on bitsets (Tomita, Sutani, Higashi, Takahashi and Wakatsuki, "A simple and faster branch-and-bound
algorithm for finding a maximum clique", WALCOM 2010 (MCS); bitsets as San Segundo, Rodriguez-Losada and Jimenez,
"An exact bit-parallel algorithm for the maximum clique problem", Computers & OR 38, 2011 (BBMC)).

The vertices are numbered in a degeneracy order of the clique graph (the vertex of least degree last, repeatedly),
so that the colouring takes the dense core first and the branching starts at the sparse end. At each node the
candidates are coloured greedily (a colour class is an independent set of the clique graph, so a clique holds at
most one vertex per class); a candidate whose colour cannot lift the clique above the incumbent is not branched on,
and a vertex that would open a new colour class is first re-coloured into an earlier class when it meets just one
vertex of it that can move on (MCS's Re-NUMBER). The search is iterative, its state in arrays, so that it runs in
pieces of a given number of nodes, stops at each new incumbent, and can be given a better incumbent from outside.
"""

from __future__ import annotations

import numpy as np
from numba import njit

WORD = 64
# the scalar state of a search (``Clique.state``)
DEPTH, BEST, NODES, DONE, FOUND = 0, 1, 2, 3, 4
# what ``search`` returns
PAUSED, IMPROVED, FINISHED = 0, 1, 2


@njit(cache=True)
def _lowest_bit(word: np.uint64) -> int:
    """The index of the lowest set bit of a non-zero word."""
    index = 0
    low = word & (~word + np.uint64(1))
    if low & np.uint64(0xFFFFFFFF00000000):
        index += 32
    if low & np.uint64(0xFFFF0000FFFF0000):
        index += 16
    if low & np.uint64(0xFF00FF00FF00FF00):
        index += 8
    if low & np.uint64(0xF0F0F0F0F0F0F0F0):
        index += 4
    if low & np.uint64(0xCCCCCCCCCCCCCCCC):
        index += 2
    if low & np.uint64(0xAAAAAAAAAAAAAAAA):
        index += 1
    return index


@njit(cache=True)
def degeneracy_order(adjacent: np.ndarray) -> np.ndarray:
    """Vertices of a dense graph (a boolean matrix) so that each has the fewest neighbours among those before it
    and itself: the vertex of least degree goes last, then the least of the rest, and so on."""
    n = adjacent.shape[0]
    degree = np.zeros(n, np.int64)
    for v in range(n):
        degree[v] = adjacent[v].sum()
    removed = np.zeros(n, np.bool_)
    order = np.empty(n, np.int64)
    for slot in range(n - 1, -1, -1):
        best, best_degree = -1, n + 1
        for v in range(n):
            if not removed[v] and degree[v] < best_degree:
                best, best_degree = v, degree[v]
        order[slot] = best
        removed[best] = True
        for u in range(n):
            if adjacent[best, u]:
                degree[u] -= 1
    return order


def bitsets(adjacent: np.ndarray) -> np.ndarray:
    """Rows of a boolean matrix as words of 64 bits (bit j of word w is column 64 w + j)."""
    rows, n = adjacent.shape
    words = max(1, -(-n // WORD))
    padded = np.zeros((rows, words * WORD), dtype=bool)
    padded[:, :n] = adjacent
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64)


@njit(cache=True)
def _renumber(adj: np.ndarray, classes: np.ndarray, v: int, kmin: int, first: int) -> bool:
    """Put ``v`` into a class k1 < kmin that holds one neighbour w of it, moving w into a later class k2 < kmin
    that holds none of w's (MCS's Re-NUMBER); False when no such pair of classes exists."""
    words = adj.shape[1]
    for k1 in range(1, kmin - 1):
        hits, w = 0, -1
        for x in range(first, words):
            common = adj[v, x] & classes[k1, x]
            if common != 0:
                hits += 1 if (common & (common - np.uint64(1))) == 0 else 2
                if hits > 1:
                    break
                w = x * WORD + _lowest_bit(common)
        if hits != 1:
            continue
        for k2 in range(k1 + 1, kmin):
            clash = False
            for x in range(first, words):
                if adj[w, x] & classes[k2, x]:
                    clash = True
                    break
            if not clash:
                ww, wb = w // WORD, np.uint64(w % WORD)
                classes[k1, ww] &= ~(np.uint64(1) << wb)
                classes[k2, ww] |= np.uint64(1) << wb
                classes[k1, v // WORD] |= np.uint64(1) << np.uint64(v % WORD)
                return True
    return False


@njit(cache=True)
def _colour(
    adj: np.ndarray,
    candidates: np.ndarray,
    kmin: int,
    order: np.ndarray,
    colour: np.ndarray,
    left: np.ndarray,
    queue: np.ndarray,
    classes: np.ndarray,
) -> int:
    """Greedy colouring of ``candidates``, class by class, each class taking the lowest vertex that fits; the
    vertices of colour >= kmin go to ``order`` with their colour (non-decreasing) and their count is returned. A
    vertex that would land in a class >= kmin is moved into an earlier one when Re-NUMBER allows. ``left``,
    ``queue`` and ``classes`` are scratch space."""
    words = candidates.shape[0]
    first = 0
    while first < words and candidates[first] == 0:
        first += 1
    origin = first  # no class has a vertex in an earlier word
    for x in range(words):
        left[x] = candidates[x]
    count = 0
    k = 0
    while True:
        while first < words and left[first] == 0:
            first += 1
        if first == words:
            return count
        k += 1
        if k < kmin:
            for x in range(words):
                classes[k, x] = 0
        for x in range(first, words):
            queue[x] = left[x]
        w = first
        while w < words:
            word = queue[w]
            if word == 0:
                w += 1
                continue
            bit = _lowest_bit(word)
            v = w * WORD + bit
            mask = ~(np.uint64(1) << np.uint64(bit))
            queue[w] &= mask
            left[w] &= mask
            if k >= kmin and kmin > 2 and _renumber(adj, classes, v, kmin, origin):
                continue  # taken by an earlier class: not branched on here
            for x in range(w, words):
                queue[x] &= ~adj[v, x]
            if k >= kmin:
                order[count] = v
                colour[count] = k
                count += 1
            else:
                classes[k, w] |= ~mask


class Clique:
    """A resumable branch and bound for a maximum clique of the graph whose adjacency is ``adjacent`` (boolean,
    symmetric, no loops), in the degeneracy numbering; ``vertices(clique)`` gives back the graph's numbers."""

    def __init__(self, adjacent: np.ndarray, incumbent: int) -> None:
        self.numbering = degeneracy_order(adjacent)
        renumbered = adjacent[np.ix_(self.numbering, self.numbering)]
        self.adj = bitsets(renumbered)
        n, words = self.adj.shape
        self.candidates = np.zeros((n + 2, words), np.uint64)
        everyone = bitsets(np.ones((1, n), dtype=bool))[0]
        self.candidates[0] = everyone
        self.order = np.zeros((n + 2, n), np.int32)
        self.colour = np.zeros((n + 2, n), np.int32)
        self.position = np.full(n + 2, -1, np.int64)
        self.clique = np.zeros(n + 1, np.int64)
        self.best = np.zeros(n + 1, np.int64)
        self.state = np.zeros(5, np.int64)
        self.state[BEST] = incumbent
        self.state[DEPTH] = -1  # the root is coloured on the first call
        self.scratch = (np.zeros(words, np.uint64), np.zeros(words, np.uint64), np.zeros((n + 2, words), np.uint64))

    def raise_incumbent(self, size: int) -> None:
        """A clique of ``size`` is known (found elsewhere): prune against it from now on."""
        self.state[BEST] = max(self.state[BEST], size)

    def search(self, nodes: int) -> int:
        """Go on for at most ``nodes`` more nodes: PAUSED, IMPROVED (``found`` holds a larger clique) or FINISHED
        (no clique larger than the incumbent exists)."""
        arrays = (self.adj, self.candidates, self.order, self.colour, self.position, self.clique, self.best, self.state)
        return int(_search(*arrays, *self.scratch, nodes))

    @property
    def found(self) -> np.ndarray:
        """The largest clique this search found (none when it never beat the incumbent), in the graph's numbers."""
        return np.sort(self.numbering[self.best[: self.state[FOUND]]])

    @property
    def finished(self) -> bool:
        return bool(self.state[DONE])

    @property
    def nodes(self) -> int:
        return int(self.state[NODES])


@njit(cache=True)
def _search(
    adj: np.ndarray,
    candidates: np.ndarray,
    order: np.ndarray,
    colour: np.ndarray,
    position: np.ndarray,
    clique: np.ndarray,
    best: np.ndarray,
    state: np.ndarray,
    left: np.ndarray,
    queue: np.ndarray,
    classes: np.ndarray,
    nodes: int,
) -> int:
    if state[DONE]:
        return FINISHED
    words = adj.shape[1]
    d = state[DEPTH]
    if d < 0:  # the root
        d = 0
        position[0] = _colour(adj, candidates[0], state[BEST] + 1, order[0], colour[0], left, queue, classes) - 1
        state[NODES] += 1
    budget_end = state[NODES] + nodes
    while True:
        if position[d] < 0:
            if d == 0:
                state[DONE] = 1
                state[DEPTH] = 0
                return FINISHED
            d -= 1
            continue
        i = position[d]
        c = colour[d, i]
        if d + c <= state[BEST]:
            position[d] = -1  # the colours before i are no larger: nothing left here can beat the incumbent
            continue
        v = order[d, i]
        position[d] = i - 1
        vw, vb = v // WORD, v % WORD
        candidates[d, vw] &= ~(np.uint64(1) << np.uint64(vb))
        clique[d] = v
        empty = True
        for x in range(words):
            candidates[d + 1, x] = candidates[d, x] & adj[v, x]
            if candidates[d + 1, x] != 0:
                empty = False
        if empty:
            if d + 1 > state[BEST]:
                state[BEST] = d + 1
                state[FOUND] = d + 1
                best[: d + 1] = clique[: d + 1]
                state[DEPTH] = d
                return IMPROVED
            continue
        d += 1
        position[d] = _colour(adj, candidates[d], state[BEST] - d + 1, order[d], colour[d], left, queue, classes) - 1
        state[NODES] += 1
        if state[NODES] >= budget_end:
            state[DEPTH] = d
            return PAUSED


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk): for the solver's setup."""
    five_cycle = np.zeros((5, 5), dtype=bool)
    for v in range(5):
        five_cycle[v, (v + 1) % 5] = five_cycle[(v + 1) % 5, v] = True
    search = Clique(five_cycle, 0)
    while search.search(10) != FINISHED:
        pass
