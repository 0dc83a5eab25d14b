"""``frontierco instances``: list, show, generate and verify the collections; import FrontierCO's data."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from frontierco.cli.common import console, context_of, progress

app = typer.Typer(help="Instance collections: list, show, generate, verify, import.", no_args_is_help=True)


@app.command("list")
def instances_list(
    ctx: typer.Context, problem: Annotated[str | None, typer.Option(help="only collections of this problem")] = None
) -> None:
    """List the collections: problem, kind, splits, reference coverage."""
    from frontierco.app import catalog
    from frontierco.registry import Registry

    table = Table("collection", "problem", "kind", "instances", "splits", "references")
    for s in catalog.list_collections(Registry.of(context_of(ctx)), problem):
        splits = ", ".join(f"{k} {v}" for k, v in sorted(s.splits.items()))
        table.add_row(s.name, s.problem, s.kind, str(s.size), splits, f"{s.with_reference}/{s.size}")
    console.print(table)


@app.command("show")
def instances_show(ctx: typer.Context, name: Annotated[str, typer.Argument(help="a collection, or collection/instance")]) -> None:
    """Show a collection's instances with their references, or one instance's details."""
    from frontierco.problems import problem_of
    from frontierco.registry import Registry

    registry = Registry.of(context_of(ctx))
    if "/" in name:
        entry = registry.entry(name)
        instance = registry.load(entry)
        reference = entry.reference
        console.print(f"{entry.key}  problem {entry.problem}  split {entry.split}")
        console.print(f"source: {entry.source}" + (f", read as its {entry.transform}" if entry.transform else ""))
        if reference is None:
            console.print("reference: none yet")
        else:
            console.print(f"reference: {reference.value} ({reference.status}, {reference.source})")
        console.print(f"size: {problem_of(instance).describe(instance)}")
        return
    collection = registry.collection(name)
    console.print(f"[bold]{collection.name}[/bold] ({collection.problem}, version {collection.version}): {collection.description}")
    if collection.origin:
        console.print(f"origin: {collection.origin}; licence: {collection.license}")
    if collection.coverage:
        console.print(f"holds {collection.coverage} of that set's instances")
    table = Table("instance", "split", "reference", "status", "source of reference")
    for e in collection.entries:
        ref = e.reference
        table.add_row(
            e.name,
            e.split,
            "-" if ref is None or ref.value is None else f"{ref.value:.12g}",
            ref.status if ref else "none yet",
            ref.source if ref else "",
        )
    console.print(table)


@app.command("generate")
def instances_generate(
    ctx: typer.Context,
    collection: str,
    out: Annotated[Path, typer.Option(help="directory to write the instance files to")],
    split: Annotated[str | None, typer.Option(help="only this split (train, dev, test)")] = None,
) -> None:
    """Write a collection's instances as files (each problem's natural format)."""
    from frontierco.app import catalog
    from frontierco.registry import Registry

    written = catalog.generate_collection(Registry.of(context_of(ctx)), collection, out, split, progress(f"writing {collection}"))
    console.print(f"wrote {len(written)} instances to {out}")


@app.command("verify")
def instances_verify(
    ctx: typer.Context, collection: str, split: Annotated[str | None, typer.Option(help="only this split")] = None
) -> None:
    """Load every instance: files against their sha256, generated ones against their content hash."""
    from frontierco.app import catalog
    from frontierco.registry import Registry

    failures = catalog.verify_collection(Registry.of(context_of(ctx)), collection, split, progress(f"verifying {collection}"))
    for entry, problem in failures:
        console.print(f"[red]FAIL[/red] {entry.key}: {problem}")
    if failures:
        raise typer.Exit(1)
    console.print(f"{collection}: all instances verified")


@app.command("import")
def instances_import(
    ctx: typer.Context,
    tree: Annotated[Path, typer.Argument(help="a downloaded FrontierCO data tree (<PROBLEM>/easy_test_instances, ...)")],
    prefix: Annotated[str, typer.Option(help="collections are named PREFIX-<problem>-<easy|hard|valid>")] = "fco",
) -> None:
    """Make workspace collections of a FrontierCO data tree: its instances by its names, its values, their sha256."""
    from frontierco.app.importing import import_tree
    from frontierco.names import check_name
    from frontierco.registry import Registry

    context = context_of(ctx)
    workspace = context.required()
    manifests = workspace.root / "instances" / check_name(prefix, "collection prefix")
    for made in import_tree(tree, Registry.of(context), manifests, prefix):
        with_value = sum(1 for f in made.files if f.value is not None)
        console.print(f"{made.collection}: {len(made.files)} instances, {with_value} with FrontierCO's value")
    console.print(f"manifests in {manifests}; files in {context.files.cache}")
