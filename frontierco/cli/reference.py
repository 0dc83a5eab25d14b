"""``frontierco reference``: compute reference values with a strong solver, take over better runs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from frontierco.cli.common import console, context_of, flags, records

if TYPE_CHECKING:
    from frontierco.app.references import Change

app = typer.Typer(help="Reference values: compute with a strong solver, take over better runs.", no_args_is_help=True)


@app.command("compute")
def reference_compute(
    ctx: typer.Context,
    collection: str,
    solver: Annotated[str | None, typer.Option(help="default: the strongest for the problem")] = None,
    time_limit: Annotated[float, typer.Option(help="seconds per instance (e.g. 10x the benchmark limit)")] = 300.0,
    jobs: Annotated[int, typer.Option(help="runs at once")] = 1,
) -> None:
    """Compute reference values for a collection (resumable) and write them, with provenance, into its manifest."""
    from frontierco.app.references import compute_references
    from frontierco.harness.request import Execution
    from frontierco.problems import get_problem
    from frontierco.registry import Registry

    context = context_of(ctx)
    registry = Registry.of(context)
    name = solver or get_problem(registry.collection(collection).problem).reference_solver
    store = context.records(context.required().references)
    with flags("time_limit", "jobs"):
        changes = compute_references(context, registry, collection, name, time_limit, store, Execution(jobs=jobs))
    print_changes(changes, f"{collection}: {len(changes)} reference values written ({name}, {time_limit:g} s)")


@app.command("update")
def reference_update(
    ctx: typer.Context,
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
    collection: Annotated[list[str] | None, typer.Option(help="only this collection (repeat for more)")] = None,
) -> None:
    """Take over stored runs that beat their reference, after re-verifying each solution."""
    from frontierco.app.references import update_references
    from frontierco.registry import Registry

    context = context_of(ctx)
    registry = Registry.of(context)
    chosen = None if not collection else {registry.collection(name).name for name in collection}  # an unknown name: one line
    changes = update_references(registry, context.records(records(context, results, reading=True)), chosen)
    print_changes(changes, f"{len(changes)} references improved")


def print_changes(changes: list[Change], headline: str) -> None:
    table = Table("instance", "old", "new", "status", "source")
    for c in changes:
        table.add_row(c.instance, "-" if c.old is None else f"{c.old:.10g}", f"{c.new:.10g}", c.status, c.source)
    if changes:
        console.print(table)
    console.print(headline)
