"""``frontierco run``: one run request from the flags, through the one run path, and its table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from frontierco.cli.common import console, context_of, flags, records, run_progress
from frontierco.errors import StoreError, UsageError


def run_command(
    ctx: typer.Context,
    solver: Annotated[str, typer.Option(help="solver name (see 'frontierco solvers')")],
    problem: Annotated[
        str | None, typer.Option(help="a problem id (the problem column of 'instances list'): its default collection")
    ] = None,
    collection: Annotated[str | None, typer.Option(help="collection (default: the problem's small default)")] = None,
    instance: Annotated[Path | None, typer.Option(help="run on this instance file instead of a collection")] = None,
    split: Annotated[str, typer.Option(help="split of the collection")] = "test",
    limit: Annotated[int | None, typer.Option(help="only the first N instances")] = None,
    max_size: Annotated[int | None, typer.Option(help="only instances of at most this many nodes / vertices / columns")] = None,
    only: Annotated[str | None, typer.Option(help="only these instances (comma-separated names)")] = None,
    time_limit: Annotated[float, typer.Option(help="seconds per run")] = 10.0,
    seeds: Annotated[int, typer.Option(help="seeds per instance")] = 1,
    jobs: Annotated[int, typer.Option(help="runs at once (local executor)")] = 1,
    executor: Annotated[str, typer.Option(help="local or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster host:port (--executor ray; refused unless it connects in 10 s)")] = None,
    threads: Annotated[int, typer.Option(help="threads per run")] = 1,
    device: Annotated[str, typer.Option(help="where learned solvers run: cpu, cuda (GPUs round robin over --jobs) or cuda:N")] = "cpu",
    param: Annotated[list[str] | None, typer.Option(help="a solver parameter KEY=VALUE, repeatable (its own leaderboard row)")] = None,
    force: Annotated[bool, typer.Option(help="redo finished runs")] = False,
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
    write_solution: Annotated[Path | None, typer.Option(help="with --instance: write the best solution here")] = None,
    strict: Annotated[bool, typer.Option(help="exit non-zero when any run ended in error or crash (for CI)")] = False,
) -> None:
    """Run a solver under the harness, record every run, and print per-instance results."""
    from frontierco.app.verify import verify_run
    from frontierco.cli.summary import summarise_records
    from frontierco.harness.plan import Selection, parse_params
    from frontierco.harness.request import Execution, RunRequest, run
    from frontierco.problems import get_problem
    from frontierco.problems.files import write_solution as write_solution_file
    from frontierco.registry import Registry
    from frontierco.results import FAILED_STATUSES, latest
    from frontierco.solver import Budget

    context = context_of(ctx)
    if instance is not None and (collection is not None or only is not None or limit is not None or max_size is not None):
        raise UsageError("--instance runs one file: leave out --collection, --only, --limit and --max-size")
    if write_solution is not None:
        if instance is None:
            raise UsageError("--write-solution needs --instance (one file, one best solution)")
        if not write_solution.parent.is_dir():
            raise UsageError(f"--write-solution: the folder {write_solution.parent} does not exist")
        if write_solution.is_dir():
            raise UsageError(f"--write-solution: {write_solution} is a folder; name the file to write")
    if only is not None and not all(name.strip() for name in only.split(",")):
        raise UsageError(f"--only needs instance names separated by commas, got {only!r}")
    params = parse_params(param or [])
    registry = Registry.of(context)
    instances: Selection | Path
    if instance is not None:
        instances = instance
    else:
        if problem is None and collection is not None:
            problem = registry.collection(collection).problem
        if problem is None:
            raise UsageError("pass --problem or --collection (or --instance)")
        get_problem(problem)
        instances = Selection(collection, split, limit, max_size, only.split(",") if only else None)
    budget = Budget(time_limit, threads=threads, device=device)
    request = RunRequest(solver, instances, budget, problem, params, seeds, Execution(executor, jobs, address), force)
    results = records(context, results)
    store = context.records(results)
    with flags("time_limit", "seeds", "threads", "limit", "max_size", "jobs", "executor"):
        ran = run(context, request, store, run_progress, registry)
    planned = {s.run_id for s in ran.specs}
    mine = [r for r in latest(list(store.records())) if r.run_id in planned]
    summary = summarise_records(mine)
    table = Table("instance", "seed", "status", "objective", "reference", "gap %", "time to best s", "note")
    for row in summary.rows:
        table.add_row(*row)
    console.print(table)
    console.print(summary.line)
    again = len(ran.specs) - len(ran.records)
    console.print(f"{len(ran.records)} new runs, {again} already recorded{' (--force redoes them)' if again else ''}; records in {results}")
    console.print(_leaderboard_hint(results))
    failed = sum(1 for r in mine if r.status in FAILED_STATUSES)
    if failed:
        console.print(f"{failed} of {len(planned)} runs ended in error, crash or memory (see the note column)")
    if write_solution is not None and instance is not None:
        best = verify_run(store, ran.specs[0].run_id, registry)  # re-checked on the way out
        try:
            write_solution_file(write_solution, best.instance, best.solution, best.evaluation.objective)
        except OSError as exc:
            raise StoreError(f"could not write {write_solution}: {exc.strerror or exc}") from None
        console.print(f"wrote the best solution to {write_solution}")
    if strict and failed:
        raise typer.Exit(1)


def _leaderboard_hint(results: Path) -> str:
    """How to see a store's records on a leaderboard: ``leaderboard build`` reads the ``runs/`` of a folder."""
    if results.name != "runs":
        return "a leaderboard reads the runs/ folder of its folder: with the store at DIR/runs, frontierco leaderboard build --folder DIR"
    if results.parent.name == "leaderboards":
        return f"see them on a leaderboard: frontierco --root {results.parent.parent} leaderboard build (pages in {results.parent})"
    return f"see them on a leaderboard: frontierco leaderboard build --folder {results.parent}"
