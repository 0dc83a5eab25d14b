"""2-opt for symmetric TSP tours on candidate (neighbour) lists, compiled with numba: the local search that
the heatmap solvers (DIMES, DeepACO) put after their decoders.

A tour is an array of node indices; ``pos`` maps a node to its place. For a node ``a`` and each candidate
``c`` nearer to ``a`` than ``a``'s tour neighbour, the move that brings the edge (a, c) into the tour
replaces two edges and turns one of the two paths between them around (the shorter one). Nodes whose
surroundings changed go back on a queue ("don't look bits"); the search stops at a local optimum or after
``max_moves`` improving moves. No move turns around a path of more than ``limit`` cities (an Or-opt move: takes
its segment no farther along the tour than that): above a few hundred thousand cities an unbounded reversal costs
milliseconds, and the descent crawls. Costs come from a dense matrix or, for large coordinate instances, from the
coordinates with a TSPLIB rounding rule, so that the search optimises exactly what the checker measures.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy.spatial import cKDTree

from frontierco.kit.solverkit import Clock
from frontierco.problems import TSPInstance

DENSE_LIMIT = 4000  # above this many nodes, costs come from the coordinates (an n x n matrix would not fit)
RULE_CODES = {"EXACT_2D": 1, "EUC_2D": 2, "CEIL_2D": 3}  # coordinate rules computed inside the search
EPSILON = 1e-9
MAX_REVERSAL = 50_000  # cities a move may turn around: no bound below 100,001 cities (a shorter side is at most n/2)
ROUND_SECONDS = 1.0  # search between two looks at the clock: moves or kicks per round adapt to it
YIELD_RATIO = 4.0  # an improvement is handed over once the search since the last one took 4x what that handover did
JOURNAL = 4096  # reversals of one kick's descent that can be undone; a descent with more keeps its tour
LK_REVERSAL = 10_000  # cities one tentative flip of an LK move may turn around (most are undone)
LK_BREADTH = 3  # first steps of an LK move tried in turn (the later ones take the best step only)


@njit(cache=True, inline="always")
def _cost(a: int, b: int, matrix: np.ndarray, xy: np.ndarray, rule: int) -> float:
    if rule == 0:
        return matrix[a, b]
    dx = xy[a, 0] - xy[b, 0]
    dy = xy[a, 1] - xy[b, 1]
    d = np.sqrt(dx * dx + dy * dy)
    if rule == 2:
        return np.floor(d + 0.5)
    if rule == 3:
        return np.ceil(d)
    return d


@njit(cache=True)
def _reverse(tour: np.ndarray, pos: np.ndarray, i: int, j: int, journal: np.ndarray, logged: np.ndarray) -> None:
    """Turn tour[i..j] (cyclic, inclusive) around, or the complementary path when that one is shorter; the path
    turned goes into ``journal`` (while it has room; ``logged[0]`` counts them all) so that it can be undone."""
    n = tour.shape[0]
    length = (j - i) % n + 1
    if 2 * length > n:
        i, j = (j + 1) % n, (i - 1) % n
        length = n - length
    if logged[0] < journal.shape[0]:
        journal[logged[0], 0], journal[logged[0], 1] = i, j
    logged[0] += 1
    for _ in range(length // 2):
        a, b = tour[i], tour[j]
        tour[i], tour[j] = b, a
        pos[b], pos[a] = i, j
        i = (i + 1) % n
        j = (j - 1) % n


@njit(cache=True, inline="always")
def _too_long(i: int, j: int, n: int, limit: int) -> bool:
    """Whether turning tour[i..j] around (or its shorter complement) turns more than ``limit`` cities."""
    length = (j - i) % n + 1
    return min(length, n - length) > limit


@njit(cache=True)
def _push(node: int, queue: np.ndarray, queued: np.ndarray, head: int, size: int) -> int:
    """Put ``node`` back on the don't-look queue (a ring of capacity n); returns the new size."""
    if not queued[node]:
        queue[(head + size) % queue.shape[0]] = node
        queued[node] = True
        return size + 1
    return size


