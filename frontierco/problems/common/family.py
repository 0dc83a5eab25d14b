"""What a problem family declares about itself, as data, in its folder's ``__init__``: its problems, the readers of its
instance files by suffix, the writer of each problem's natural format, each problem's solution file, its seeded
generators, its layouts of FrontierCO's shared ``.txt`` suffix and the MILP forms of its problems. Functions are named
``"module:function"`` and imported only when a file or instance of that kind is met, so that declaring a family
costs nothing and a problem's module never imports its formats."""

from __future__ import annotations

from dataclasses import dataclass, field

from frontierco.problems.common.base import Problem
from frontierco.problems.common.generator import Generator


@dataclass(frozen=True)
class Writer:
    """How a problem's instances are written: ``suffix(instance)`` names the natural format, ``write(path,
    instance)`` writes it."""

    suffix: str
    write: str


@dataclass(frozen=True)
class SolutionFile:
    """How a problem's solutions are written, ``write(path, instance, solution, objective)``, and read back,
    ``read(path, instance)``; the suffix is the problem's ``solution_suffix``."""

    write: str
    read: str


@dataclass(frozen=True)
class TextForm:
    """One layout of FrontierCO's ``.txt`` files, which several problems share, or of a file without a suffix the
    suite knows (FrontierCO's ``E10k.0``): ``keywords`` are phrases one of which opens the first line that is not a
    comment (a ``c`` line; case and a ``:`` after the first word ignored: ``NAME``, ``p ds``), and they alone decide a
    file without a known suffix; ``first_lines`` are the token counts of the first non-blank lines that tell a ``.txt``
    layout apart. A form with neither is the layout read when no other matches, whose reader names the line that is
    wrong."""

    reader: str
    first_lines: tuple[int, ...] | None
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class MilpForm:
    """A problem written as a MILP, for the solvers that take one: ``model(instance) -> MILPInstance`` and
    ``solution(instance, column values)`` back."""

    model: str
    solution: str


@dataclass(frozen=True)
class Family:
    """A folder of problems and everything about their files and instances the rest of the suite looks up."""

    problems: tuple[Problem, ...]
    readers: dict[str, str]  # file suffix -> reader(path) -> instance
    writers: dict[str, Writer]  # problem id -> its natural instance format
    solution_files: dict[str, SolutionFile]  # problem id -> its solution file
    generators: tuple[Generator, ...]
    text_forms: tuple[TextForm, ...] = ()
    milp_forms: dict[str, MilpForm] = field(default_factory=dict)  # problem id -> its MILP form
