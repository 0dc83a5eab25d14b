"""SCIP and HiGHS guided by the CTC network: predict, solve a reduced model for a quarter of the time left,
then the original model (started from the best reduced solution) for the rest, so a wrong reduction costs
time, never the answer. Every solution is a vector of the original columns, checked on the original model.

- ``ctc-scip``: trust region on the variables + predicted tight rows, for SCIP; the rows are big-M rows by
  default (parameter ``form="indicator"``: SCIP indicator constraints, which on set cover found no solution
  in their share of the time where the big-M rows gave one in 0.2 s; see the README).
- ``ctc-highs``: the same reduction in big-M form for HiGHS.
- ``ps-scip``: the trust region alone (predict-and-search; the ablation without constraints).

The checkpoint is the family whose type signature is nearest the instance's (``checkpoint.nearest``); where
none is near enough, the solver runs its backend on the original model for the whole limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import numpy as np

from frontierco.formats.mps import to_highs, to_scip
from frontierco.problems import MILPInstance
from frontierco.solver import Budget, Proven, Solver
from frontierco.solverkit import Clock, scip_incumbents, stream

REDUCED_SHARE = 0.25


def scip_phase(
    instance: MILPInstance, budget: Budget, seconds: float, start: np.ndarray | None, extend: Callable[[Any, list[Any]], None] | None
) -> Iterator[tuple[np.ndarray, bool]]:
    """SCIP on the instance (``extend`` adds a reduction to the model), yielding (values, proven optimal)."""
    model, variables = to_scip(instance)
    if extend is not None:
        extend(model, variables)
    if start is not None:
        hint = model.createSol()
        for var, value in zip(variables, start, strict=True):
            model.setSolVal(hint, var, float(value))
        model.addSol(hint, free=True)
    model.setParam("limits/time", max(seconds, 0.1))
    model.setParam("randomization/randomseedshift", budget.seed)
    model.setParam("parallel/maxnthreads", budget.threads)
    yield from scip_incumbents(model, variables)


def highs_phase(instance: MILPInstance, budget: Budget, seconds: float, start: np.ndarray | None) -> Iterator[tuple[np.ndarray, bool]]:
    import highspy

    highs = to_highs(instance)
    highs.setOptionValue("time_limit", max(seconds, 0.1))
    highs.setOptionValue("random_seed", budget.seed)
    highs.setOptionValue("threads", budget.threads)
    if start is not None:
        hint = highspy.HighsSolution()
        hint.col_value = [float(v) for v in start]
        hint.value_valid = True
        highs.setSolution(hint)

    def run(emit: Callable[[Any], None]) -> None:
        highs.cbMipImprovingSolution.subscribe(lambda event: emit((np.array(event.data_out.mip_solution, dtype=np.float64), False)))
        highs.run()
        if highs.getModelStatus() == highspy.HighsModelStatus.kOptimal:
            emit((np.array(highs.getSolution().col_value, dtype=np.float64), True))

    yield from stream(run)


class _Reducing(Solver):
    problems = ("milp",)
    version = "1"
    deterministic = True
    backend: ClassVar[str] = "scip"
    constraints: ClassVar[bool] = True

    def setup(self) -> None:
        import torch

        from .checkpoint import SHIPPED, load

        torch.set_num_threads(1)
        self.torch = torch
        self.models = {path.stem: load(path) for path in sorted(SHIPPED.glob("*.pt"))}

    def _reduction(self, instance: MILPInstance, clock: Clock, device: str = "cpu") -> tuple[Any, Any] | None:
        from .checkpoint import nearest
        from .features import LP_TIME, analyse_instance, build_graph, lp_relaxation, signature
        from .reduce import plan

        rows = analyse_instance(instance)
        chosen = nearest(self.models, signature(rows))
        if chosen is None:
            return None
        graph = build_graph(instance, rows, lp_relaxation(instance, min(LP_TIME, 0.1 * clock.left())))
        with self.torch.no_grad():
            variable_logits, constraint_logits = chosen[0].to(device)(graph.to(device))
        marginals = self.torch.sigmoid(variable_logits).cpu().numpy()
        ctc = self.torch.sigmoid(constraint_logits[:-1]).cpu().numpy() if self.constraints else None
        reduction = plan(marginals, ctc, rows)
        return None if reduction.empty else (reduction, rows)

    def _phase(
        self, instance: MILPInstance, budget: Budget, seconds: float, start: np.ndarray | None, reduced: Any
    ) -> Iterator[tuple[np.ndarray, bool]]:
        """One solve, of the reduced model when ``reduced`` is given, yielding original columns only."""
        from .reduce import add_to_scip, big_m_model

        indicator = reduced is not None and self.backend == "scip" and self.params.get("form", "big-m") == "indicator"
        model = instance if reduced is None or indicator else big_m_model(instance, *reduced)
        padded = None if start is None else np.concatenate([start, np.zeros(model.num_cols - instance.num_cols)])
        if self.backend == "highs":
            phase = highs_phase(model, budget, seconds, padded)
        else:
            extend = (lambda scip, variables: add_to_scip(scip, variables, *reduced)) if indicator else None
            phase = scip_phase(model, budget, seconds, padded, extend)
        for values, proven in phase:
            yield values[: instance.num_cols], proven

    def solve(self, instance: MILPInstance, budget: Budget) -> Iterator[object]:
        from frontierco.problems.milp import MILPSolution

        clock = Clock(budget.time_limit, margin=0.05)
        reduced = self._reduction(instance, clock, budget.device)
        best: np.ndarray | None = None
        if reduced is not None:
            for values, _ in self._phase(instance, budget, REDUCED_SHARE * clock.left(), None, reduced):
                best = values  # optimal for the reduced model proves nothing about the original
                yield MILPSolution(values)
        for values, proven in self._phase(instance, budget, clock.left(), best, None):
            yield Proven(MILPSolution(values)) if proven else MILPSolution(values)


class CTCSCIP(_Reducing):
    name = "ctc-scip"
    problems = ("milp",)
    learned = True
    requires = {"pyscipopt": "pyscipopt>=5.0", "torch": "torch>=2.2", "torch_geometric": "torch-geometric>=2.5"}


class CTCHiGHS(_Reducing):
    name = "ctc-highs"
    problems = ("milp",)
    learned = True
    requires = {"highspy": "highspy>=1.7", "torch": "torch>=2.2", "torch_geometric": "torch-geometric>=2.5"}
    backend = "highs"


class PSSCIP(_Reducing):
    name = "ps-scip"
    problems = ("milp",)
    learned = True
    requires = {"pyscipopt": "pyscipopt>=5.0", "torch": "torch>=2.2", "torch_geometric": "torch-geometric>=2.5"}
    constraints = False
