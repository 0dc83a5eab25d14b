"""``frontierco evaluate``, ``verify``, ``results export`` and ``plot``: solutions and stored records checked,
exported and drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from frontierco.cli.common import console, context_of, number, records
from frontierco.errors import StoreError, UsageError

app = typer.Typer(help="The record store as a table: export every record for analysis.", no_args_is_help=True)


def evaluate_command(instance_file: Path, solution_file: Path) -> None:
    """Check a solution file against an instance file with the independent checker."""
    from frontierco.problems import evaluate, problem_of
    from frontierco.problems.files import read_instance, read_solution

    instance = read_instance(instance_file)
    verdict = evaluate(instance, read_solution(solution_file, instance))
    if verdict.feasible:
        console.print(f"feasible, {problem_of(instance).name} objective {number(verdict.objective)}")
    else:
        console.print(f"infeasible: {verdict.reason}")
        raise typer.Exit(1)


def verify_command(
    ctx: typer.Context,
    run_id: Annotated[str | None, typer.Argument(help="a run id (or a unique prefix)")] = None,
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
    every: Annotated[bool, typer.Option("--all", help="every record of the run (a redone run has several), not only the latest")] = False,
    admit: Annotated[bool, typer.Option("--admit", help="re-check the records the boards do not show yet; admit those that hold")] = False,
    changed_since: Annotated[str | None, typer.Option(help="re-check what git sees added or admitted since this commit (CI)")] = None,
) -> None:
    """Re-check a stored run's best solution with the independent checker (or, with --admit, every record
    the boards do not show yet)."""
    from frontierco.app.verify import (
        added_records,
        admission,
        admit_store,
        find_record,
        find_records,
        solutions_deleted_since,
        verify_record,
    )
    from frontierco.errors import SolutionUnavailable
    from frontierco.registry import Registry
    from frontierco.results import BY_HASH

    context = context_of(ctx)
    store = context.records(records(context, results, reading=True))
    registry = Registry.of(context)
    if changed_since is not None:
        added = added_records(store, changed_since)
        checked = [(path, record, admission(store, record, path, registry)) for path, record in added]
        if any(reason and (record.solution_file or "").startswith(BY_HASH) for _, record, reason in checked):  # moved out?
            with solutions_deleted_since(store, changed_since) as (_, before):  # then re-checked from the files the commit removed
                checked = [(path, record, reason and admission(before, record, path, registry)) for path, record, reason in checked]
        refused = [(record, reason) for _, record, reason in checked if reason]
        for record, reason in refused:
            console.print(f"run {record.run_id} ({record.collection}/{record.solver}): {reason}")
        console.print(f"{len(added)} records added or admitted since {changed_since}; {len(refused)} do not re-check")
        if refused:
            raise typer.Exit(1)
        return
    if admit:
        refusals: list[str] = []
        count = admit_store(store, lambda r, reason: refusals.append(f"run {r.run_id} ({r.collection}/{r.solver}): {reason}"), registry)
        for line in refusals:
            console.print(line)
        console.print(f"admitted {count} records; {len(refusals)} refused")
        if refusals:
            raise typer.Exit(1)
        return
    if run_id is None:
        raise UsageError("give a run id, or --admit")
    found = find_records(store, run_id) if every else [find_record(store, run_id)]
    failed = False
    for record in found:
        if record.solution_file is None and every:
            console.print(f"run {record.run_id}: no stored solution ({record.status}: {record.reason})")
            continue
        try:
            check = verify_record(store, record, registry)  # a lone record without a solution is an error
        except SolutionUnavailable as exc:  # kept outside the committed store, and not on this machine
            console.print(f"run {record.run_id} ({record.solver} on {record.instance_key}): not re-checked: {exc}")
            continue
        if not check.evaluation.feasible:
            console.print(f"run {record.run_id}: stored solution is infeasible: {check.evaluation.reason}")
            failed = True
            continue
        verdict = "agrees with" if check.agrees else "DIFFERS from"
        objective = f"objective {check.evaluation.objective:.10g}"
        if record.unrounded is not None:
            objective += f" (unrounded {check.unrounded:.10g})"
        console.print(f"run {record.run_id} ({record.solver} on {record.instance_key}): {objective} {verdict} the record")
        failed = failed or not check.agrees
    if failed:
        raise typer.Exit(1)


@app.command("export")
def results_export(
    ctx: typer.Context,
    out: Annotated[Path, typer.Argument(help="the file to write")],
    format: Annotated[str, typer.Option(help="csv or parquet")] = "csv",
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
    collection: Annotated[str | None, typer.Option(help="only this collection")] = None,
) -> None:
    """Every record of a store as one table (a row per record; needs the analysis extra)."""

    if format not in ("csv", "parquet"):
        raise UsageError(f"--format must be csv or parquet, got {format!r}")
    if not out.parent.is_dir():
        raise UsageError(f"the folder {out.parent} does not exist")
    context = context_of(ctx)
    store = context.records(records(context, results, reading=True))
    if collection is not None and not store.path(collection, "x").parent.is_dir():
        raise UsageError(f"no records of a collection {collection!r} in {store.root}")
    frame = store.to_frame(collection)
    try:
        if format == "csv":
            frame.to_csv(out, index=False)
        else:
            frame.to_parquet(out, index=False)
    except OSError as exc:
        raise StoreError(f"could not write {out}: {exc.strerror or exc}") from None
    console.print(f"wrote {len(frame)} records to {out}")


def plot_command(
    ctx: typer.Context,
    run_id: Annotated[str, typer.Argument(help="a run id (or a unique prefix)")],
    out: Annotated[Path | None, typer.Option(help="PNG to write (default RUN_ID.png)")] = None,
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
) -> None:
    """Draw an instance with a run's stored best solution (routes over the points or city, or the set on the graph)."""
    from frontierco.app.plot import plot_run
    from frontierco.registry import Registry

    context = context_of(ctx)
    target = plot_run(context.records(records(context, results, reading=True)), run_id, out or Path(f"{run_id}.png"), Registry.of(context))
    console.print(f"wrote {target}")
