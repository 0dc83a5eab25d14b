"""The ``frontierco`` command line: parses arguments and calls library functions; nothing else."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

import frontierco
from frontierco import workspace
from frontierco.errors import FrontiercoError, StoreError, UsageError

if TYPE_CHECKING:  # each command imports what it needs when it runs, so that the CLI starts at once
    from frontierco.app.campaigns import Step
    from frontierco.app.catalog import Progress
    from frontierco.app.references import Change
    from frontierco.results import RunRecord

app = typer.Typer(
    help="frontierco: a benchmark suite for combinatorial optimisation.", no_args_is_help=True, pretty_exceptions_enable=False
)
instances_app = typer.Typer(help="Instance collections: list, show, generate, verify.", no_args_is_help=True)
app.add_typer(instances_app, name="instances")
reference_app = typer.Typer(help="Reference values: compute with a strong solver, take over better runs.", no_args_is_help=True)
app.add_typer(reference_app, name="reference")
leaderboard_app = typer.Typer(help="Leaderboards rebuilt from the run records.", no_args_is_help=True)
app.add_typer(leaderboard_app, name="leaderboard")
results_app = typer.Typer(help="The record store as a table: export every record for analysis.", no_args_is_help=True)
app.add_typer(results_app, name="results")
campaign_app = typer.Typer(help="Named campaigns from campaigns/*.toml.", no_args_is_help=True)
app.add_typer(campaign_app, name="campaign")
cities_app = typer.Typer(help="Real cities: OpenStreetMap extracts to distance and duration matrices.", no_args_is_help=True)
app.add_typer(cities_app, name="cities")
console = Console() if Console().is_terminal else Console(width=200)
T = TypeVar("T")


def _progress(description: str) -> Progress:
    def wrap(items: Iterable[T]) -> Iterable[T]:
        items = list(items)
        return track(items, description=description, console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty())

    return wrap


@instances_app.command("list")
def instances_list(problem: Annotated[str | None, typer.Option(help="only collections of this problem")] = None) -> None:
    """List the collections: problem, kind, splits, reference coverage."""
    from frontierco.app import catalog
    from frontierco.registry import Registry

    table = Table("collection", "problem", "kind", "instances", "splits", "references")
    for s in catalog.list_collections(Registry(), problem):
        splits = ", ".join(f"{k} {v}" for k, v in sorted(s.splits.items()))
        table.add_row(s.name, s.problem, s.kind, str(s.size), splits, f"{s.with_reference}/{s.size}")
    console.print(table)


@instances_app.command("show")
def instances_show(name: Annotated[str, typer.Argument(help="a collection, or collection/instance")]) -> None:
    """Show a collection's instances with their references, or one instance's details."""
    from frontierco.problems import problem_of
    from frontierco.registry import Registry

    registry = Registry()
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


@instances_app.command("generate")
def instances_generate(
    collection: str,
    out: Annotated[Path, typer.Option(help="directory to write the instance files to")],
    split: Annotated[str | None, typer.Option(help="only this split (train, dev, test)")] = None,
) -> None:
    """Write a collection's instances as files (TSPLIB/VRPLIB, DIMACS, MPS)."""
    from frontierco.app import catalog
    from frontierco.registry import Registry

    written = catalog.generate_collection(Registry(), collection, out, split, _progress(f"writing {collection}"))
    console.print(f"wrote {len(written)} instances to {out}")


@instances_app.command("verify")
def instances_verify(collection: str, split: Annotated[str | None, typer.Option(help="only this split")] = None) -> None:
    """Load every instance: files against their sha256, generated ones against their content hash."""
    from frontierco.app import catalog
    from frontierco.registry import Registry

    failures = catalog.verify_collection(Registry(), collection, split, _progress(f"verifying {collection}"))
    for entry, problem in failures:
        console.print(f"[red]FAIL[/red] {entry.key}: {problem}")
    if failures:
        raise typer.Exit(1)
    console.print(f"{collection}: all instances verified")


