"""Which cells of a board are bold and which row leads, decided here once: the markdown pages, the README
excerpt and the HTML site all render this decision (none of them re-derives it from another's output)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from frontierco.leaderboard.data import CollectionBoard
from frontierco.metrics import Aggregate

# The measured columns that can be bold, by their header in the tables (``tables.COLUMNS``): the value a row
# shows there, and whether the lowest value is the best.
MEASURED: dict[str, tuple[Callable[[Aggregate], float | None], bool]] = {
    "feasible %": (lambda a: a.feasible_share, False),
    "optimal": (lambda a: float(a.optimal), False),
    "mean gap %": (lambda a: a.mean_gap, True),
    "score": (lambda a: a.score, False),
    "primal integral": (lambda a: a.primal_integral, True),
    "sgm time s": (lambda a: a.sgm_time, True),
}


@dataclass(frozen=True)
class Ranking:
    """The decision for one board, by row index (the order of ``board.aggregates``)."""

    ranked: frozenset[int]  # the rows that ran on every instance of the board: only they are bold or lead
    best: dict[str, frozenset[int]]  # per measured column, the rows with its best value (none when fewer than two rows are ranked)
    leader: int | None  # the leading row, or None when no ranked row has a mean gap

    def bold(self, column: str, row: int) -> bool:
        return row in self.best.get(column, frozenset())


def _best(aggregates: list[Aggregate], key: Callable[[Aggregate], float | None], lowest: bool, ranked: frozenset[int]) -> frozenset[int]:
    values = [(value, k) for k, a in enumerate(aggregates) if k in ranked and (value := key(a)) is not None]
    if not values:
        return frozenset()
    target = min(v for v, _ in values) if lowest else max(v for v, _ in values)
    return frozenset(k for v, k in values if v == target)


def rank(board: CollectionBoard) -> Ranking:
    """Bold: the best value of each measured column among the rows that ran on every instance of the board
    (ties all bold), when there are at least two such rows; a row on fewer instances is never bold.
    Leader: among those rows with a mean gap, the lowest mean gap, then the lowest primal integral, then the
    lowest shifted geometric mean time, then the name; also when it is the only such row."""
    aggregates = board.aggregates
    ranked = frozenset(k for k, a in enumerate(aggregates) if board.comparable(a))
    best = {
        column: _best(aggregates, key, lowest, ranked) if len(ranked) > 1 else frozenset() for column, (key, lowest) in MEASURED.items()
    }
    scored = [k for k in sorted(ranked) if aggregates[k].mean_gap is not None]

    def order(k: int) -> tuple[float, float, float, str]:
        a = aggregates[k]
        return (a.mean_gap or 0.0, a.primal_integral if a.primal_integral is not None else 1.0, a.sgm_time, a.solver)

    return Ranking(ranked=ranked, best=best, leader=min(scored, key=order) if scored else None)


def leader(board: CollectionBoard) -> Aggregate | None:
    """The leading row of a board (``rank``), or None."""
    k = rank(board).leader
    return None if k is None else board.aggregates[k]