@njit(cache=True)
def _two_opt_node(
    a: int, tour: np.ndarray, pos: np.ndarray, queue: np.ndarray, queued: np.ndarray, head: int, size: int,
    neighbours: np.ndarray, matrix: np.ndarray, xy: np.ndarray, rule: int, limit: int, journal: np.ndarray,
    logged: np.ndarray,
) -> tuple[float, int]:  # fmt: skip
    """The first improving 2-opt move that brings an edge (a, candidate) into the tour, made; returns (gain,
    queue size); gain 0 when there is none."""
    n = tour.shape[0]
    for forward in (True, False):
        pa = pos[a]
        a_next = tour[(pa + 1) % n] if forward else tour[(pa - 1) % n]
        d_a = _cost(a, a_next, matrix, xy, rule)
        for c in neighbours[a]:
            g1 = d_a - _cost(a, c, matrix, xy, rule)
            if g1 <= EPSILON:
                break  # candidates come nearest first: no later one can gain
            pc = pos[c]
            c_next = tour[(pc + 1) % n] if forward else tour[(pc - 1) % n]
            if c == a_next or c_next == a:
                continue
            gain = g1 + _cost(c, c_next, matrix, xy, rule) - _cost(a_next, c_next, matrix, xy, rule)
            i, j = ((pa + 1) % n, pc) if forward else (pc, (pa - 1) % n)
            if gain > EPSILON and not _too_long(i, j, n, limit):
                _reverse(tour, pos, i, j, journal, logged)
                for node in (a, a_next, c, c_next):
                    size = _push(node, queue, queued, head, size)
                return gain, size
    return 0.0, size


@njit(cache=True)
def _no_journal() -> tuple[np.ndarray, np.ndarray]:
    """A journal that records nothing (a descent that will not be undone)."""
    return np.empty((0, 2), np.int64), np.zeros(1, np.int64)


@njit(cache=True)
def _two_opt(tour: np.ndarray, neighbours: np.ndarray, matrix: np.ndarray, xy: np.ndarray, rule: int, max_moves: int) -> int:
    n = tour.shape[0]
    pos = np.empty(n, dtype=np.int64)
    for k in range(n):
        pos[tour[k]] = k
    ring = np.array([0, n], dtype=np.int64)
    state = (tour, pos, tour.copy(), np.ones(n, dtype=np.bool_), ring)
    return _descend(*state, neighbours, matrix, xy, rule, max_moves, False, MAX_REVERSAL, *_no_journal(), 0)[1]


@njit(cache=True)
def _exchange(tour: np.ndarray, pos: np.ndarray, a: int, b: int, c: int, d: int, journal: np.ndarray, logged: np.ndarray) -> None:
    """Replace the tour edges (a, b) and (c, d), b following a and d following c in one direction, by
    (a, c) and (b, d), whichever way the array runs."""
    n = tour.shape[0]
    if tour[(pos[a] + 1) % n] == b:
        _reverse(tour, pos, pos[b], pos[c], journal, logged)
    else:
        _reverse(tour, pos, pos[a], pos[d], journal, logged)


