"""SCIP and HiGHS guided by the CTC network, interleaved with the plain solve:

1. the original model alone from t = 0 for a short slice (``slice`` seconds, at most a tenth of the limit), so
   that an easy instance is solved before anything is predicted;
2. prediction (row types, LP relaxation, the network), then the ladder of reduced models of ``reduce.ladder``
   (the most confident predictions fixed, fewer on each rung), each warm-started from the best solution so
   far. A rung stays while it improves on the best and ends when it is solved (then the next, wider rung),
   has found nothing better in ``stall_nodes`` branch-and-bound nodes of its own search (then the ladder ends:
   a wider rung is harder still) or has no solution (then the next rung). The stall is counted in the
   solver's own work (SCIP's ``limits/stallnodes``; HiGHS's node count, read in its callbacks), never in
   wall-clock time, so a busy machine slows the ladder but does not change what it decides. A rung with
   forced rows that ends without having improved on the best (no solution, stalled, or solved to an optimum
   no better than the best) is tried again without them, and they are dropped for good. The ladder gets at
   most ``share`` of the time left;
3. the original model again for the rest. SCIP resumes the same model object (its tree, cuts and incumbent
   kept; the reduced models' solutions handed to it); HiGHS, which cannot resume, restarts from the best
   solution. Every HiGHS phase is stopped at its deadline by an interrupt callback.

Every solution is a vector of the original columns, checked on the original model; only the original model
can prove optimality.

- ``ctc-scip``: fixings + predicted tight rows, for SCIP; the rows are big-M rows by default (parameter
  ``form="indicator"``: SCIP indicator constraints, which on set cover found no solution in their share of
  the time where the big-M rows gave one in 0.2 s; see the README).
- ``ctc-highs``: the same reduction in big-M form for HiGHS.
- ``ps-scip``: the fixings alone (predict-and-search; the ablation without constraints).

Parameters: ``slice``, ``stall_nodes``, ``share`` (above), ``form`` (big-m | indicator), ``heuristics`` (default |
aggressive), ``fixings`` (false: the forced rows alone, one rung; an ablation), ``zeros``, ``ones``, ``rows``
(the first rung's shares, in place of the family's calibrated trust; ``reduce.Trust``), ``checkpoints`` (a
folder of checkpoints and cards in place of the shipped ones, e.g. ``frontierco train ctc --export``'s), ``subsolve``
(neighbourhood | default: how SCIP searches a reduced model; ``neighbourhood``, the default since version 5,
as SCIP searches its own large-neighbourhood sub-MIPs, without cutting planes or strong branching: on set
cover 2000 x 1000 a reduced model of 150 columns otherwise spent 3.6 s in root cuts before its first
solution).

Parameter ``heuristics="aggressive"`` sets SCIP's primal heuristics to AGGRESSIVE in every phase (the setting
of the ``scip-aggressive`` baseline). The checkpoint is the family whose type signature is nearest the
instance's (``checkpoint.nearest``); where none is near enough, the backend solves the original model alone.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from frontierco.kit.formulations import as_milp
from frontierco.kit.solverkit import Clock, ScipSearch, stream
from frontierco.problems import MILPInstance
from frontierco.problems.milp.milp import MILPSolution
from frontierco.problems.milp.mps import to_highs, to_scip
from frontierco.solver import Budget, Proven, Solver

log = logging.getLogger("frontierco.ctc")

# the defaults of slice (seconds of the plain solve before the prediction), stall_nodes and share are in solver.toml;
# stall_nodes (300), the nodes a reduced model may search without improving on the best solution, is about the 5 s of
# wall time that versions up to 8 allowed, on a quiet machine (measured in the tree of a reduced model, one thread:
# ~60 nodes/s on milp-indset-hard and on milp-setcover-hard alike)
SLICE_SHARE = 0.1  # the plain solve before the prediction takes at most this share of the limit


def scip_search(
    instance: MILPInstance,
    budget: Budget,
    aggressive: bool,
    extend: Callable[[Any, list[Any]], None] | None = None,
    neighbourhood: bool = False,
) -> ScipSearch:
    """A SCIP model of the instance (``extend`` adds a reduction to it), configured for the budget.
    ``neighbourhood``: a reduced model searched for solutions as SCIP searches its own large-neighbourhood
    sub-MIPs, without cutting planes and without strong branching (pseudo-costs from the first node)."""
    import pyscipopt

    model, variables = to_scip(instance)
    if extend is not None:
        extend(model, variables)
    model.setParam("randomization/randomseedshift", budget.seed)
    model.setParam("parallel/maxnthreads", budget.threads)
    if aggressive:
        model.setHeuristics(pyscipopt.SCIP_PARAMSETTING.AGGRESSIVE)
    if neighbourhood:
        model.setSeparating(pyscipopt.SCIP_PARAMSETTING.OFF)
        model.setParam("branching/relpscost/minreliable", 0.0)
        model.setParam("branching/relpscost/maxreliable", 0.0)
    return ScipSearch(model, variables)


def highs_run(
    instance: MILPInstance,
    budget: Budget,
    deadline: float,
    start: np.ndarray | None,
    stall_nodes: int | None = None,
    outcome: Outcome | None = None,
) -> Iterator[tuple[np.ndarray, bool]]:
    """HiGHS on the instance until ``deadline`` (time.monotonic) or until it has searched ``stall_nodes``
    nodes (its own count) without a better solution, enforced by interrupting it from its own callbacks;
    yields (values, proven optimal) and fills ``outcome``."""
    import highspy

    highs = to_highs(instance)
    highs.setOptionValue("time_limit", max(deadline - time.monotonic(), 0.1))
    highs.setOptionValue("random_seed", budget.seed)
    highs.setOptionValue("threads", budget.threads)
    if start is not None:
        hint = highspy.HighsSolution()
        hint.col_value = [float(v) for v in start]
        hint.value_valid = True
        highs.setSolution(hint)

    improved_at, stalled = [0], [False]  # the node count of the last better solution; whether the stall stopped it

    def stop(event: Any) -> None:
        if stall_nodes is not None and event.data_out.mip_node_count - improved_at[0] > stall_nodes:
            stalled[0] = True
            event.interrupt()
        elif time.monotonic() >= deadline:
            event.interrupt()

    def improving(event: Any, emit: Callable[[Any], None]) -> None:
        improved_at[0] = int(event.data_out.mip_node_count)
        emit((np.array(event.data_out.mip_solution, dtype=np.float64), False))

    def run(emit: Callable[[Any], None]) -> None:
        highs.cbMipImprovingSolution.subscribe(lambda event: improving(event, emit))
        for callback in (highs.cbMipInterrupt, highs.cbSimplexInterrupt, highs.cbIpmInterrupt):
            callback.subscribe(stop)
        highs.run()
        status = highs.getModelStatus()
        if outcome is not None:
            outcome.solved = status in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kInfeasible)
            outcome.feasible = highs.getInfo().primal_solution_status == 2
            outcome.stalled, outcome.nodes = stalled[0], int(highs.getInfo().mip_node_count)
        if status == highspy.HighsModelStatus.kOptimal:
            emit((np.array(highs.getSolution().col_value, dtype=np.float64), True))

    yield from stream(run)


@dataclass
class Outcome:
    """How a solve ended: solved (proven optimal or infeasible), whether it holds a feasible solution, whether
    the stall rule stopped it, and the nodes it searched (the solver's own count)."""

    solved: bool = False
    feasible: bool = False
    stalled: bool = False
    nodes: int = 0


class _Best:
    """The best solution so far of a MILP."""

    def __init__(self, instance: MILPInstance) -> None:
        self.instance, self.value = instance, np.inf
        self.values: np.ndarray | None = None
        self.sign = 1.0 if instance.sense == "min" else -1.0

    def improves(self, values: np.ndarray) -> bool:
        """Record ``values`` when they beat the best (objective of the original columns); True if so."""
        value = self.sign * float(self.instance.objective @ values[: self.instance.num_cols])
        if value >= self.value - 1e-9 * max(1.0, abs(self.value)):
            return False
        self.values, self.value = values[: self.instance.num_cols].copy(), value
        return True


class _Reducing(Solver):
    problems = ("milp", "cflp", "cpmp")
    version = "9"  # 9: a rung stalls after stall_nodes nodes of its own search without a better solution (was 5 s of wall time)
    deterministic = True
    backend: ClassVar[str] = "scip"
    constraints: ClassVar[bool] = True

    def setup(self) -> None:
        import torch

        from .checkpoint import SHIPPED, load

        torch.set_num_threads(1)
        chosen = self.params.get("checkpoints")  # declared without a default: the shipped ones, beside this file
        folder = Path(chosen) if chosen is not None else SHIPPED
        self.models = {path.stem: load(path) for path in sorted(folder.glob("*.pt"))}
        if not self.models:
            raise ValueError(f"{self.name}: no checkpoint (*.pt) in {folder}")
        self.slice = float(self.params["slice"])
        if "stall" in self.params:
            raise ValueError(f"{self.name}: the stall is counted in nodes since version 9: use stall_nodes, not stall (seconds)")
        self.stall_nodes = int(self.params["stall_nodes"])
        self.share = float(self.params["share"])
        self.form = str(self.params["form"])
        self.fixings = bool(self.params["fixings"])  # False: the forced rows alone (an ablation)
        self.trust = {key: float(self.params[key]) for key in ("zeros", "ones", "rows") if key in self.params}
        heuristics = str(self.params["heuristics"])
        self.subsolve = str(self.params["subsolve"])
        if self.form not in ("big-m", "indicator") or heuristics not in ("default", "aggressive"):
            raise ValueError(f"{self.name}: form must be big-m or indicator and heuristics default or aggressive")
        if self.subsolve not in ("neighbourhood", "default"):
            raise ValueError(f"{self.name}: subsolve must be neighbourhood or default")
        self.aggressive = heuristics == "aggressive"

    def _ladder(self, instance: MILPInstance, clock: Clock, device: str = "cpu") -> tuple[list[Any], Any]:
        """The rungs of reduced models for the instance and its analysed rows (no rungs: no checkpoint fits),
        as far as the chosen family's calibrated trust allows."""
        from .checkpoint import nearest
        from .features import LP_TIME, analyse_instance, signature
        from .predict import predict
        from .reduce import Trust, ladder

        rows = analyse_instance(instance)
        chosen = nearest(self.models, signature(rows))
        if chosen is None:
            return [], rows
        marginals, ctc = predict(chosen[0], instance, rows, min(LP_TIME, 0.1 * clock.left()), device)
        trust = replace(Trust.from_card(chosen[1]), **self.trust)
        rungs = ladder(marginals, ctc if self.constraints else None, rows, trust)
        if not self.fixings:
            rungs = [rung.without_fixings() for rung in rungs[:1] if len(rung.rows)]
        return rungs, rows

    def _rung(
        self, instance: MILPInstance, budget: Budget, rung: Any, rows: Any, best: _Best, deadline: float, outcome: Outcome
    ) -> Iterator[np.ndarray]:
        """One reduced model, warm-started from the best, until it is solved, stalls (``stall_nodes`` nodes of
        its own search without a better solution) or reaches ``deadline``; yields the original columns of its
        solutions and fills ``outcome``."""
        from .reduce import add_to_scip, big_m_model, big_m_start

        start = None if best.values is None else big_m_start(instance, rung, rows, best.values)
        if self.backend == "highs":
            for values, _ in highs_run(big_m_model(instance, rung, rows), budget, deadline, start, self.stall_nodes, outcome):
                yield values[: instance.num_cols]
            return
        lns = self.subsolve == "neighbourhood"
        if self.form == "indicator":

            def extend(model: Any, variables: list[Any]) -> None:
                add_to_scip(model, variables, rung, rows)

            search = scip_search(instance, budget, self.aggressive, extend, lns)
            start = None if start is None else start[: instance.num_cols]
        else:
            search = scip_search(big_m_model(instance, rung, rows), budget, self.aggressive, neighbourhood=lns)
        search.model.setParam("limits/stallnodes", self.stall_nodes)  # SCIP's own count: nodes since its last better solution
        if start is not None:
            search.offer(start)
        if time.monotonic() < deadline:
            for values, _ in search.run(until=search.model.getSolvingTime() + deadline - time.monotonic()):
                yield values[: instance.num_cols]
        outcome.solved, outcome.feasible = search.finished, search.model.getNSols() > 0
        outcome.stalled, outcome.nodes = search.model.getStatus() == "stallnodelimit", int(search.model.getNNodes())

    def _reduced(self, instance: MILPInstance, budget: Budget, clock: Clock, best: _Best) -> Iterator[np.ndarray]:
        """Climb the ladder within ``share`` of the time left; yields each solution that improves on the best."""
        deadline = time.monotonic() + self.share * clock.left()
        rungs, rows = self._ladder(instance, clock, budget.device)
        log.info("prediction: %d rungs at %.2f s", len(rungs), clock.elapsed())
        step = 0
        while step < len(rungs) and time.monotonic() < deadline:
            rung, outcome, improved = rungs[step], Outcome(), False
            for values in self._rung(instance, budget, rung, rows, best, deadline, outcome):
                if best.improves(values):
                    improved = True
                    yield values[: instance.num_cols].copy()
            log.info(
                "rung %d (%d fixed, %d rows): best %.6g at %.2f s",
                step,
                len(rung.zeros) + len(rung.ones),
                len(rung.rows),
                best.sign * best.value,
                clock.elapsed(),
            )
            if len(rung.rows) and not improved:
                rungs = [r.without_rows() for r in rungs]  # the forced rows did not help (however the rung ended): drop them
            elif outcome.solved or not outcome.feasible:
                step += 1
            else:
                return  # stalled with solutions: a wider rung would only be harder

    def _solve_scip(self, instance: MILPInstance, budget: Budget, clock: Clock) -> Iterator[MILPSolution | Proven]:
        original, best = scip_search(instance, budget, self.aggressive), _Best(instance)
        if self.slice > 0:
            for values, proven in original.run(until=min(self.slice, SLICE_SHARE * budget.time_limit)):
                best.improves(values)
                yield Proven(MILPSolution(values)) if proven else MILPSolution(values)
            if original.finished:
                return
        for values in self._reduced(instance, budget, clock, best):
            original.offer(values)
            yield MILPSolution(values)
        for values, proven in original.run(until=original.model.getSolvingTime() + clock.left()):
            if best.improves(values) or proven:
                yield Proven(MILPSolution(values)) if proven else MILPSolution(values)

    def _solve_highs(self, instance: MILPInstance, budget: Budget, clock: Clock) -> Iterator[MILPSolution | Proven]:
        best = _Best(instance)
        deadline = time.monotonic() + clock.left()
        if self.slice > 0:
            for values, proven in highs_run(instance, budget, time.monotonic() + min(self.slice, SLICE_SHARE * budget.time_limit), None):
                best.improves(values)
                yield Proven(MILPSolution(values)) if proven else MILPSolution(values)
                if proven:
                    return
        for values in self._reduced(instance, budget, clock, best):
            yield MILPSolution(values)
        for values, proven in highs_run(instance, budget, deadline, best.values):
            if best.improves(values) or proven:
                yield Proven(MILPSolution(values)) if proven else MILPSolution(values)

    def solve(self, instance: Any, budget: Budget) -> Iterator[object]:
        """A MILP as it is; CFLP and CPMP through their MILP forms (``formulations.FORMS``), each solution mapped back."""
        model, back = as_milp(instance)
        clock = Clock(budget.time_limit, margin=0.05)
        found = self._solve_highs(model, budget, clock) if self.backend == "highs" else self._solve_scip(model, budget, clock)
        for item in found:
            if model is instance:
                yield item
            elif isinstance(item, Proven):
                yield Proven(back(item.solution.x))
            else:
                yield back(item.x)


class CTCSCIP(_Reducing):
    name = "ctc-scip"
    problems = ("milp", "cflp", "cpmp")
    learned = True
    path_params = ("checkpoints",)
    requires = {"pyscipopt": "pyscipopt>=5.0", "torch": "torch>=2.2", "torch_geometric": "torch-geometric>=2.5"}


class CTCHiGHS(_Reducing):
    name = "ctc-highs"
    problems = ("milp", "cflp", "cpmp")
    learned = True
    path_params = ("checkpoints",)
    requires = {"highspy": "highspy>=1.7", "torch": "torch>=2.2", "torch_geometric": "torch-geometric>=2.5"}
    backend = "highs"


class PSSCIP(_Reducing):
    name = "ps-scip"
    problems = ("milp", "cflp", "cpmp")
    learned = True
    path_params = ("checkpoints",)
    requires = {"pyscipopt": "pyscipopt>=5.0", "torch": "torch>=2.2", "torch_geometric": "torch-geometric>=2.5"}
    constraints = False
