"""SCIP branch-cut-and-price for MILP, for MIS through its clique-cover MILP and for MDS through its set-cover
MILP (PySCIPOpt); ``scip-aggressive`` is SCIP with its primal heuristics set to AGGRESSIVE (the baseline
setting of Han et al. and of the CTC paper)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from frontierco.kit.formulations import as_milp
from frontierco.kit.solverkit import Clock, scip_incumbents
from frontierco.problems import CFLPInstance, CPMPInstance, MDSInstance, MILPInstance, MISInstance
from frontierco.problems.milp.mps import to_scip
from frontierco.solver import Budget, Proven, Solver


class SCIP(Solver):
    name = "scip"
    problems: ClassVar[tuple[str, ...]] = ("milp", "mis", "mds", "cflp", "cpmp")
    version = "1"
    deterministic = True
    requires = {"pyscipopt": "pyscipopt>=5.0"}
    aggressive: ClassVar[bool] = False

    def solve(self, instance: MILPInstance | MISInstance | MDSInstance | CFLPInstance | CPMPInstance, budget: Budget) -> Iterator[object]:
        import pyscipopt

        clock = Clock(budget.time_limit, margin=0.05)
        model_data, wrap = as_milp(instance)
        model, variables = to_scip(model_data)
        model.setParam("limits/time", clock.left())
        model.setParam("randomization/randomseedshift", budget.seed)
        model.setParam("parallel/maxnthreads", budget.threads)
        if self.aggressive:
            model.setHeuristics(pyscipopt.SCIP_PARAMSETTING.AGGRESSIVE)
        for values, proven in scip_incumbents(model, variables):
            yield Proven(wrap(values)) if proven else wrap(values)


class SCIPAggressive(SCIP):
    name = "scip-aggressive"
    problems = ("milp", "mis")
    requires = {"pyscipopt": "pyscipopt>=5.0"}
    aggressive = True