@njit(cache=True)
def _or_opt_node(
    a: int, tour: np.ndarray, pos: np.ndarray, queue: np.ndarray, queued: np.ndarray, head: int, size: int,
    neighbours: np.ndarray, matrix: np.ndarray, xy: np.ndarray, rule: int, limit: int, journal: np.ndarray,
    logged: np.ndarray,
) -> tuple[float, int]:  # fmt: skip
    """Or-opt (Or 1976) at ``a``: the best move of a segment of 1-3 cities starting or ending at ``a``, either
    way round, between two adjacent cities near one of its ends, made as three (or two) edge exchanges;
    returns (gain, queue size); gain 0 when no move improves."""
    n = tour.shape[0]
    for length in range(1, 4):
        if n < length + 5:
            break
        for start_at_a in (True, False):
            pa = pos[a]
            s = a if start_at_a else tour[(pa - length + 1) % n]
            e = tour[(pa + length - 1) % n] if start_at_a else a
            ps = pos[s]
            p, q = tour[(ps - 1) % n], tour[(ps + length) % n]
            removed = _cost(p, s, matrix, xy, rule) + _cost(e, q, matrix, xy, rule) - _cost(p, q, matrix, xy, rule)
            if removed <= EPSILON:
                continue
            best, bx, by, flip = EPSILON, -1, -1, False
            for end in (s, e):
                for c in neighbours[end]:
                    if removed - _cost(end, c, matrix, xy, rule) <= EPSILON:
                        break  # nearest first: a farther city cannot pay for the segment's new edge
                    if (pos[c] - ps) % n < length or _too_long(ps, pos[c], n, limit):
                        continue  # inside the segment, or too far along the tour
                    for side in (1, -1):
                        other = tour[(pos[c] + side) % n]
                        if (pos[other] - ps) % n < length:
                            continue
                        x, y = (c, other) if side == 1 else (other, c)  # y follows x
                        if y == p:
                            continue  # just before the segment: the same as moving p, found from p
                        base = _cost(x, y, matrix, xy, rule)
                        turned = removed - (_cost(x, e, matrix, xy, rule) + _cost(s, y, matrix, xy, rule) - base)
                        kept = removed - (_cost(x, s, matrix, xy, rule) + _cost(e, y, matrix, xy, rule) - base)
                        if turned > best:
                            best, bx, by, flip = turned, x, y, True
                        if kept > best:
                            best, bx, by, flip = kept, x, y, False
            if bx < 0:
                continue
            _exchange(tour, pos, p, s, bx, by, journal, logged)  # p-x ... q-e ... s-y
            if bx != q:
                _exchange(tour, pos, p, bx, q, e, journal, logged)  # p-q ... x-e ... s-y: the segment turned round
            if not flip:
                _exchange(tour, pos, bx, e, s, by, journal, logged)  # x-s ... e-y
            for node in (p, q, s, e, bx, by):
                size = _push(node, queue, queued, head, size)
            return best, size
    return 0.0, size


@njit(cache=True)
def _lk_options(
    t1: int, t2: int, g: float, k: int, tour: np.ndarray, pos: np.ndarray, neighbours: np.ndarray, matrix: np.ndarray,
    xy: np.ndarray, rule: int, limit: int, added: np.ndarray, options: np.ndarray, values: np.ndarray,
) -> int:  # fmt: skip
    """The next steps of an LK chain whose loose end is t2 (gain ``g`` so far): each candidate t3 with
    g - d(t2, t3) > 0 and its t4 (the neighbour of t3 whose edge goes, so that one flip keeps the tour whole),
    written to ``options`` / ``values`` (the gain with (t3, t4) dropped) best first; returns how many."""
    n = tour.shape[0]
    forward = tour[(pos[t1] + 1) % n] == t2
    count = 0
    for t3 in neighbours[t2]:
        g1 = g - _cost(t2, t3, matrix, xy, rule)
        if g1 <= EPSILON:
            break  # nearest first
        if t3 == t1:
            continue
        t4 = tour[(pos[t3] - 1) % n] if forward else tour[(pos[t3] + 1) % n]
        if t4 == t2 or t4 == t1:
            continue
        fresh = True  # an edge this move added is never dropped again
        for m in range(k):
            if (added[m, 0] == t3 and added[m, 1] == t4) or (added[m, 0] == t4 and added[m, 1] == t3):
                fresh = False
        i, j = (pos[t2], pos[t4]) if forward else (pos[t4], pos[t2])
        if not fresh or _too_long(i, j, n, limit):
            continue
        value = g1 + _cost(t3, t4, matrix, xy, rule)
        at = count
        while at > 0 and values[at - 1] < value:  # insertion, best first
            options[at], values[at] = options[at - 1], values[at - 1]
            at -= 1
        options[at, 0], options[at, 1], values[at] = t3, t4, value
        count += 1
    return count


