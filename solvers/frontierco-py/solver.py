"""frontierco-py: run a FrontierCO / CO-Bench style Python file under the harness.

Such a file defines ``solve(**kwargs)``, a generator yielding solution dicts, fed one case of what FrontierCO's
``load_data`` returns for the problem. This solver builds those kwargs from the instance (``adaptors``), runs the
file's ``solve`` and turns every yielded dict back into the suite's solution, which the harness re-checks with the
problem's own checker; a dict that is not a solution is recorded as a malformed yield (``Rejected``) and the run
goes on. Parameter ``file=PATH`` (relative to where ``frontierco`` runs); without it, the example greedy of the
problem in ``examples/``. Each file is its own leaderboard row, ``frontierco-py{file=PATH}``.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from frontierco.errors import UsageError
from frontierco.kit.solverkit import refuse_route_limit
from frontierco.problems import problem_of
from frontierco.solver import Budget, Rejected, Solver

from .adaptors import Malformed, adaptor

EXAMPLES = Path(__file__).parent / "examples"


def load_file(path: Path) -> ModuleType:
    """Import a solve file as a module of its own; a file without a callable ``solve`` is a UsageError."""
    if not path.is_file():
        raise UsageError(f"frontierco-py: no file {path}")
    name = f"frontierco_py_file_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if not callable(getattr(module, "solve", None)):
        raise UsageError(f"frontierco-py: {path} defines no solve(**kwargs)")
    return module


class FrontierCOPy(Solver):
    name = "frontierco-py"
    problems = ("tsp", "cvrp", "mis", "mds", "fjsp", "stp", "cflp", "cpmp")
    path_params = ("file",)  # the solve file is read inside the sandbox
    version = "2"
    deterministic = False  # whatever the file does

    def solve(self, instance: Any, budget: Budget) -> Iterator[object]:
        refuse_route_limit(instance, self.name)  # FrontierCO's CVRP interface has no maximum route length
        # the file is read here, not in setup(): a failure before the worker is ready is not reported with its message
        unknown = sorted(set(self.params) - {"file"})
        if unknown:
            raise UsageError(f"frontierco-py takes one parameter, file=PATH; not {', '.join(unknown)}")
        problem = problem_of(instance).name
        chosen = self.params.get("file")  # declared without a default: it is the problem's example
        module = load_file(Path(str(chosen)) if chosen is not None else EXAMPLES / f"{problem}.py")
        convert = adaptor(problem)
        produced = module.solve(**convert.kwargs(instance))
        for number, data in enumerate(produced if inspect.isgenerator(produced) else [produced], start=1):
            try:
                yield convert.solution(instance, data)
            except Malformed as exc:  # the record keeps the first such reason: it says which yield it was
                yield Rejected(f"frontierco-py: yield {number}: {exc}")
