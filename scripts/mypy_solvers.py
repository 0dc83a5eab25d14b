"""mypy over every solver folder (``solvers/*/``), one run per folder, with the settings of pyproject.toml.

The folders cannot be checked in one run: each holds a ``solver.py`` (mypy would see one module twice), and the
folder names with a dash are not package names. So each folder is checked under the name the suite imports it
by (``frontierco_solver_<name>``, a link in a temporary folder): a folder with an ``__init__.py`` as the package
it is (its modules import each other relatively). Exit status 1 when any folder has an error; each error is
printed as mypy prints it, with the folder's own path.

    python scripts/mypy_solvers.py [FOLDER ...]     # default: every folder of solvers/
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mypy import api

SOLVERS = Path(__file__).resolve().parents[1] / "solvers"


def folders(named: list[str]) -> list[Path]:
    """The folders to check: those named, else every folder of solvers/ that holds Python files."""
    if named:
        return [Path(name) for name in named]
    return sorted(path for path in SOLVERS.iterdir() if path.is_dir() and any(path.rglob("*.py")))


def check(folder: Path) -> tuple[str, int]:
    """mypy's report on one folder and its exit status (0: clean)."""
    with tempfile.TemporaryDirectory() as scratch:
        link = Path(scratch) / f"frontierco_solver_{folder.name.replace('-', '_')}"
        link.symlink_to(folder.resolve(), target_is_directory=True)
        report, errors, status = api.run([str(link)])
    real = folder.resolve()
    shown = real.relative_to(Path.cwd()) if real.is_relative_to(Path.cwd()) else real
    return (report + errors).replace(str(link), str(shown)).replace(str(real), str(shown)), status


def main(argv: list[str]) -> int:
    failed = 0
    for folder in folders(argv):
        report, status = check(folder)
        if status != 0:
            failed += 1
            print(report, end="")
    print(f"mypy: {failed} solver folder{'' if failed == 1 else 's'} with errors", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
