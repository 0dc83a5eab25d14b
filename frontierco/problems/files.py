"""Read any supported instance file, and read or write solutions in each format's own form.

The problem follows from the file: its suffix names a family's reader (a reader may look inside, as the routing
libraries' TYPE line does). Each family declares
its readers, writers and solution files (``Family`` in ``common/family.py``); this module looks them up. FrontierCO's
``.txt`` suffix is shared by the layouts of several problems: the words that open a file (``p ds``, a routing
library's ``NAME``), else the token counts of its first non-blank lines, tell them apart, as each family's ``text_forms``
declare; the opening words also decide a file whose suffix the suite does not know (FrontierCO's ``E10k.0``).
"""

from __future__ import annotations

from pathlib import Path

from frontierco.errors import FormatError
from frontierco.problems import FAMILIES, Instance, Solution, problem_of
from frontierco.problems.common.base import resolve
from frontierco.problems.common.family import SolutionFile, TextForm, Writer
from frontierco.problems.common.text import base_suffix, open_text
from frontierco.problems.common.tokens import fields

READERS: dict[str, str] = {suffix: reader for family in FAMILIES for suffix, reader in family.readers.items()}
WRITERS: dict[str, Writer] = {problem: writer for family in FAMILIES for problem, writer in family.writers.items()}
SOLUTION_FILES: dict[str, SolutionFile] = {problem: file for family in FAMILIES for problem, file in family.solution_files.items()}
TEXT_FORMS: tuple[TextForm, ...] = tuple(form for family in FAMILIES for form in family.text_forms)
INSTANCE_SUFFIXES = (*READERS, ".txt")


def _first_lines(path: Path, count: int) -> list[list[str]]:
    """The tokens of the first ``count`` non-blank lines (fewer if the file has fewer; none if it cannot be read:
    then the chosen reader reports why)."""
    found: list[list[str]] = []
    try:
        with open_text(path) as handle:
            for raw in handle:
                if raw.strip():
                    found.append(fields(raw))
                    if len(found) == count:
                        break
    except (OSError, EOFError, UnicodeDecodeError, ValueError):
        return []
    return found


def _opening(path: Path) -> list[str]:
    """The tokens of the first non-blank line that is not a comment (``c ...``), among the first ``OPENING_LINES``;
    the first word without a trailing ``:`` and every word in lower case."""
    for tokens in _first_lines(path, OPENING_LINES):
        if tokens[0] != "c":
            return [tokens[0].removesuffix(":").lower(), *(token.lower() for token in tokens[1:])]
    return []


OPENING_LINES = 1000  # comment lines looked past for a file's opening words


def keyed_form(path: str | Path) -> TextForm | None:
    """The form whose keywords open the file, None when none does."""
    opening = _opening(Path(path))
    for form in TEXT_FORMS:
        if any(opening[: len(words)] == words for words in (keyword.lower().split() for keyword in form.keywords)):
            return form
    return None


def text_form(path: str | Path) -> TextForm:
    """The layout of a ``.txt`` file: the first whose keywords open it, else the first whose leading token counts
    match, else the fallback layout."""
    keyed = keyed_form(path)
    if keyed is not None:
        return keyed
    shapes = [form.first_lines for form in TEXT_FORMS if form.first_lines is not None]
    lines = _first_lines(Path(path), max(map(len, shapes), default=0))
    counts = tuple(len(tokens) for tokens in lines)
    for form in TEXT_FORMS:
        if form.first_lines is not None and counts[: len(form.first_lines)] == form.first_lines:
            return form
    return next(form for form in TEXT_FORMS if form.first_lines is None and not form.keywords)


def read_instance(path: str | Path) -> Instance:
    """Read an instance file of any supported format; unknown or malformed files raise FormatError. A ``.txt`` file's
    layout, and the format of a file whose suffix the suite does not know (FrontierCO's ``E10k.0``), are decided by
    its content (``TextForm``)."""
    path = Path(path)
    suffix = base_suffix(path)
    if suffix == ".txt":
        reader = text_form(path).reader
    elif suffix in READERS:
        reader = READERS[suffix]
    elif (keyed := keyed_form(path)) is not None:
        reader = keyed.reader
    else:
        raise FormatError(path, 0, f"a file ending in one of {', '.join(INSTANCE_SUFFIXES)}, or opening as one of them does")
    instance: Instance = resolve(reader)(path)
    return instance


def _writer(instance: Instance) -> Writer:
    problem = problem_of(instance)
    if problem.name not in WRITERS:
        raise TypeError(f"no instance writer for {problem.name}")
    return WRITERS[problem.name]


def write_instance(path: str | Path, instance: Instance) -> None:
    """Write an instance in its natural format (its family's ``writers``)."""
    resolve(_writer(instance).write)(path, instance)


def natural_suffix(instance: Instance) -> str:
    """The file suffix ``write_instance`` uses for this instance."""
    return str(resolve(_writer(instance).suffix)(instance))


def _solution_file(instance: Instance) -> SolutionFile:
    problem = problem_of(instance)
    if problem.name not in SOLUTION_FILES:
        raise TypeError(f"no solution file for {problem.name}")
    return SOLUTION_FILES[problem.name]


def write_solution(path: str | Path, instance: Instance, solution: Solution, objective: float | None = None) -> None:
    """Write a solution in its problem's own form (``SOLUTION_FILES``, as its family declares)."""
    problem = problem_of(instance)
    if not isinstance(solution, problem.solution_type):
        raise TypeError(f"cannot write a {type(solution).__name__} for a {problem.name} instance")
    resolve(_solution_file(instance).write)(Path(path), instance, solution, objective)


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """Read a solution for ``instance`` in the form ``write_solution`` writes (some readers take more forms)."""
    solution: Solution = resolve(_solution_file(instance).read)(Path(path), instance)
    return solution
