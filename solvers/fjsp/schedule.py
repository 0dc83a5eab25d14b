"""Dispatching rules and a critical-path local search for the flexible job shop (plain Python).

A schedule is held as a machine per operation and the order of the operations on each machine; its start
times are the earliest the job order and the machine orders allow (longest paths in the disjunctive graph).
"""

from __future__ import annotations

import bisect
import heapq
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from frontierco.problems.fjsp.fjsp import FJSPInstance


@dataclass
class Shop:
    """The instance as plain lists: ``options[o]`` maps each eligible machine of operation o to its time."""

    options: list[dict[int, int]]
    job_prev: list[int]  # the operation before o in its job, or -1
    job_next: list[int]
    num_machines: int
    work_left: list[float]  # mean-time work of o and the rest of its job

    @classmethod
    def of(cls, instance: FJSPInstance) -> Shop:
        n = instance.num_operations
        options = [dict(zip(*(a.tolist() for a in instance.options(o)), strict=True)) for o in range(n)]
        job_prev, job_next, work_left = [-1] * n, [-1] * n, [0.0] * n
        for j in range(instance.num_jobs):
            first, last = int(instance.job_ptr[j]), int(instance.job_ptr[j + 1])
            after = 0.0
            for o in range(last - 1, first - 1, -1):
                after += sum(options[o].values()) / len(options[o])
                work_left[o] = after
                job_prev[o] = o - 1 if o > first else -1
                job_next[o] = o + 1 if o < last - 1 else -1
        return cls(options, job_prev, job_next, instance.num_machines, work_left)

    @property
    def size(self) -> int:
        return len(self.options)

    def restricted(self, assign: list[int]) -> Shop:
        """The same shop with each operation o allowed only on machine ``assign[o]``."""
        options = [{m: self.options[o][m]} for o, m in enumerate(assign)]
        work_left = [0.0] * self.size
        for o in range(self.size - 1, -1, -1):
            after = self.job_next[o]
            work_left[o] = options[o][assign[o]] + (work_left[after] if after != -1 else 0.0)
        return Shop(options, self.job_prev, self.job_next, self.num_machines, work_left)


@dataclass
class Schedule:
    """Machine of each operation, operations of each machine in order, and the resulting start times."""

    assign: list[int]
    sequences: list[list[int]]
    starts: list[int]
    makespan: int


Move = tuple[int, str, int, int, int]  # (estimated makespan, 'swap' or 'move', operation, operation or machine, position)


def _earliest_slot(busy: list[tuple[int, int, int]], ready: int, length: int) -> tuple[int, int]:
    """(start, index) of the earliest gap of ``length`` at or after ``ready`` among a machine's sorted
    (start, end, operation) intervals."""
    at = ready
    for index, (start, end, _) in enumerate(busy):
        if end <= at:
            continue
        if start >= at + length:
            return at, index
        at = max(at, end)
    return at, len(busy)