@njit(cache=True)
def _lk_node(
    a: int, tour: np.ndarray, pos: np.ndarray, queue: np.ndarray, queued: np.ndarray, head: int, size: int,
    neighbours: np.ndarray, matrix: np.ndarray, xy: np.ndarray, rule: int, limit: int, journal: np.ndarray,
    logged: np.ndarray, depth: int,
) -> tuple[float, int]:  # fmt: skip
    """An LK-style move from ``a`` (Lin and Kernighan 1973, as a chain of flips: Johnson and McGeoch's form): the
    edge (a, t2) goes, then up to ``depth`` times a candidate t3 of the loose end t2 is joined to it, the edge that
    keeps the tour whole is dropped (a flip) and t4 becomes the loose end, t3 chosen for the largest
    d(t3, t4) - d(t2, t3), the first step's up to ``LK_BREADTH`` best choices tried in turn; the chain is cut back
    to its best closed tour. Depth 2 makes the sequential 3-opt moves that two flips reach. Returns (gain, queue
    size); gain 0 (and the tour as it was) when none pays."""
    n = tour.shape[0]
    width = neighbours.shape[1]
    steps, count = np.empty((depth, 2), np.int64), np.zeros(1, np.int64)
    touched = np.empty(2 * depth + 2, np.int64)
    added = np.empty((depth, 2), np.int64)
    first, first_values = np.empty((width, 2), np.int64), np.empty(width)
    options, values = np.empty((width, 2), np.int64), np.empty(width)
    flip_limit = min(limit, LK_REVERSAL)
    t1 = a
    for side in (1, -1):
        t2_start = tour[(pos[t1] + side) % n]
        g_start = _cost(t1, t2_start, matrix, xy, rule)
        choices = _lk_options(t1, t2_start, g_start, 0, tour, pos, neighbours, matrix, xy, rule, flip_limit, added, first, first_values)
        for attempt in range(min(choices, LK_BREADTH)):
            t2, g = t2_start, g_start
            best, best_k, k = EPSILON, 0, 0
            count[0] = 0
            touched[0], touched[1] = t1, t2
            while k < depth:
                if k == 0:
                    pick, pick4, value = first[attempt, 0], first[attempt, 1], first_values[attempt]
                else:
                    found = _lk_options(t1, t2, g, k, tour, pos, neighbours, matrix, xy, rule, flip_limit, added, options, values)
                    if found == 0:
                        break
                    pick, pick4, value = options[0, 0], options[0, 1], values[0]
                forward = tour[(pos[t1] + 1) % n] == t2
                i, j = (pos[t2], pos[pick4]) if forward else (pos[pick4], pos[t2])
                _reverse(tour, pos, i, j, steps, count)  # t1 t2 .. t4 t3 -> t1 t4 .. t2 t3
                added[k, 0], added[k, 1] = t2, pick
                touched[2 * k + 2], touched[2 * k + 3] = pick, pick4
                k += 1
                g = value
                closed = g - _cost(pick4, t1, matrix, xy, rule)
                if closed > best:
                    best, best_k = closed, k
                t2 = pick4
            for m in range(k - 1, best_k - 1, -1):
                _reverse(tour, pos, steps[m, 0], steps[m, 1], steps, count)  # the flips past the best closed tour, undone
            if best_k > 0:
                for m in range(best_k):
                    if logged[0] < journal.shape[0]:
                        journal[logged[0], 0], journal[logged[0], 1] = steps[m, 0], steps[m, 1]
                    logged[0] += 1
                for m in range(2 * best_k + 2):
                    size = _push(touched[m], queue, queued, head, size)
                return best, size
    return 0.0, size


@njit(cache=True)
def _descend(
    tour: np.ndarray, pos: np.ndarray, queue: np.ndarray, queued: np.ndarray, ring: np.ndarray,
    neighbours: np.ndarray, matrix: np.ndarray, xy: np.ndarray, rule: int, max_moves: int, or_opt: bool, limit: int,
    journal: np.ndarray, logged: np.ndarray, depth: int,
) -> tuple[float, int]:  # fmt: skip
    """2-opt (and with ``or_opt`` Or-opt, with ``depth`` > 1 LK-style moves of that many flips) from the nodes on
    the queue (``ring`` = [head, size]; a node's 2-opt moves first, then Or-opt, then LK) until no node on it has
    an improving move or after ``max_moves`` moves; returns (total gain, moves). The queue's state stays in
    ``ring`` for the next call."""
    n = tour.shape[0]
    head, size = ring[0], ring[1]
    total, moves = 0.0, 0
    while size > 0 and moves < max_moves:
        a = queue[head]
        head = (head + 1) % n
        size -= 1
        queued[a] = False
        costs = (neighbours, matrix, xy, rule, limit, journal, logged)
        gain, size = _two_opt_node(a, tour, pos, queue, queued, head, size, *costs)
        if gain <= 0.0 and or_opt:
            gain, size = _or_opt_node(a, tour, pos, queue, queued, head, size, *costs)
        if gain <= 0.0 and depth > 1:
            gain, size = _lk_node(a, tour, pos, queue, queued, head, size, *costs, depth)
        if gain > 0.0:
            total += gain
            moves += 1
    ring[0], ring[1] = head, size
    return total, moves


