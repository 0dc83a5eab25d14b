"""SCIP branch-cut-and-price for MILP, and for MIS through its clique-cover MILP (PySCIPOpt)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from frontierco.formats.mps import write_milp
from frontierco.formulations import as_milp
from frontierco.problems import MILPInstance, MISInstance
from frontierco.solver import Budget, Proven, Solver
from frontierco.solverkit import Clock, stream


class SCIP(Solver):
    name = "scip"
    problems = ("milp", "mis")
    version = "1"
    deterministic = True
    requires = {"pyscipopt": "pyscipopt>=5.0"}

    def solve(self, instance: MILPInstance | MISInstance, budget: Budget) -> Iterator[object]:
        import pyscipopt

        clock = Clock(budget.time_limit, margin=0.05)
        model_data, wrap = as_milp(instance)
        model = pyscipopt.Model()
        model.hideOutput()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "model.mps"
            write_milp(path, model_data)
            model.readProblem(str(path))
        order = {name: k for k, name in enumerate(model_data.col_names)}
        variables = sorted(model.getVars(), key=lambda var: order[var.name])
        model.setParam("limits/time", clock.left())
        model.setParam("randomization/randomseedshift", budget.seed)
        model.setParam("parallel/maxnthreads", budget.threads)

        def values(solution: Any) -> np.ndarray:
            return np.array([model.getSolVal(solution, var) for var in variables], dtype=np.float64)

        class Incumbents(pyscipopt.Eventhdlr):
            def __init__(self, emit: Callable[[Any], None]) -> None:
                self.emit = emit

            def eventinit(self) -> None:
                self.model.catchEvent(pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND, self)

            def eventexit(self) -> None:
                self.model.dropEvent(pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND, self)

            def eventexec(self, event: Any) -> None:
                self.emit(values(self.model.getBestSol()))

        def run(emit: Callable[[Any], None]) -> None:
            model.includeEventhdlr(Incumbents(emit), "incumbents", "streams every new best solution")
            model.optimizeNogil()
            if model.getStatus() == "optimal":
                emit(("optimal", values(model.getBestSol())))

        for item in stream(run):
            yield Proven(wrap(item[1])) if isinstance(item, tuple) else wrap(item)