def dispatch(shop: Shop, rule: str = "mwkr", rng: random.Random | None = None) -> Schedule:
    """List scheduling. 'mwkr': the next operation of the job with the most work remaining, on the machine
    where it finishes first, in the earliest idle gap that fits (later choices fill the gaps of earlier ones);
    'eft': the ready operation and machine that finish first when appended to the machine. ``rng`` breaks ties."""
    n = shop.size
    busy: list[list[tuple[int, int, int]]] = [[] for _ in range(shop.num_machines)]
    assign, starts, ready = [0] * n, [0] * n, {}
    for o in range(n):
        if shop.job_prev[o] == -1:
            ready[o] = 0

    def best_machine(o: int) -> tuple[int, int, int, int]:
        choices = []
        for m, t in shop.options[o].items():
            start, index = _earliest_slot(busy[m], ready[o], t)
            choices.append((start + t, t, m, index))
        return min(choices)

    def appended(o: int) -> tuple[int, int, int, int]:
        return min((max(ready[o], busy[m][-1][1] if busy[m] else 0) + t, t, m, len(busy[m])) for m, t in shop.options[o].items())

    while ready:
        noise = (lambda: rng.random()) if rng is not None else (lambda: 0.0)
        if rule == "mwkr":
            o = max(ready, key=lambda op: (shop.work_left[op] * (1.0 + 0.1 * noise()), -op))
            finish, _, machine, index = best_machine(o)
        else:
            o, (finish, _, machine, index) = min(
                ((op, appended(op)) for op in ready), key=lambda c: (c[1][0] + noise(), -shop.work_left[c[0]])
            )
        length = shop.options[o][machine]
        start = finish - length
        busy[machine].insert(index, (start, finish, o))
        assign[o], starts[o] = machine, start
        del ready[o]
        if shop.job_next[o] != -1:
            ready[shop.job_next[o]] = finish
    sequences = [[o for _, _, o in line] for line in busy]
    return Schedule(assign, sequences, starts, max(s + shop.options[o][assign[o]] for o, s in enumerate(starts)))


def timing(shop: Shop, assign: list[int], sequences: list[list[int]]) -> tuple[list[int], list[int]] | None:
    """Earliest start times for these machine orders and the operation each start waits for (-1: none), or
    None when the orders contradict the job orders (a cycle)."""
    n = shop.size
    machine_prev = [-1] * n
    machine_next = [-1] * n
    for line in sequences:
        for a, b in zip(line, line[1:], strict=False):
            machine_prev[b], machine_next[a] = a, b
    waiting = [(shop.job_prev[o] != -1) + (machine_prev[o] != -1) for o in range(n)]
    stack = [o for o in range(n) if not waiting[o]]
    starts, cause, ends = [0] * n, [-1] * n, [0] * n
    done = 0
    while stack:
        o = stack.pop()
        done += 1
        ends[o] = starts[o] + shop.options[o][assign[o]]
        for after in (shop.job_next[o], machine_next[o]):
            if after != -1:
                if ends[o] > starts[after] or cause[after] == -1:
                    starts[after], cause[after] = ends[o], o
                waiting[after] -= 1
                if not waiting[after]:
                    stack.append(after)
    return (starts, cause) if done == n else None


def critical_path(shop: Shop, assign: list[int], starts: list[int], cause: list[int]) -> list[int]:
    """The operations of a longest path, in order (each waits for the one before it)."""
    ends = [s + shop.options[o][assign[o]] for o, s in enumerate(starts)]
    o = max(range(shop.size), key=lambda k: ends[k])
    path = []
    while o != -1:
        path.append(o)
        o = cause[o] if starts[o] > 0 else -1
    return path[::-1]


def _analyse(shop: Shop, schedule: Schedule) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """Heads (earliest starts), tails (longest path from an operation's end to the end of the schedule), the
    machine neighbours of each operation and each operation's current length."""
    n = shop.size
    lengths = [shop.options[o][schedule.assign[o]] for o in range(n)]
    machine_prev, machine_next = [-1] * n, [-1] * n
    for line in schedule.sequences:
        for a, b in zip(line, line[1:], strict=False):
            machine_prev[b], machine_next[a] = a, b
    waiting = [(shop.job_prev[o] != -1) + (machine_prev[o] != -1) for o in range(n)]
    stack = [o for o in range(n) if not waiting[o]]
    heads, order = [0] * n, []
    while stack:
        o = stack.pop()
        order.append(o)
        end = heads[o] + lengths[o]
        for after in (shop.job_next[o], machine_next[o]):
            if after != -1:
                if end > heads[after]:
                    heads[after] = end
                waiting[after] -= 1
                if not waiting[after]:
                    stack.append(after)
    tails = [0] * n
    for o in reversed(order):
        tail = 0
        for after in (shop.job_next[o], machine_next[o]):
            if after != -1 and tails[after] + lengths[after] > tail:
                tail = tails[after] + lengths[after]
        tails[o] = tail
    return heads, tails, machine_prev, machine_next, lengths


