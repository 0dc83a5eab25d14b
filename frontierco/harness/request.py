"""The one run path: a ``RunRequest`` (a solver with its parameters, the instances, a budget that carries the
device, where the runs execute) planned, run and stored by ``run``. The command line's ``run``, the campaigns,
the reference computation and the contract check all ask through it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from frontierco.errors import UsageError
from frontierco.harness.devices import check_device
from frontierco.harness.execute import run_plan
from frontierco.harness.executors import Executor, make_executor
from frontierco.harness.job import RunSpec
from frontierco.harness.plan import Plan, Selection, plan_collection, plan_file
from frontierco.registry import Registry
from frontierco.results import ResultStore, RunRecord
from frontierco.solver import Budget, SolverSpec, get_solver
from frontierco.workspace import Context

Progress = Callable[[Iterable[Any], int], Iterator[Any]]


@dataclass(frozen=True)
class Execution:
    """Where the runs execute: ``local`` (``jobs`` at once) or ``ray`` (the cluster at ``address``)."""

    kind: str = "local"
    jobs: int = 1
    address: str | None = None

    def executor(self) -> Executor:
        return make_executor(self.kind, self.jobs, self.address)


@dataclass(frozen=True)
class RunRequest:
    """What to run: ``solver`` (a name, found in the context's solver folders, or a spec found already) with
    ``params`` on ``instances`` (a selection of a collection, or one instance file),
    seeds ``budget.seed`` .. ``budget.seed + seeds - 1`` under ``budget`` (time limit, threads, device), on
    ``execution``; ``problem`` for a selection without a collection (default: the collection's). Finished runs
    are skipped unless ``force``."""

    solver: str | SolverSpec
    instances: Selection | Path
    budget: Budget
    problem: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    seeds: int = 1
    execution: Execution = Execution()
    force: bool = False


@dataclass(frozen=True)
class Ran:
    """What a request planned (every run, done before or not) and the records of the runs it made now."""

    specs: list[RunSpec]
    records: list[RunRecord]


def plan_request(context: Context, request: RunRequest, registry: Registry | None = None) -> Plan:
    """The runs of a request, checked before anything runs; ``registry`` defaults to the context's."""
    check_device(request.budget.device)
    solver = request.solver if isinstance(request.solver, SolverSpec) else get_solver(request.solver, context.layers("solvers"))
    budget, seeds, params = request.budget, request.seeds, request.params
    if isinstance(request.instances, Path):
        planned = plan_file(solver, request.instances, budget, seeds, params)
    else:
        registry = registry if registry is not None else Registry.of(context)
        selection = request.instances
        problem = request.problem or (registry.collection(selection.collection).problem if selection.collection else None)
        if problem is None:
            raise UsageError("a run names its problem or its collection")
        planned = plan_collection(registry, solver, problem, selection, budget, seeds, params)
    closed = context.closed()
    on_file = isinstance(request.instances, Path)  # a collection's runs have their registry's file store already
    settled = [
        replace(spec, closed=closed, sandbox=context.sandbox, files=context.files if on_file else spec.files) for spec in planned.specs
    ]
    return Plan(settled)


def run(
    context: Context, request: RunRequest, store: ResultStore, progress: Progress | None = None, registry: Registry | None = None
) -> Ran:
    """Plan the request, run what is not recorded yet (everything with ``force``) and store a record per run."""
    plan = plan_request(context, request, registry)
    executor = request.execution.executor()
    return Ran(plan.specs, run_plan(plan, store, executor, request.force, progress))
