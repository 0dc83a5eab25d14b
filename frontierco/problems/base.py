"""What every problem shares: the verdict of the independent checker and the problem descriptor."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

Sense = Literal["min", "max"]


@dataclass(frozen=True)
class Evaluation:
    """The checker's verdict on one solution.

    ``objective`` is the value computed here from the instance data (never the solver's own number);
    it is ``None`` when the solution is infeasible, and ``reason`` then says what a person should fix.
    """

    feasible: bool
    objective: float | None
    reason: str = ""

    @classmethod
    def ok(cls, objective: float) -> Evaluation:
        return cls(True, float(objective), "")

    @classmethod
    def infeasible(cls, reason: str) -> Evaluation:
        return cls(False, None, reason)


@dataclass(frozen=True)
class Problem:
    """A combinatorial optimisation problem: its id, direction, data types and checker."""

    name: str
    sense: Sense
    instance_type: type
    solution_type: type
    evaluate: Callable[[Any, Any], Evaluation]
    description: str

    def sense_of(self, instance: Any) -> Sense:
        """The direction for one instance (a MILP states its own; other problems have one)."""
        return getattr(instance, "sense", self.sense)