def _retimed(shop: Shop, assign: list[int], sequences: list[list[int]]) -> Schedule | None:
    timed = timing(shop, assign, sequences)
    if timed is None:
        return None
    starts = timed[0]
    return Schedule(assign, sequences, starts, max(s + shop.options[o][assign[o]] for o, s in enumerate(starts)))


def _candidates(shop: Shop, schedule: Schedule, rng: random.Random | None = None, sample: int | None = None) -> list[Move]:
    """Moves around the critical operations (``sample`` of them drawn by ``rng`` where there are more) with
    their estimated makespans (heads and tails as they are now): (estimate, 'swap', u, v, 0) exchanges
    adjacent critical u, v of one machine; (estimate, 'move', o, machine, position) puts critical o on
    another eligible machine (or elsewhere on its own) at a position that cannot close a cycle."""
    heads, tails, machine_prev, machine_next, lengths = _analyse(shop, schedule)
    makespan = schedule.makespan
    critical = [o for o in range(shop.size) if heads[o] + lengths[o] + tails[o] == makespan]
    if rng is not None and sample is not None and len(critical) > sample:
        critical = rng.sample(critical, sample)
    job_prev, job_next, options = shop.job_prev, shop.job_next, shop.options

    def end(o: int) -> int:
        return heads[o] + lengths[o] if o != -1 else 0

    def tail_in(o: int) -> int:  # what o's start delays: o and all after it
        return lengths[o] + tails[o] if o != -1 else 0

    moves: list[Move] = []
    for u in critical:
        v = machine_next[u]
        if v != -1 and heads[v] == heads[u] + lengths[u] and heads[v] + lengths[v] + tails[v] == makespan:
            before, after = machine_prev[u], machine_next[v]
            start_v = max(end(job_prev[v]), end(before))
            start_u = max(end(job_prev[u]), start_v + lengths[v])
            tail_u = max(tail_in(job_next[u]), tail_in(after))
            tail_v = max(tail_in(job_next[v]), lengths[u] + tail_u)
            moves.append((max(start_v + lengths[v] + tail_v, start_u + lengths[u] + tail_u), "swap", u, v, 0))
        ready, rest = end(job_prev[u]), tail_in(job_next[u])
        earliest_next = heads[job_next[u]] if job_next[u] != -1 else 1 << 62
        latest_prev_end = end(job_prev[u])
        for machine, length in options[u].items():
            line = schedule.sequences[machine]  # heads and ends rise along a machine's order
            first = bisect.bisect_right(line, latest_prev_end, key=end)  # b must not end before u's job predecessor
            last = bisect.bisect_left(line, earliest_next, key=lambda o: heads[o])  # a must start before its successor
            cross = bisect.bisect_left(line, ready, key=end)  # where the machine frees up as u's job does
            for k in range(max(first, cross - 1), min(last, cross + 2) + 1):
                a = line[k - 1] if k else -1
                b = line[k] if k < len(line) else -1
                if a == u or b == u or (a != -1 and heads[a] >= earliest_next) or (b != -1 and end(b) <= latest_prev_end):
                    continue
                moves.append((max(ready, end(a)) + length + max(rest, tail_in(b)), "move", u, machine, k))
    return moves


def _apply(schedule: Schedule, kind: str, x: int, y: int, k: int) -> tuple[list[int], list[list[int]]]:
    sequences = list(schedule.sequences)
    assign = schedule.assign
    if kind == "swap":
        line = list(sequences[assign[x]])
        i = line.index(x)
        line[i], line[i + 1] = line[i + 1], line[i]
        sequences[assign[x]] = line
        return assign, sequences
    old = list(sequences[assign[x]])
    at = old.index(x)
    old.remove(x)
    sequences[assign[x]] = old
    target = list(sequences[y])
    target.insert(k - 1 if y == assign[x] and k > at else k, x)
    sequences[y] = target
    assign = list(assign)
    assign[x] = y
    return assign, sequences