@njit(cache=True)
def _kick(tour: np.ndarray, pos: np.ndarray, i: int, first: int, second: int, matrix: np.ndarray, xy: np.ndarray, rule: int) -> float:
    """A local double bridge: the blocks of ``first`` and ``second`` cities after position ``i`` swap places
    (A B C D -> A C B D); returns the change in length."""
    n = tour.shape[0]
    a, b1, b2 = tour[i % n], tour[(i + 1) % n], tour[(i + first) % n]
    c1, c2, d = tour[(i + first + 1) % n], tour[(i + first + second) % n], tour[(i + first + second + 1) % n]
    delta = (
        _cost(a, c1, matrix, xy, rule) + _cost(c2, b1, matrix, xy, rule) + _cost(b2, d, matrix, xy, rule)
        - _cost(a, b1, matrix, xy, rule) - _cost(b2, c1, matrix, xy, rule) - _cost(c2, d, matrix, xy, rule)
    )  # fmt: skip
    block = np.empty(first + second, dtype=np.int64)
    for k in range(second):
        block[k] = tour[(i + first + 1 + k) % n]
    for k in range(first):
        block[second + k] = tour[(i + 1 + k) % n]
    for k in range(first + second):
        at = (i + 1 + k) % n
        tour[at] = block[k]
        pos[block[k]] = at
    return delta


