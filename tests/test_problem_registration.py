"""Issue 39's claim, kept true: a problem is named only inside its family's folder (``problems/<family>/``), and the
rest of the package reaches it through the registry (``problems/__init__.py``: one line per family, its types in the
two unions) and the declarations each family makes of itself. The solver toolkit (``kit/``) is the exception by
design: its modules are methods for named problems (a tour search, a route search), as the solvers are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import frontierco
from frontierco.problems import FAMILIES, PROBLEMS
from frontierco.problems.files import READERS, SOLUTION_FILES, TEXT_FORMS, WRITERS
from frontierco.problems.generate import GENERATORS

PACKAGE = Path(frontierco.__file__).parent
REGISTRY = "problems/__init__.py"

# problem id -> (its family folder, the words that name it or its file formats)
NAMING: dict[str, tuple[str, str]] = {
    "tsp": ("routing", r"tsp|atsp|tsplib"),
    "cvrp": ("routing", r"cvrp|cvrplib|vrplib"),
    "cvrptw": ("routing", r"cvrptw"),
    "mis": ("graphs", r"mis"),
    "mds": ("graphs", r"mds|pace"),
    "milp": ("milp", r"milps?|mps"),
    "fjsp": ("fjsp", r"fjsp|fjs|naderi|behnke"),
    "stp": ("steiner", r"stp|steinlib"),
    "cflp": ("facility", r"cflp|plc"),
    "cpmp": ("facility", r"cpmp"),
}
# a MILP is also the form other problems take for the MILP solvers: the families that declare MILP forms write them
# with the MILP family's builders (one way: the MILP family names none of them), and the declaration names the form
MILP_FORMS = {f"problems/{NAMING[p][0]}/" for family in FAMILIES for p in family.milp_forms} | {"problems/common/family.py"}


def _files_naming(words: str) -> set[str]:
    pattern = re.compile(rf"\b(?:{words})\b", re.IGNORECASE)
    return {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "_suite" not in path.parts and pattern.search(path.read_text(encoding="utf-8"))
    }


def _outside(relative: str, problem: str) -> bool:
    inside = (f"problems/{NAMING[problem][0]}/", "kit/", *(MILP_FORMS if problem == "milp" else ()))
    return not relative.startswith(inside) and relative != REGISTRY


def test_every_problem_has_its_naming_words():
    assert set(NAMING) == set(PROBLEMS)


@pytest.mark.parametrize("problem", sorted(NAMING))
def test_a_problem_is_named_only_inside_its_family_folder(problem):
    family, words = NAMING[problem]
    naming = _files_naming(words)
    assert f"problems/{family}/__init__.py" in naming  # the search finds what it looks for: the family's declarations
    outside = sorted(relative for relative in naming if _outside(relative, problem))
    assert not outside, f"{problem} is named outside problems/{family}/: {outside}"


def test_the_leaderboard_names_no_problem():
    words = "|".join(words for _, words in NAMING.values())
    assert not sorted(relative for relative in _files_naming(words) if relative.startswith("leaderboard/"))


@pytest.mark.parametrize("problem", sorted(PROBLEMS))
def test_each_problem_declares_its_files_and_generators(problem):
    assert problem in WRITERS and problem in SOLUTION_FILES
    assert any(generator.problem == problem for generator in GENERATORS.values())
    family = next(family for family in FAMILIES if PROBLEMS[problem] in family.problems)
    folder = f"frontierco.problems.{NAMING[problem][0]}."
    declared = [*family.readers.values(), *(w for writer in family.writers.values() for w in (writer.suffix, writer.write))]
    declared += [target for file in family.solution_files.values() for target in (file.write, file.read)]
    declared += [generator.target for generator in family.generators] + [form.reader for form in family.text_forms]
    declared += [t for form in family.milp_forms.values() for t in (form.model, form.solution)] + [PROBLEMS[problem].cases]
    assert all(target.startswith(folder) for target in declared), [t for t in declared if not t.startswith(folder)]


def test_every_declared_function_exists():
    from frontierco.problems.common.base import resolve

    targets = {*READERS.values(), *(form.reader for form in TEXT_FORMS), *(p.cases for p in PROBLEMS.values())}
    targets |= {t for writer in WRITERS.values() for t in (writer.suffix, writer.write)}
    targets |= {t for file in SOLUTION_FILES.values() for t in (file.write, file.read)}
    targets |= {g.target for g in GENERATORS.values()}
    targets |= {t for family in FAMILIES for form in family.milp_forms.values() for t in (form.model, form.solution)}
    assert all(callable(resolve(target)) for target in targets)


def test_the_shared_text_suffix_has_one_fallback_layout():
    assert len([form for form in TEXT_FORMS if form.first_lines is None and not form.keywords]) == 1
