"""``frontierco solvers``, ``new-solver``, ``validate``, ``check-solver`` and ``train``: the solvers and the
suite's content, listed, started, checked and trained."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.table import Table

from frontierco.cli.common import console, context_of


def solvers_command(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="one solver: show its problems and the parameters it declares")] = None,
) -> None:
    """List the solvers, the problems they solve, and how to install a missing one; or show one solver."""
    from frontierco.solver import discover, get_solver

    folders = context_of(ctx).layers("solvers")
    if name is not None:
        for line in get_solver(name, folders).details():
            console.print(line, highlight=False, markup=False)
        return
    table = Table("solver", "problems", "available", "to install")
    for name, spec in sorted(discover(folders).items()):
        table.add_row(name, ", ".join(spec.problems), "yes" if spec.available else "no", spec.fix)
    console.print(table)


def new_solver_command(
    ctx: typer.Context,
    name: str,
    problem: Annotated[list[str], typer.Option(help="a problem it solves (repeat for several)")],
) -> None:
    """Start a solver: copy solvers/_template to solvers/NAME, set its name and problems."""
    from frontierco.app.scaffold import new_solver

    target = new_solver(name, problem, context_of(ctx).required().root / "solvers")
    console.print(f"created {target}; write solve() in {target / 'solver.py'}, then: frontierco check-solver {name}")


def validate_command(ctx: typer.Context) -> None:
    """Check the manifests, campaigns and solver folders of the suite and the workspace: one line per problem."""
    from frontierco.app.validate import validate

    findings = validate(context_of(ctx))
    for problem in findings.problems:
        print(problem)
    print(findings.summary(), file=sys.stderr)
    if findings.problems:
        raise typer.Exit(1)


def check_solver_command(ctx: typer.Context, name: str) -> None:
    """Run the solver contract (tiny instances, through the harness) on one solver and say what failed."""
    from frontierco.app.contract import check_solver
    from frontierco.solver import get_solver

    context = context_of(ctx)
    results = check_solver(get_solver(name, context.layers("solvers")), context)
    table = Table("problem", "case", "result", "detail")
    for r in results:
        table.add_row(r.problem, r.case, "[green]ok[/green]" if r.passed else "[red]FAILED[/red]", r.message)
    console.print(table)
    failed = [r for r in results if not r.passed]
    console.print(f"{name}: {len(results) - len(failed)} of {len(results)} contract checks passed")
    if failed:
        raise typer.Exit(1)


def train_command(ctx: typer.Context, solver: Annotated[str, typer.Argument(help="a learned solver with a train.py")]) -> None:
    """Train a learned solver by its own train.py (e.g. frontierco train rrnco --problem acvrp --size 50); --help shows its options."""
    import inspect

    from frontierco.solver import load_solver_module

    context = context_of(ctx)
    main = load_solver_module(solver, "train", context.layers("solvers")).main
    if len(inspect.signature(main).parameters) >= 2:
        main(list(ctx.args), context)
    else:  # a train.py written before the context existed: main(argv) finds its workspace itself
        main(list(ctx.args))
