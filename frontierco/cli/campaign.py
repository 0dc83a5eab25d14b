"""``frontierco campaign``: the named campaigns, listed and run step by step."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from frontierco.cli.common import console, context_of, flags, records

if TYPE_CHECKING:
    from frontierco.app.campaigns import Step
    from frontierco.results import RunRecord

app = typer.Typer(help="Named campaigns from campaigns/*.toml.", no_args_is_help=True)


@app.command("run")
def campaign_run(
    ctx: typer.Context,
    name: str,
    jobs: Annotated[int, typer.Option(help="runs at once")] = 1,
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
    force: Annotated[bool, typer.Option(help="redo finished runs (of every step, or of --step)")] = False,
    step: Annotated[list[int] | None, typer.Option(help="only step N (0-based, in file order; repeatable)")] = None,
    time_limit: Annotated[float | None, typer.Option(help="seconds per run for every step instead of the file's own limits")] = None,
) -> None:
    """Run a named campaign step by step; finished runs are skipped, so it resumes after any interruption."""
    from frontierco.app.campaigns import load_campaign, run_named, select_steps, with_time_limit

    context = context_of(ctx)
    campaign = with_time_limit(select_steps(load_campaign(name, context.layers("campaigns")), step or []), time_limit)
    results = records(context, results)
    console.print(f"campaign {campaign.name}: {len(campaign.steps)} steps; records in {results}")

    def report(done_step: Step, done: list[RunRecord]) -> None:
        console.print(f"  {done_step.describe()}: {len(done)} new runs")

    with flags("jobs"):
        run_named(context, campaign, context.records(results), jobs, force=force, report=report)


@app.command("list")
def campaign_list(ctx: typer.Context) -> None:
    """The named campaigns and their steps."""
    from frontierco.app.campaigns import campaign_files, load_campaign

    folders = context_of(ctx).layers("campaigns")
    for name in sorted(campaign_files(folders)):
        campaign = load_campaign(name, folders)
        console.print(f"[bold]{campaign.name}[/bold]: {campaign.description}")
        for k, step in enumerate(campaign.steps):
            console.print(f"  {k}. {step.describe()}")
