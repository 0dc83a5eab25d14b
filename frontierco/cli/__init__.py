"""The ``frontierco`` command line: parses arguments and calls library functions; nothing else. The callback
builds the ``Context`` once (``--root``, else FRONTIERCO_ROOT, else the nearest marked folder) and the commands
take it from there; one module per command group (``cli/instances.py``, ``cli/run.py``, ...), each importing
what a command needs when it runs, so that the CLI starts at once."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

import frontierco
from frontierco.cli import campaign, cities, instances, leaderboard, reference, results, solvers
from frontierco.cli.common import console, terminal_text
from frontierco.cli.run import run_command
from frontierco.errors import FrontiercoError

app = typer.Typer(
    help="frontierco: a benchmark suite for combinatorial optimisation.", no_args_is_help=True, pretty_exceptions_enable=False
)
app.add_typer(instances.app, name="instances")
app.add_typer(reference.app, name="reference")
app.add_typer(leaderboard.app, name="leaderboard")
app.add_typer(results.app, name="results")
app.add_typer(campaign.app, name="campaign")
app.add_typer(cities.app, name="cities")
app.command("evaluate")(results.evaluate_command)
app.command("solvers")(solvers.solvers_command)
app.command("run")(run_command)
app.command("verify")(results.verify_command)
app.command("new-solver")(solvers.new_solver_command)
app.command("validate")(solvers.validate_command)
app.command("check-solver")(solvers.check_solver_command)
app.command("plot")(results.plot_command)
app.command("train", context_settings={"allow_extra_args": True, "ignore_unknown_options": True}, add_help_option=False)(
    solvers.train_command
)


def _show_version(value: bool) -> None:
    if value:
        print(f"frontierco {frontierco.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    ctx: typer.Context,
    show_version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="print the version and exit")
    ] = False,
    root: Annotated[Path | None, typer.Option(help="the workspace (else FRONTIERCO_ROOT, else the nearest marked folder)")] = None,
) -> None:
    """frontierco: a benchmark suite for combinatorial optimisation."""
    from frontierco.workspace import Context

    ctx.obj = Context.discover(root)  # the one context of this command, handed down (never through the environment)


@app.command("init")
def init_command(directory: Annotated[Path, typer.Argument(help="the folder to make a workspace of")]) -> None:
    """Make an empty workspace: records and leaderboards go there; its instances/, solvers/ and campaigns/
    add to the suite's own."""
    from frontierco.workspace import init

    made = init(directory)
    console.print(f"workspace {made.root}: run commands inside it, or pass --root {made.root}")


def main() -> None:
    """Console entry point: a user's mistake ends in one line on stderr and a non-zero exit."""
    try:
        app()
    except FrontiercoError as exc:
        print(f"error: {terminal_text(str(exc))}", file=sys.stderr)
        sys.exit(exc.exit_code)