def _ascending(moves: list[Move], noise: dict[int, float], few: int = 8) -> Iterator[Move]:
    """``moves`` by ascending estimate, ties by ``noise`` (by the move's id), the first ``few`` found without
    sorting them all."""

    def key(move: Move) -> tuple[int, float]:
        return move[0], noise[id(move)]

    yield from heapq.nsmallest(few, moves, key=key)
    if len(moves) > few:
        yield from sorted(moves, key=key)[few:]


def improve(
    shop: Shop,
    schedule: Schedule,
    deadline: float,
    seed: int = 0,
    patience: int = 5000,
    steps: int | None = None,
    sample: int | None = None,
) -> Iterator[Schedule]:
    """Tabu search over the critical-path moves (after Mastrolilli and Gambardella 2000): each step takes the
    move of best estimated makespan that is not tabu (or beats the best schedule), checked exactly on the
    few best estimates; a moved operation may not go back to its machine, nor a swapped pair swap back, for
    a tenure drawn from the seed. Each step looks at the moves of ``sample`` critical operations drawn from
    the seed where there are more (all when None). Yields every new best schedule; stops at ``deadline``
    (time.monotonic), after ``patience`` steps without a new best, or after ``steps`` steps in all."""
    rng = random.Random(seed)
    best = current = schedule
    tabu: dict[tuple[str, int, int], int] = {}
    step = stale = 0
    while time.monotonic() < deadline and stale < patience and (steps is None or step < steps):
        step += 1
        stale += 1
        moves = _candidates(shop, current, rng, sample)
        noise = {id(m): rng.random() for m in moves}
        chosen: tuple[Schedule, str, int, int] | None = None
        tried = 0
        for estimate, kind, x, y, k in _ascending(moves, noise):
            if tabu.get((kind, x, y), 0) >= step and estimate >= best.makespan:
                continue
            found = _retimed(shop, *_apply(current, kind, x, y, k))
            if found is None:
                continue
            tried += 1
            if chosen is None or found.makespan < chosen[0].makespan:
                chosen = (found, kind, x, y)
            if tried >= 3 or found.makespan < current.makespan:
                break
        if chosen is None:
            return
        found, kind, x, y = chosen
        reverse = ("swap", y, x) if kind == "swap" else ("move", x, current.assign[x])
        tabu[reverse] = step + rng.randint(5, 15)
        current = found
        if current.makespan < best.makespan:
            best, stale = current, 0
            yield best


def best_dispatch(shop: Shop, deadline: float, seed: int = 0) -> Iterator[Schedule]:
    """The rules in turn (most work remaining, earliest finish, then randomised tie-breaks of both until
    ``deadline`` or 8 tries), yielding each schedule better than the ones before."""
    rng = random.Random(seed)
    best: Schedule | None = None
    tries = [("mwkr", None), ("eft", None)] + [(rule, rng) for _ in range(3) for rule in ("mwkr", "eft")]
    for k, (rule, noise) in enumerate(tries):
        if k and time.monotonic() >= deadline:
            return
        schedule = dispatch(shop, rule, noise)
        if best is None or schedule.makespan < best.makespan:
            best = schedule
            yield schedule


def lower_bound(shop: Shop) -> int:
    """A makespan no schedule can beat: the longest job at its shortest times, and the total shortest work
    spread over all machines."""
    job_bound, run = 0, 0
    for o in range(shop.size):
        run = (run if shop.job_prev[o] != -1 else 0) + min(shop.options[o].values())
        job_bound = max(job_bound, run)
    total = sum(min(option.values()) for option in shop.options)
    return max(job_bound, -(-total // shop.num_machines))
