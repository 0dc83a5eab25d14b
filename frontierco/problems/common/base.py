"""What every problem shares: the verdict of the independent checker and the problem descriptor."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
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
    """A combinatorial optimisation problem and everything about it that is problem-specific, so that a new
    problem is one module: its id, direction, data types and checker; how a solution travels as JSON; how big
    an instance is; its defaults (collection, reference solver, paired baseline, time shift of the shifted
    geometric mean); its solution file format; the tiny cases of the solver contract (``cases``, a
    ``"module:function"`` in its family's ``cases.py``, imported on first use: they call the family's generators);
    the transforms a manifest may apply to an instance it reads (``transform = "complement"``: the independent sets of a
    clique graph); and, where its files round, the objective without the rounding (``unrounded``, recorded beside the
    objective for FrontierCO's scoring)."""

    name: str
    sense: Sense
    instance_type: type
    solution_type: type
    evaluate: Callable[[Any, Any], Evaluation]
    description: str
    to_data: Callable[[Any], dict[str, Any]]  # a solution as JSON-able data
    from_data: Callable[[dict[str, Any]], Any]  # ... and back
    size: Callable[[Any], int]  # nodes (depot included), vertices or columns
    describe: Callable[[Any], str]  # the size in words ("100 nodes")
    default_collection: str
    reference_solver: str  # the strongest solver, for reference values
    baseline: str  # what the leaderboard's paired statistics compare with
    time_shift: float  # seconds, for the shifted geometric mean of times
    solution_suffix: str
    cases: str  # "module:function" of the tiny instances every solver must handle, by name
    transforms: dict[str, Callable[[Any], Any]] = field(default_factory=dict)  # instance -> instance, by name
    size_unit: str | None = None  # what ``size`` counts, on the board's axis of size ("nodes"); None: no size figure
    size_in_name: Callable[[str], int | None] = lambda name: None  # a size that library names carry (kroA100: 100)
    sense_varies: bool = False  # each instance states its own direction (a mixed-integer program): ``sense_of`` must load it
    # a feasible solution's objective with the format's rounding left out, as FrontierCO's evaluator computes it (its
    # routing lengths are unrounded Euclidean); None: the problem has no rounding to leave out
    unrounded: Callable[[Any, Any], float | None] | None = None
    frontierco_folder: str | None = None  # the problem's folder in FrontierCO's data tree (``frontierco instances import``)
    frontierco_transform: str | None = None  # one of ``transforms``: how FrontierCO's own loader reads its files
    # a smaller stored form of a best solution's data that needs the instance to read back (long tours on coordinates
    # as neighbour ranks), or None where the plain form is kept; ``expand`` reads it back (other data unchanged)
    compact: Callable[[Any, dict[str, Any]], dict[str, Any] | None] | None = None
    expand: Callable[[Any, dict[str, Any]], dict[str, Any]] | None = None

    def contract_cases(self) -> dict[str, Callable[[], Any]]:
        """The tiny instances every solver must handle, by name, each built on call."""
        cases: dict[str, Callable[[], Any]] = resolve(self.cases)()
        return cases

    def sense_of(self, instance: Any) -> Sense:
        """The direction for one instance (an instance may state its own; most problems have one)."""
        return getattr(instance, "sense", self.sense)

    def encode(self, solution: object) -> dict[str, Any]:
        """JSON-able form of a solution; a wrong type is a TypeError naming both."""
        if not isinstance(solution, self.solution_type):
            raise TypeError(f"yielded a {type(solution).__name__}, not a {self.solution_type.__name__}")
        return self.to_data(solution)

    def stored_form(self, instance: Any, data: dict[str, Any]) -> dict[str, Any]:
        """The form in which the store keeps a best solution's data: ``compact``'s where it has one, else ``data``."""
        packed = self.compact(instance, data) if self.compact is not None else None
        return data if packed is None else packed

    def read_stored(self, instance: Any, data: dict[str, Any]) -> Any:
        """The solution a stored form holds (``expand`` first, then ``decode``); malformed data is a ValueError."""
        if self.expand is not None:
            try:
                data = self.expand(instance, data)
            except (KeyError, TypeError, ValueError, RecursionError) as exc:
                raise ValueError(f"not a {self.name} solution: {exc}") from None
        return self.decode(data)

    def decode(self, data: dict[str, Any]) -> Any:
        """The solution ``encode`` wrote; malformed data (nested too deeply to walk, or a number past its type, included)
        is a ValueError."""
        try:
            return self.from_data(data)
        except (KeyError, TypeError, ValueError, OverflowError, RecursionError) as exc:
            raise ValueError(f"not a {self.name} solution: {exc}") from None


def resolve(target: str) -> Callable[..., Any]:
    """The function a ``"module:function"`` declaration names, its module imported on first use."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)
