"""FrontierCO's own comparison on its test sets: per set and time limit, the best learned row against the best
classical row, paired on the instances both ran (the board's gap |f - f*| / max(f, f*), a run without a solution
counting 1)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from frontierco.leaderboard.data import CollectionBoard
from frontierco.manifests import Collection
from frontierco.metrics import Aggregate

PUBLISHER = "FrontierCO"
TIE = 1e-9  # gaps this close are a tie


@dataclass(frozen=True)
class Comparison:
    """One set at one limit: the best classical row, the best learned row, and how they compare instance by instance."""

    collection: str
    time_limit: float
    classical: str
    learned: str
    learned_coverage: int  # instances the learned row ran on
    instances: int  # instances of the board
    classical_gap: float  # mean over the instances both ran
    learned_gap: float
    wins: int  # instances where the learned row's gap is lower
    ties: int
    losses: int

    def cells(self) -> str:
        paired = self.wins + self.ties + self.losses
        difference = 100 * (self.learned_gap - self.classical_gap)
        return (
            f"| {self.collection} | {self.time_limit:g} | {self.classical} | {100 * self.classical_gap:.3f} | {self.learned} "
            f"({self.learned_coverage} of {self.instances}) | {100 * self.learned_gap:.3f} | {difference:+.3f} | {paired} | "
            f"{self.wins} / {self.ties} / {self.losses} |"
        )


HEADER = [
    "| collection | limit s | best classical row | its mean gap % | best learned row (instances) | its mean gap % "
    "| learned - classical (points) | instances paired | learned wins / ties / losses |",
    "|---|---|---|---|---|---|---|---|---|",
]


def _gaps(board: CollectionBoard, row: str, limit: float) -> dict[str, float]:
    """Instance -> the row's mean gap there (over its runs with a reference)."""
    found: dict[str, list[float]] = defaultdict(list)
    for run in board.runs:
        if run.group == (row, limit) and run.gap is not None:
            found[run.record.instance].append(run.gap)
    return {name: float(np.mean(gaps)) for name, gaps in found.items()}


def _best(rows: Iterable[Aggregate], board: CollectionBoard) -> Aggregate | None:
    """The row of the widest coverage, then the lowest mean gap, then the name."""
    ranked = [a for a in rows if a.mean_gap is not None]
    return min(ranked, key=lambda a: (-board.coverage(a), a.mean_gap, a.solver)) if ranked else None


def comparison(board: CollectionBoard, limit: float, learned: set[str] | frozenset[str]) -> Comparison | None:
    """The set's best learned row against its best classical row (one that ran on every instance) at ``limit``;
    None where either is missing or they share no instance."""
    at_limit = [a for a in board.aggregates if a.time_limit == limit]
    classical = _best((a for a in at_limit if board.solver_of(a.solver) not in learned and board.comparable(a)), board)
    machine = _best((a for a in at_limit if board.solver_of(a.solver) in learned), board)
    if classical is None or machine is None:
        return None
    theirs, ours = _gaps(board, classical.solver, limit), _gaps(board, machine.solver, limit)
    shared = sorted(set(theirs) & set(ours))
    if not shared:
        return None
    wins = sum(1 for name in shared if ours[name] < theirs[name] - TIE)
    losses = sum(1 for name in shared if ours[name] > theirs[name] + TIE)
    return Comparison(
        board.collection.name,
        limit,
        classical.solver,
        machine.solver,
        board.coverage(machine),
        board.instances,
        float(np.mean([theirs[name] for name in shared])),
        float(np.mean([ours[name] for name in shared])),
        wins,
        len(shared) - wins - losses,
        losses,
    )


def is_frontierco_set(collection: Collection) -> bool:
    """A collection that lists one of FrontierCO's test sets by its names."""
    published = collection.published_set
    return published is not None and published.name.startswith(PUBLISHER)


def comparisons(boards: list[CollectionBoard], learned: set[str] | frozenset[str]) -> list[Comparison]:
    """Every FrontierCO set's comparison at every limit where both kinds of row ran, by set then limit."""
    found = []
    for board in sorted((b for b in boards if is_frontierco_set(b.collection)), key=lambda b: b.collection.name):
        for limit in sorted({a.time_limit for a in board.aggregates}):
            if (pair := comparison(board, limit, learned)) is not None:
                found.append(pair)
    return found


def comparison_markdown(boards: list[CollectionBoard], learned: set[str] | frozenset[str]) -> list[str]:
    """The table's lines, or one line saying no FrontierCO set has both kinds of row yet ([] without FrontierCO sets)."""
    if not any(is_frontierco_set(board.collection) for board in boards):
        return []
    found = comparisons(boards, learned)
    if not found:
        return ["No FrontierCO set has both a learned row and a classical row on all its instances yet."]
    return HEADER + [pair.cells() for pair in found]
