"""``frontierco leaderboard build``: the boards rebuilt from the run records (or checked against them)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from frontierco.cli.common import console, context_of
from frontierco.errors import StoreError, UsageError

app = typer.Typer(help="Leaderboards rebuilt from the run records.", no_args_is_help=True)


@app.command("build")
def leaderboard_build(
    ctx: typer.Context,
    check: Annotated[bool, typer.Option(help="build in memory and fail if the committed files differ")] = False,
    folder: Annotated[Path | None, typer.Option(help="leaderboard folder, records in its runs/ (default: the workspace's)")] = None,
) -> None:
    """Rebuild the markdown tables, CSV, figures and HTML page from the run records."""
    from frontierco.leaderboard import build as leaderboard
    from frontierco.registry import Registry

    context = context_of(ctx)
    if folder is not None and not (folder / "runs").is_dir():
        raise UsageError(f"--folder {folder} holds no runs/ folder of records")
    folder = folder if folder is not None else context.required().leaderboards
    registry, solvers = Registry.of(context), context.layers("solvers")
    outputs = leaderboard.build(folder / "runs", registry, solvers, context.figures(), context.figure_jobs)
    readme = folder.parent / "README.md"
    if check:
        differing = leaderboard.check(folder, outputs, readme)
        if differing:
            console.print(f"leaderboard out of date; run 'frontierco leaderboard build': {', '.join(differing)}")
            raise typer.Exit(1)
        console.print(f"leaderboard up to date ({len(outputs) - 1} files)")  # the figures' key file is a cache, not compared
        return
    try:
        leaderboard.write(folder, outputs, readme)
    except OSError as exc:
        raise StoreError(f"could not write the leaderboard into {folder}: {exc.strerror or exc} ({exc.filename})") from None
    excerpt = f" and the excerpt in {readme}" if readme.exists() else ""
    console.print(f"wrote {len(outputs) - 1} files to {folder}{excerpt}")
