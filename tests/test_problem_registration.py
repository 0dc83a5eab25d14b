"""Issue 29's claim, kept true: a problem lives in its own modules and is named in the package only by the three
registrations (problems.PROBLEMS with the unions, formats.READERS/WRITERS/SOLUTION_FILES with formats/txt.py for the
shared .txt extension, generators.GENERATORS)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from frontierco.formats import READERS, SOLUTION_FILES, WRITERS
from frontierco.generators import GENERATORS

import frontierco
from frontierco.problems import PROBLEMS

PACKAGE = Path(frontierco.__file__).parent
# formats/txt.py is the reader registration of the one extension three problems share (.txt: Naderi's FJSP form,
# FrontierCO's CPMP files, its CFLP generator's layout): it tells the forms apart and names each reader
REGISTRATIONS = {"problems/__init__.py", "formats/__init__.py", "formats/txt.py", "generators/__init__.py"}

# problem id -> (its own modules, the words that name it or its formats)
PROBLEM_FILES: dict[str, tuple[set[str], str]] = {
    "fjsp": ({"problems/fjsp.py", "formats/fjsp.py", "generators/fjsp.py"}, r"fjsp|fjs|naderi|behnke|job.shop|makespan"),
    "stp": (
        {"problems/stp.py", "formats/steinlib.py", "generators/steiner.py", "kit/steiner_search.py"},
        r"stp|steinlib|steiner",
    ),
}


def _files_naming(words: str) -> set[str]:
    pattern = re.compile(rf"\b(?:{words})\b", re.IGNORECASE)
    return {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "_suite" not in path.parts and pattern.search(path.read_text(encoding="utf-8"))
    }


@pytest.mark.parametrize("problem", sorted(PROBLEM_FILES))
def test_a_problem_is_named_only_by_its_own_modules_and_the_three_registrations(problem):
    own, words = PROBLEM_FILES[problem]
    naming = _files_naming(words)
    assert own <= naming, f"the pattern misses {own - naming}"  # the search finds what it looks for
    outside = sorted(naming - own - REGISTRATIONS)
    assert not outside, f"{problem} is named outside its modules and the registrations: {outside}"


@pytest.mark.parametrize("problem", sorted(PROBLEM_FILES))
def test_each_registration_lists_the_problem(problem):
    assert problem in PROBLEMS and problem in WRITERS and problem in SOLUTION_FILES
    assert any(generator.problem == problem for generator in GENERATORS.values())
    own, _ = PROBLEM_FILES[problem]
    readers = {target.split(":")[0].removeprefix("frontierco.").replace(".", "/") + ".py" for target in READERS.values()}
    assert readers & own, f"no reader of {problem} in {sorted(own)}"


def test_every_problem_has_an_instance_writer_and_a_solution_file():
    assert set(WRITERS) == set(PROBLEMS) == set(SOLUTION_FILES)
