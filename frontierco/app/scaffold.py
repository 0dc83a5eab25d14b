"""``frontierco new-solver``: copy solvers/_template into a new solver folder with its name and problem."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from frontierco.errors import UsageError
from frontierco.problems import PROBLEMS
from frontierco.solver import SOLVERS_DIR, discover

NAME = re.compile(r"^[a-z][a-z0-9-]*$")


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-")) + "Solver"


def new_solver(name: str, problems: list[str], directory: Path) -> Path:
    """Create ``directory/name`` (the command line's: the workspace's solvers/) from the suite's template;
    refuses bad or taken names and unknown problems."""
    if not NAME.match(name):
        raise UsageError(f"solver names are lower-case letters, digits and dashes: {name!r}")
    unknown = [p for p in problems if p not in PROBLEMS]
    if unknown or not problems:
        raise UsageError(f"unknown problem {', '.join(unknown) or '(none given)'}; known: {', '.join(PROBLEMS)}")
    target = directory / name
    if target.exists() or name in discover(directory) or name in discover():
        raise UsageError(f"a solver named {name!r} exists already")
    shutil.copytree(SOLVERS_DIR / "_template", target)
    code = (target / "solver.py").read_text()
    code = code.replace('name = "template"', f'name = "{name}"')
    code = re.sub(r"problems = \([^)]*\)", f"problems = ({', '.join(repr(p) for p in problems)},)", code, count=1)
    code = code.replace("class TemplateSolver(", f"class {class_name(name)}(")
    code = code.replace(
        "TEMPLATE: say in one line what this solver does (copied by `frontierco new-solver`).",
        f"{name}: say in one line what this solver does.",
    )
    (target / "solver.py").write_text(code)
    readme = (target / "README.md").read_text().replace("# template", f"# {name}")
    (target / "README.md").write_text(readme)
    return target