@app.command("evaluate")
def evaluate_command(instance_file: Path, solution_file: Path) -> None:
    """Check a solution file against an instance file with the independent checker."""
    from frontierco.formats import read_instance, read_solution
    from frontierco.problems import evaluate, problem_of

    instance = read_instance(instance_file)
    verdict = evaluate(instance, read_solution(solution_file, instance))
    if verdict.feasible:
        console.print(f"feasible, {problem_of(instance).name} objective {_number(verdict.objective)}")
    else:
        console.print(f"infeasible: {verdict.reason}")
        raise typer.Exit(1)


@app.command("solvers")
def solvers_command(
    name: Annotated[str | None, typer.Argument(help="one solver: show its problems and the parameters it declares")] = None,
) -> None:
    """List the solvers, the problems they solve, and how to install a missing one; or show one solver."""
    from frontierco.solver import discover, get_solver

    if name is not None:
        for line in get_solver(name).details():
            console.print(line, highlight=False, markup=False)
        return
    table = Table("solver", "problems", "available", "to install")
    for name, spec in sorted(discover().items()):
        table.add_row(name, ", ".join(spec.problems), "yes" if spec.available else "no", spec.fix)
    console.print(table)


@app.command("run")
def run_command(
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
    address: Annotated[str | None, typer.Option(help="Ray cluster address (with --executor ray)")] = None,
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
    from frontierco.formats import write_solution as write_solution_file
    from frontierco.harness.campaign import run_campaign
    from frontierco.harness.devices import check_device
    from frontierco.harness.executors import make_executor
    from frontierco.harness.plan import Selection, parse_params, plan_collection, plan_file
    from frontierco.problems import get_problem
    from frontierco.registry import Registry
    from frontierco.results import FAILED_STATUSES, ResultStore, latest
    from frontierco.solver import get_solver

    check_device(device)
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
    spec = get_solver(solver)
    params = parse_params(param or [])
    if instance is not None:
        campaign = plan_file(spec, instance, time_limit, seeds, threads, params, device)
    else:
        registry = Registry()
        if problem is None and collection is not None:
            problem = registry.collection(collection).problem
        if problem is None:
            raise UsageError("pass --problem or --collection (or --instance)")
        get_problem(problem)
        selection = Selection(collection, split, limit, max_size, only.split(",") if only else None)
        campaign = plan_collection(registry, spec, problem, selection, time_limit, seeds, threads, params, device)
    results = _records(results)
    store = ResultStore(results)
    records = run_campaign(campaign, store, make_executor(executor, jobs, address, device), force, _run_progress)
    planned = {s.run_id for s in campaign.specs}
    mine = [r for r in latest(list(store.records())) if r.run_id in planned]
    summary = summarise_records(mine)
    table = Table("instance", "seed", "status", "objective", "reference", "gap %", "time to best s", "note")
    for row in summary.rows:
        table.add_row(*row)
    console.print(table)
    console.print(summary.line)
    again = len(campaign.specs) - len(records)
    console.print(f"{len(records)} new runs, {again} already recorded{' (--force redoes them)' if again else ''}; records in {results}")
    console.print(f"see them on a leaderboard: frontierco --root {results.parent.parent} leaderboard build (pages in {results.parent})")
    failed = sum(1 for r in mine if r.status in FAILED_STATUSES)
    if failed:
        console.print(f"{failed} of {len(planned)} runs ended in error, crash or memory (see the note column)")
    if write_solution is not None and instance is not None:
        best = verify_run(store, campaign.specs[0].run_id)  # re-checked on the way out
        try:
            write_solution_file(write_solution, best.instance, best.solution, best.evaluation.objective)
        except OSError as exc:
            raise StoreError(f"could not write {write_solution}: {exc.strerror or exc}") from None
        console.print(f"wrote the best solution to {write_solution}")
    if strict and failed:
        raise typer.Exit(1)


@results_app.command("export")
def results_export(
    out: Annotated[Path, typer.Argument(help="the file to write")],
    format: Annotated[str, typer.Option(help="csv or parquet")] = "csv",
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
    collection: Annotated[str | None, typer.Option(help="only this collection")] = None,
) -> None:
    """Every record of a store as one table (a row per record; needs the analysis extra)."""
    from frontierco.results import ResultStore

    if format not in ("csv", "parquet"):
        raise UsageError(f"--format must be csv or parquet, got {format!r}")
    if not out.parent.is_dir():
        raise UsageError(f"the folder {out.parent} does not exist")
    store = ResultStore(_records(results))
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


@app.command("verify")
def verify_command(
    run_id: Annotated[str | None, typer.Argument(help="a run id (or a unique prefix)")] = None,
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
    every: Annotated[bool, typer.Option("--all", help="every record of the run (a redone run has several), not only the latest")] = False,
    admit: Annotated[bool, typer.Option("--admit", help="re-check the records the boards do not show yet; admit those that hold")] = False,
    changed_since: Annotated[str | None, typer.Option(help="re-check the records git sees added since this commit (CI)")] = None,
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
    from frontierco.results import BY_HASH, ResultStore

    store = ResultStore(_records(results))
    if changed_since is not None:
        added = added_records(store, changed_since)
        registry = Registry()
        checked = [(path, record, admission(store, record, path, registry)) for path, record in added]
        if any(reason and (record.solution_file or "").startswith(BY_HASH) for _, record, reason in checked):  # moved out?
            with solutions_deleted_since(store, changed_since):  # then re-checked from the files the commit removed
                checked = [(path, record, reason and admission(store, record, path, registry)) for path, record, reason in checked]
        refused = [(record, reason) for _, record, reason in checked if reason]
        for record, reason in refused:
            console.print(f"run {record.run_id} ({record.collection}/{record.solver}): {reason}")
        console.print(f"{len(added)} records added since {changed_since}; {len(refused)} do not re-check")
        if refused:
            raise typer.Exit(1)
        return
    if admit:
        refusals: list[str] = []
        count = admit_store(store, lambda r, reason: refusals.append(f"run {r.run_id} ({r.collection}/{r.solver}): {reason}"))
        for line in refusals:
            console.print(line)
        console.print(f"admitted {count} records; {len(refusals)} refused")
        if refusals:
            raise typer.Exit(1)
        return
    if run_id is None:
        raise UsageError("give a run id, or --admit")
    records = find_records(store, run_id) if every else [find_record(store, run_id)]
    failed = False
    for record in records:
        if record.solution_file is None and every:
            console.print(f"run {record.run_id}: no stored solution ({record.status}: {record.reason})")
            continue
        try:
            check = verify_record(store, record)  # a lone record without a solution is an error
        except SolutionUnavailable as exc:  # kept outside the committed store, and not on this machine
            console.print(f"run {record.run_id} ({record.solver} on {record.instance_key}): not re-checked: {exc}")
            continue
        if not check.evaluation.feasible:
            console.print(f"run {record.run_id}: stored solution is infeasible: {check.evaluation.reason}")
            failed = True
            continue
        verdict = "agrees with" if check.agrees else "DIFFERS from"
        objective = f"objective {check.evaluation.objective:.10g}"
        console.print(f"run {record.run_id} ({record.solver} on {record.instance_key}): {objective} {verdict} the record")
        failed = failed or not check.agrees
    if failed:
        raise typer.Exit(1)


@reference_app.command("compute")
def reference_compute(
    collection: str,
    solver: Annotated[str | None, typer.Option(help="default: the strongest for the problem")] = None,
    time_limit: Annotated[float, typer.Option(help="seconds per instance (e.g. 10x the benchmark limit)")] = 300.0,
    jobs: Annotated[int, typer.Option(help="runs at once")] = 1,
) -> None:
    """Compute reference values for a collection (resumable) and write them, with provenance, into its manifest."""
    from frontierco.app.references import compute_references
    from frontierco.harness.executors import make_executor
    from frontierco.problems import get_problem
    from frontierco.registry import Registry

    registry = Registry()
    name = solver or get_problem(registry.collection(collection).problem).reference_solver
    changes = compute_references(registry, collection, name, time_limit, make_executor("local", jobs))
    _print_changes(changes, f"{collection}: {len(changes)} reference values written ({name}, {time_limit:g} s)")


@reference_app.command("update")
def reference_update(results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None) -> None:
    """Take over stored runs that beat their reference, after re-verifying each solution."""
    from frontierco.app.references import update_references
    from frontierco.registry import Registry
    from frontierco.results import ResultStore

    changes = update_references(Registry(), ResultStore(_records(results)))
    _print_changes(changes, f"{len(changes)} references improved")


def _print_changes(changes: list[Change], headline: str) -> None:
    table = Table("instance", "old", "new", "status", "source")
    for c in changes:
        table.add_row(c.instance, "-" if c.old is None else f"{c.old:.10g}", f"{c.new:.10g}", c.status, c.source)
    if changes:
        console.print(table)
    console.print(headline)


@leaderboard_app.command("build")
def leaderboard_build(
    check: Annotated[bool, typer.Option(help="build in memory and fail if the committed files differ")] = False,
    folder: Annotated[Path | None, typer.Option(help="leaderboard folder, records in its runs/ (default: the workspace's)")] = None,
) -> None:
    """Rebuild the markdown tables, CSV, figures and HTML page from the run records."""
    from frontierco.leaderboard import build as leaderboard

    folder = folder if folder is not None else workspace.required().leaderboards
    outputs = leaderboard.build(folder / "runs")
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


@campaign_app.command("run")
def campaign_run(
    name: str,
    jobs: Annotated[int, typer.Option(help="runs at once")] = 1,
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
    force: Annotated[bool, typer.Option(help="redo finished runs (of every step, or of --step)")] = False,
    step: Annotated[list[int] | None, typer.Option(help="only step N (0-based, in file order; repeatable)")] = None,
    time_limit: Annotated[float | None, typer.Option(help="seconds per run for every step instead of the file's own limits")] = None,
) -> None:
    """Run a named campaign step by step; finished runs are skipped, so it resumes after any interruption."""
    from frontierco.app.campaigns import load_campaign, run_named, select_steps, with_time_limit
    from frontierco.results import ResultStore

    campaign = with_time_limit(select_steps(load_campaign(name), step or []), time_limit)
    results = _records(results)
    console.print(f"campaign {campaign.name}: {len(campaign.steps)} steps; records in {results}")

    def report(done_step: Step, done: list[RunRecord]) -> None:
        console.print(f"  {done_step.describe()}: {len(done)} new runs")

    run_named(campaign, ResultStore(results), jobs, force=force, report=report)


@campaign_app.command("list")
def campaign_list() -> None:
    """The named campaigns and their steps."""
    from frontierco.app.campaigns import campaign_files, load_campaign

    for name in sorted(campaign_files()):
        campaign = load_campaign(name)
        console.print(f"[bold]{campaign.name}[/bold]: {campaign.description}")
        for k, step in enumerate(campaign.steps):
            console.print(f"  {k}. {step.describe()}")


@app.command("new-solver")
def new_solver_command(
    name: str,
    problem: Annotated[list[str], typer.Option(help="a problem it solves (repeat for several)")],
) -> None:
    """Start a solver: copy solvers/_template to solvers/NAME, set its name and problems."""
    from frontierco.app.scaffold import new_solver

    target = new_solver(name, problem)
    console.print(f"created {target}; write solve() in {target / 'solver.py'}, then: frontierco check-solver {name}")


@app.command("validate")
def validate_command() -> None:
    """Check the manifests, campaigns and solver folders of the suite and the workspace: one line per problem."""
    from frontierco.app.validate import validate

    findings = validate()
    for problem in findings.problems:
        print(problem)
    print(findings.summary(), file=sys.stderr)
    if findings.problems:
        raise typer.Exit(1)


@app.command("check-solver")
def check_solver_command(name: str) -> None:
    """Run the solver contract (tiny instances, through the harness) on one solver and say what failed."""
    from frontierco.app.contract import check_solver
    from frontierco.solver import get_solver

    results = check_solver(get_solver(name))
    table = Table("problem", "case", "result", "detail")
    for r in results:
        table.add_row(r.problem, r.case, "[green]ok[/green]" if r.passed else "[red]FAILED[/red]", r.message)
    console.print(table)
    failed = [r for r in results if not r.passed]
    console.print(f"{name}: {len(results) - len(failed)} of {len(results)} contract checks passed")
    if failed:
        raise typer.Exit(1)


@cities_app.command("build")
def cities_build(
    osm: Annotated[Path, typer.Option(help="OSM extract (.osm.pbf, .osm, .osm.gz, .osm.bz2)")],
    name: Annotated[str, typer.Option(help="city name")],
    points: Annotated[int, typer.Option(help="points to sample")] = 1000,
    seed: Annotated[int, typer.Option(help="sampling seed")] = 0,
    out: Annotated[Path | None, typer.Option(help="output .npz (default instances/cities/NAME.npz)")] = None,
) -> None:
    """Build a city .npz: sample points on the drivable network, compute directed distances and durations."""
    from frontierco.cities.build import build_city, check_city, save_city

    city = build_city(osm, name, points, seed)
    report = check_city(city)
    target = save_city(city, out or workspace.required().root / "instances" / "cities" / f"{name}.npz")
    console.print(
        f"{name}: {city.size} points on {city.metadata['scc_nodes']} road nodes; asymmetry {report.asymmetry:.3f}, "
        f"one-way pairs {100 * report.one_way_share:.1f}%, mean speed {report.mean_speed_kmh:.1f} km/h; written to {target}"
    )
    if not report.ok:
        raise FrontiercoError(f"city checks failed: finite={report.finite}, triangle violations={report.triangle_violations}")


@cities_app.command("import-rrnco")
def cities_import(
    directory: Path, out: Annotated[Path | None, typer.Option(help="destination folder (default: the workspace's instances/cities)")] = None
) -> None:
    """Copy the RRNCO release's {City}_data.npz files (checked to read) into the cities folder."""
    from frontierco.cities.build import import_rrnco

    out = out if out is not None else workspace.required().root / "instances" / "cities"
    copied = import_rrnco(directory, out)
    console.print(f"imported {len(copied)} cities into {out}")


@app.command("plot")
def plot_command(
    run_id: Annotated[str, typer.Argument(help="a run id (or a unique prefix)")],
    out: Annotated[Path | None, typer.Option(help="PNG to write (default RUN_ID.png)")] = None,
    results: Annotated[Path | None, typer.Option(help="record store (default: the workspace's)")] = None,
) -> None:
    """Draw an instance with a run's stored best solution (routes over the points or city, or the set on the graph)."""
    from frontierco.app.plot import plot_run
    from frontierco.results import ResultStore

    target = plot_run(ResultStore(_records(results)), run_id, out or Path(f"{run_id}.png"))
    console.print(f"wrote {target}")


@app.command("train", context_settings={"allow_extra_args": True, "ignore_unknown_options": True}, add_help_option=False)
def train_command(ctx: typer.Context, solver: Annotated[str, typer.Argument(help="a learned solver with a train.py")]) -> None:
    """Train a learned solver by its own train.py (e.g. frontierco train rrnco --problem acvrp --size 50); --help shows its options."""
    from frontierco.solver import load_solver_module

    load_solver_module(solver, "train").main(list(ctx.args))


def _number(value: float | None) -> str:
    """An objective as a person reads it: an integer whole (23260728, not 2.32607e+07), else 12 significant digits."""
    if value is None:
        return "none"
    return str(int(value)) if float(value).is_integer() and abs(value) < 2**63 else f"{value:.12g}"


def _records(results: Path | None) -> Path:
    """The record store a command reads or writes: the one given (a folder), else the workspace's."""
    if results is not None and results.exists() and not results.is_dir():
        raise UsageError(f"--results must be a folder of records, {results} is a file")
    return results if results is not None else workspace.required().runs


def _show_version(value: bool) -> None:
    if value:
        print(f"frontierco {frontierco.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="print the version and exit")
    ] = False,
    root: Annotated[Path | None, typer.Option(help="the workspace (else FRONTIERCO_ROOT, else the nearest marked folder)")] = None,
) -> None:
    """frontierco: a benchmark suite for combinatorial optimisation."""
    if root is not None:
        os.environ[workspace.ROOT_VARIABLE] = str(root.resolve())  # the worker processes see it too


@app.command("init")
def init_command(directory: Annotated[Path, typer.Argument(help="the folder to make a workspace of")]) -> None:
    """Make an empty workspace: records and leaderboards go there; its instances/, solvers/ and campaigns/
    add to the suite's own."""
    made = workspace.init(directory)
    console.print(f"workspace {made.root}: run commands inside it, or pass --root {made.root}")


def _run_progress(items: Iterable[T], total: int) -> Iterator[T]:
    bar = track(items, total=total, description="running", console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty())
    return iter(bar)


def main() -> None:
    """Console entry point: a user's mistake ends in one line on stderr and a non-zero exit."""
    try:
        app()
    except FrontiercoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