@njit(cache=True)
def _iterated(
    tour: np.ndarray, pos: np.ndarray, queue: np.ndarray, queued: np.ndarray, ring: np.ndarray, neighbours: np.ndarray,
    matrix: np.ndarray, xy: np.ndarray, rule: int, kicks: int, window: int, seed: int, limit: int, depth: int,
) -> float:  # fmt: skip
    """Iterated local search (Lourenco, Martin and Stuetzle's scheme, with local double-bridge kicks) from a
    local optimum (an empty queue): ``kicks`` times a random local double bridge, 2-opt + Or-opt from the six
    cities it touched, and the result kept when it is no longer, else undone (the descent's reversals turned
    back in reverse order, then the kick: work proportional to what changed, never to n). Returns the total
    gain; a descent of more than ``JOURNAL`` reversals cannot be undone and is kept, longer or not."""
    n = tour.shape[0]
    np.random.seed(seed)
    window = min(window, (n - 2) // 2)
    journal, logged, none = np.empty((JOURNAL, 2), np.int64), np.zeros(1, np.int64), np.empty((0, 2), np.int64)
    total = 0.0
    for _ in range(kicks):
        i = np.random.randint(0, n)
        first, second = np.random.randint(1, window + 1), np.random.randint(1, window + 1)
        delta = _kick(tour, pos, i, first, second, matrix, xy, rule)
        ring[0], ring[1], logged[0] = 0, 0, 0
        for offset in (0, 1, first, first + 1, first + second, first + second + 1):
            ring[1] = _push(tour[(i + offset) % n], queue, queued, 0, ring[1])
        state = (tour, pos, queue, queued, ring, neighbours, matrix, xy, rule)
        delta -= _descend(*state, 1 << 62, True, limit, journal, logged, depth)[0]
        if delta <= EPSILON or logged[0] > JOURNAL:
            total -= delta
            continue
        for k in range(logged[0] - 1, -1, -1):
            _reverse(tour, pos, journal[k, 0], journal[k, 1], none, logged)
        _kick(tour, pos, i, second, first, matrix, xy, rule)  # the blocks swap back
    return total


@dataclass(frozen=True, eq=False)
class TourCosts:
    """What the search needs to price an edge: a dense matrix (rule 0) or coordinates with a rule code."""

    matrix: np.ndarray
    xy: np.ndarray
    rule: int

    @classmethod
    def of(cls, instance: TSPInstance) -> TourCosts | None:
        """The instance's own costs, or None where 2-opt cannot run: an asymmetric instance (2-opt reverses
        paths), or one too large for a dense matrix whose rule the search does not compute."""
        weights = instance.weights
        if instance.is_asymmetric or (instance.n > DENSE_LIMIT and weights.rule not in RULE_CODES):
            return None
        rule = RULE_CODES.get(weights.rule, 0)
        if rule and instance.n > DENSE_LIMIT:
            assert weights.coords is not None
            return cls(np.zeros((1, 1)), np.ascontiguousarray(weights.coords, dtype=np.float64), rule)
        return cls(np.ascontiguousarray(weights.full_matrix(), dtype=np.float64), np.zeros((1, 2)), 0)

    @classmethod
    def dense(cls, matrix: np.ndarray) -> TourCosts:
        return cls(np.ascontiguousarray(matrix, dtype=np.float64), np.zeros((1, 2)), 0)

    def edge(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Costs of the edges (a[k], b[k])."""
        if self.rule == 0:
            return self.matrix[a, b]
        d = np.linalg.norm(self.xy[a] - self.xy[b], axis=-1)
        return np.floor(d + 0.5) if self.rule == 2 else np.ceil(d) if self.rule == 3 else d

    def length(self, tour: np.ndarray) -> float:
        return float(self.edge(tour, np.roll(tour, -1)).sum())


def nearest_neighbours(points: np.ndarray, k: int) -> np.ndarray:
    """The k nearest other points of each point (Euclidean), nearest first: shape (n, min(k, n - 1))."""
    k = min(k, len(points) - 1)
    if k <= 0:
        return np.empty((len(points), 0), dtype=np.int64)
    tree = cKDTree(points)
    leaves = tree.indices  # the points in the tree's leaf order: queried in it, neighbouring queries share memory
    _, found = tree.query(points[leaves], k=k + 1)
    index = np.empty_like(found)
    index[leaves] = found  # 1M points: 3.0 s instead of 8.4 s, the same lists
    # the point itself is not always first: a duplicate point is as near (E3M.0 has some); a list holding its own
    # point gave 2-opt a "move" from a to a that turned nothing around and counted twice the edge as gain
    keep = index != np.arange(len(points))[:, None]
    keep[keep.all(axis=1), -1] = False  # no self among the k + 1 found: the farthest goes
    return np.ascontiguousarray(index[keep].reshape(len(points), k), dtype=np.int64)


def candidates(costs: TourCosts, points: np.ndarray, k: int) -> np.ndarray:
    """Candidate lists for the search, nearest first under the search's own costs (a dense matrix's rows, or
    the coordinates' nearest neighbours)."""
    if costs.rule != 0:
        return nearest_neighbours(points, k)
    matrix = costs.matrix
    k = min(k, len(matrix) - 1)
    masked = matrix + np.diag(np.full(len(matrix), np.inf))
    index = np.argpartition(masked, k - 1, axis=1)[:, :k]
    order = np.argsort(np.take_along_axis(masked, index, 1), axis=1, kind="stable")
    return np.ascontiguousarray(np.take_along_axis(index, order, 1), dtype=np.int64)


class LocalSearch:
    """2-opt + Or-opt on candidate lists, then iterated local search, in bounded steps (an anytime solver looks
    at its clock between them). ``tour`` is the current tour, changed in place; ``length`` follows it."""

    def __init__(
        self, tour: np.ndarray, costs: TourCosts, neighbours: np.ndarray, window: int = 30, limit: int = MAX_REVERSAL, depth: int = 0
    ) -> None:  # fmt: skip
        self.tour = np.ascontiguousarray(tour, dtype=np.int64).copy()
        self.costs, self.neighbours, self.window, self.limit, self.depth = costs, neighbours, window, limit, depth
        n = len(self.tour)
        self.pos = np.empty(n, dtype=np.int64)
        self.pos[self.tour] = np.arange(n)
        self.queue, self.queued = self.tour.copy(), np.ones(n, dtype=np.bool_)
        self.ring = np.array([0, n], dtype=np.int64)  # every city on the don't-look queue
        self.length = costs.length(self.tour)

    @property
    def at_local_optimum(self) -> bool:
        return bool(self.ring[1] == 0) or len(self.tour) < 8

    def descend(self, max_moves: int) -> None:
        """Up to ``max_moves`` improving 2-opt / Or-opt moves towards a local optimum."""
        if len(self.tour) >= 8:
            c = self.costs
            journal, logged = _no_journal()
            self.length -= _descend(
                self.tour, self.pos, self.queue, self.queued, self.ring, self.neighbours, c.matrix, c.xy, c.rule,
                max_moves, True, self.limit, journal, logged, self.depth,
            )[0]  # fmt: skip
        else:
            self.ring[1] = 0

    def deepen(self, depth: int) -> None:
        """From now on LK-style moves of ``depth`` flips too, every city back on the queue."""
        self.depth = depth
        self.queue[:] = self.tour
        self.queued[:] = True
        self.ring[:] = (0, len(self.tour))

    def kick(self, kicks: int, seed: int) -> None:
        """``kicks`` rounds of iterated local search from the local optimum."""
        c = self.costs
        args = (self.neighbours, c.matrix, c.xy, c.rule, kicks, self.window, seed, self.limit, self.depth)
        self.length -= _iterated(self.tour, self.pos, self.queue, self.queued, self.ring, *args)


def anytime(search: LocalSearch, clock: Clock, seed: int, depth: int = 0, kicks: bool = True) -> Iterator[np.ndarray]:
    """The search's better tours (copies) until the clock runs out: the descent to a local optimum (with ``depth``
    above the search's own, first its own moves, then from that optimum LK-style moves of ``depth`` flips too: a
    descent cut by the clock then leaves no stretch of the first tour untouched), then iterated local search, in
    rounds of about ``ROUND_SECONDS`` of search sized by the search's own time; an improvement is handed over once
    the search since the last handover took ``YIELD_RATIO`` times what that handover cost (a copy checked by the
    harness: about a second at 1M cities), the last one just before the deadline. Without ``kicks`` it ends at the
    (deepened) local optimum."""
    best, steps, round_ = search.length, 1000, 0
    searched, handover = 0.0, 0.0  # search seconds since the last yield; what the last yield cost
    while not clock.expired():
        descending = not search.at_local_optimum
        started = clock.elapsed()
        if descending:
            search.descend(steps)  # to the local optimum first
        else:
            search.kick(steps, seed=seed * 1_000_003 + round_)
            round_ += 1
        took = max(clock.elapsed() - started, 1e-4)  # the search alone: rounds are sized by it
        searched += took
        if search.length < best - 1e-9 and searched >= YIELD_RATIO * handover:
            best, searched = search.length, 0.0
            handed = clock.elapsed()
            yield search.tour.copy()
            handover = clock.elapsed() - handed
        if descending and search.at_local_optimum and depth > search.depth:
            search.deepen(depth)
        elif descending and search.at_local_optimum and not kicks:
            break
        elif descending and search.at_local_optimum:
            steps = 64  # kicks are counted apart from moves
        else:
            steps = int(max(1, min(steps * ROUND_SECONDS / took, 4 * steps, steps * clock.left() / took)))
    if search.length < best - 1e-9:
        yield search.tour.copy()  # the last improvement, within the clock's margin


def two_opt(tour: np.ndarray, costs: TourCosts, neighbours: np.ndarray, max_moves: int = 1 << 62) -> np.ndarray:
    """A 2-opt local optimum reached from ``tour`` (a new array), or the tour after ``max_moves`` moves."""
    result = np.ascontiguousarray(tour, dtype=np.int64).copy()
    if len(result) >= 5:
        _two_opt(result, neighbours, costs.matrix, costs.xy, costs.rule, max_moves)
    return result


def warm_up() -> None:
    """Compile the kernels (or load them from numba's on-disk cache) on 12 random points, for a solver's setup:
    a cold cache otherwise spends seconds of a short run's budget compiling, and a second run with the same seed
    searches more than the first (seen as "not deterministic" in the contract on a fresh clone)."""
    from frontierco.problems import EdgeWeights

    points = np.random.default_rng(0).random((12, 2))
    costs = TourCosts.of(TSPInstance("warm-up", EdgeWeights("EXACT_2D", coords=points)))
    assert costs is not None
    neighbours = candidates(costs, points, 6)
    two_opt(np.arange(12, dtype=np.int64), costs, neighbours)
    for depth in (0, 3):
        search = LocalSearch(np.arange(12, dtype=np.int64), costs, neighbours, depth=depth)
        search.descend(1000)
        search.kick(8, seed=0)
