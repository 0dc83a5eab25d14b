"""The CP-SAT interval model of the flexible job shop, whole or as a neighbourhood of a schedule.

Whole: an optional interval per (operation, eligible machine), exactly one present per operation, no overlap
per machine, job order, makespan minimised. Neighbourhood (large neighbourhood search): the operations of a
time window are free as in the whole model; those that end before the window are fixed (they only delay
their machine and job); all others keep their machine and their order on it but may move in time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .schedule import Schedule, Shop, timing


@dataclass
class Model:
    """A built model and what reads a schedule back from a solution."""

    model: Any
    makespan: Any
    starts: dict[int, Any]  # operation -> start variable (the operations the model holds)
    presences: dict[int, dict[int, Any]]  # free operation -> machine -> presence literal


def build(shop: Shop, hint: Schedule, free: set[int] | None = None, before: float = 0.0) -> Model:
    """The whole model (``free`` None) or the neighbourhood of ``hint`` freeing ``free``; operations of hint
    that end by ``before`` and are not free are fixed. The horizon is the hint's makespan."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    horizon = hint.makespan
    ends_at = [s + shop.options[o][hint.assign[o]] for o, s in enumerate(hint.starts)]
    fixed = set() if free is None else {o for o in range(shop.size) if o not in free and ends_at[o] <= before}
    release = [0] * shop.num_machines
    for o in fixed:
        release[hint.assign[o]] = max(release[hint.assign[o]], ends_at[o])
    starts: dict[int, Any] = {}
    ends: dict[int, Any] = {}
    presences: dict[int, dict[int, Any]] = {}
    intervals: list[list[Any]] = [[] for _ in range(shop.num_machines)]
    makespan = model.new_int_var(0, horizon, "makespan")
    for o, options in enumerate(shop.options):
        if o in fixed:
            continue
        allowed = options if free is None or o in free else {hint.assign[o]: options[hint.assign[o]]}
        low = min(release[m] for m in allowed)
        shortest = min(allowed.values())
        start = model.new_int_var(low, max(low, horizon - shortest), f"s{o}")
        end = model.new_int_var(low + shortest, max(low + shortest, horizon), f"e{o}")
        if len(allowed) == 1:
            ((machine, length),) = allowed.items()
            intervals[machine].append(model.new_interval_var(start, length, end, f"i{o}"))
            model.add(start >= release[machine])
        else:
            chosen = {}
            for machine, length in allowed.items():
                present = model.new_bool_var(f"x{o}_{machine}")
                intervals[machine].append(model.new_optional_interval_var(start, length, end, present, f"i{o}_{machine}"))
                model.add(start >= release[machine]).only_enforce_if(present)
                model.add_hint(present, int(hint.assign[o] == machine))
                chosen[machine] = present
            model.add_exactly_one(chosen.values())
            presences[o] = chosen
        model.add_hint(start, hint.starts[o])
        model.add_hint(end, ends_at[o])
        starts[o], ends[o] = start, end
        before_o = shop.job_prev[o]
        if before_o != -1:
            if before_o in fixed:
                model.add(start >= ends_at[before_o])
            else:
                model.add(start >= ends[before_o])
        if shop.job_next[o] == -1:
            model.add(makespan >= end)
    if free is not None:  # the kept operations keep their order on their machine
        for line in hint.sequences:
            kept = [o for o in line if o in starts and o not in free]
            for a, b in zip(kept, kept[1:], strict=False):
                model.add(starts[b] >= ends[a])
    for on_machine in intervals:
        if len(on_machine) > 1:
            model.add_no_overlap(on_machine)
    model.add_hint(makespan, hint.makespan)
    if free is None:
        model.minimize(makespan)
    else:  # the makespan first, then the free operations as early as they can be (a tighter window helps the next)
        model.minimize(makespan * (len(free) * horizon + 1) + sum(ends[o] for o in free))
    return Model(model, makespan, starts, presences)


def read_back(shop: Shop, hint: Schedule, built: Model, value: Any) -> Schedule:
    """The schedule of a solution (``value`` reads a variable), machine orders by start time, retimed."""
    assign = list(hint.assign)
    start_of = list(hint.starts)
    for o, chosen in built.presences.items():
        assign[o] = next(m for m, x in chosen.items() if value(x))
    for o, start in built.starts.items():
        start_of[o] = value(start)
    sequences: list[list[int]] = [[] for _ in range(shop.num_machines)]
    for o in sorted(range(shop.size), key=lambda k: (start_of[k], start_of[k] + shop.options[k][assign[k]])):
        sequences[assign[o]].append(o)
    timed = timing(shop, assign, sequences)
    assert timed is not None, "a CP-SAT solution has no cycle"
    starts = timed[0]
    return Schedule(assign, sequences, starts, max(s + shop.options[o][assign[o]] for o, s in enumerate(starts)))


def window(shop: Shop, schedule: Schedule, size: int, rng: random.Random, critical: list[int]) -> tuple[set[int], float]:
    """The ``size`` operations whose starts are nearest the start of a random critical operation (the
    window), and the window's start."""
    centre = schedule.starts[rng.choice(critical)]
    nearest = sorted(range(shop.size), key=lambda o: abs(schedule.starts[o] - centre))[:size]
    return set(nearest), float(min(schedule.starts[o] for o in nearest))
