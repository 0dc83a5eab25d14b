"""The parameters a solver declares: name, type, default and help, read without importing the solver.

A solver folder declares them in ``solver.toml`` beside its ``solver.py``, one table per parameter::

    [params.pomo]
    type = "int"
    default = 100
    help = "rollouts per pass"

    [params.candidates]   # only some solvers of the folder take it
    type = "int"
    default = 40
    solvers = ["rrnco-ls"]

A solver of another package (an entry point) declares the same tables as its class attribute ``parameters``.
Types: ``int``, ``float`` (finite; an integer is taken too), ``bool``, ``str``, ``path`` (a string naming a file or
folder), ``list[str]``, or a union of them (``int|str``); the strings may be limited to ``choices``. A run with a parameter the
solver does not declare, or a value of the wrong type, is refused in one line before anything runs (a typo
would otherwise become a leaderboard row of its own). Planning fills in the defaults (``SolverSpec.full_params``),
so a run's record holds its full parameter set, and a solver built directly (``Solver.__init__``) gets them too;
the run id and the leaderboard's row name count only the values that differ from the default, so a default given
and one left out are one run. A parameter declared without a default is absent unless given (its default depends on
the run, e.g. the problem's example file). Changing a default changes what a run does: raise the solver's version.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from frontierco.errors import UsageError, check_keys
from frontierco.names import BadName, check_name

SOLVER_FILE = "solver.toml"
TYPES = ("int", "float", "bool", "str", "path", "list[str]")
PARAM_KEYS = ("type", "default", "help", "choices", "solvers")


def _known_type(kind: object) -> bool:
    return isinstance(kind, str) and all(part in TYPES for part in kind.split("|"))


def _fits(kind: str, value: object) -> bool:
    """Whether ``value`` (as TOML or ``--param`` reads it) is of the declared type (one of a union's)."""
    if "|" in kind:
        return any(_fits(part, value) for part in kind.split("|"))
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":  # a finite number: TOML's inf and nan are no setting
        return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind in ("str", "path"):
        return isinstance(value, str)
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


@dataclass(frozen=True)
class Param:
    """One declared parameter; ``solvers`` limits it to some solvers of the folder (empty: all of them)."""

    name: str
    type: str
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] = ()
    solvers: tuple[str, ...] = ()

    def applies_to(self, solver: str) -> bool:
        return not self.solvers or solver in self.solvers

    def problem_with(self, value: object) -> str:
        """'' when ``value`` is a valid value of this parameter, else why not."""
        if not _fits(self.type, value):
            return f"{self.name} must be {self.type}, not {value!r}"
        items = value if isinstance(value, list) else [value]
        wrong = [item for item in items if self.choices and isinstance(item, str) and item not in self.choices]
        if wrong:
            return f"{self.name} must be {'some of' if isinstance(value, list) else 'one of'} {', '.join(self.choices)}, not {value!r}"
        return ""

    def describe(self) -> str:
        """'pomo (int, default 100): rollouts per pass'."""
        default = "" if self.default is None else f", default {self.default!r}"
        which = "some" if self.type == "list[str]" else "a string one" if "|" in self.type else "one"
        choices = f", {which} of {', '.join(self.choices)}" if self.choices else ""
        return f"{self.name} ({self.type}{default}{choices})" + (f": {self.help}" if self.help else "")


def _string_tuple(value: object, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise UsageError(f"{where}: {key} must be a list of strings")
    return tuple(value)


def parse_param(name: str, raw: object, where: str) -> Param:
    """One ``[params.NAME]`` table; any mistake is one UsageError line naming ``where``."""
    try:
        check_name(name, "parameter name")
    except BadName as exc:
        raise UsageError(f"{where}: {exc}") from None
    if not isinstance(raw, Mapping):
        raise UsageError(f"{where}: params.{name} must be a table with a type")
    check_keys(raw, PARAM_KEYS, f"{where} params.{name}")
    kind = raw.get("type")
    if not _known_type(kind):
        raise UsageError(f"{where}: params.{name} needs a type: {', '.join(TYPES)} or a union of them (int|str)")
    choices = _string_tuple(raw.get("choices", []), where, f"params.{name}.choices")
    solvers = _string_tuple(raw.get("solvers", []), where, f"params.{name}.solvers")
    param = Param(name, str(kind), raw.get("default"), str(raw.get("help", "")), choices, solvers)
    if param.default is not None and param.problem_with(param.default):
        raise UsageError(f"{where}: the default of {param.problem_with(param.default)}")
    return param


def parse_params_table(table: object, where: str) -> tuple[Param, ...]:
    """The parameters of a ``params`` table (of ``solver.toml`` or a class's ``parameters``)."""
    if not isinstance(table, Mapping):
        raise UsageError(f"{where}: params must be a table of tables ([params.NAME])")
    return tuple(parse_param(str(name), raw, where) for name, raw in table.items())


def read_solver_file(folder: Path) -> tuple[Param, ...]:
    """The parameters declared by a solver folder's ``solver.toml`` (none when it has no such file)."""
    path = folder / SOLVER_FILE
    if not path.is_file():
        return ()
    try:
        data = tomllib.loads(path.read_text())
    except (ValueError, RecursionError) as exc:  # (TOMLDecodeError; an integer past 4,300 digits; nesting past the stack)
        raise UsageError(f"{path}: not valid TOML ({exc})") from None
    check_keys(data, ("params",), str(path))
    return parse_params_table(data.get("params", {}), str(path))


def check_values(solver: str, declared: tuple[Param, ...], params: Mapping[str, object]) -> None:
    """Refuse, in one line, a parameter ``solver`` does not declare or a value of the wrong type."""
    known = {p.name: p for p in declared if p.applies_to(solver)}
    unknown = sorted(set(params) - set(known))
    if unknown:
        takes = f"it takes {', '.join(sorted(known))}" if known else "it takes none"
        raise UsageError(f"solver {solver} has no parameter {', '.join(unknown)}; {takes} (see 'frontierco solvers {solver}')")
    for name, value in sorted(params.items()):
        problem = known[name].problem_with(value)
        if problem:
            raise UsageError(f"solver {solver}: {problem}")
