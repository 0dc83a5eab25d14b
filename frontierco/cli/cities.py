"""``frontierco cities``: real cities, OpenStreetMap extracts to distance and duration matrices."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from frontierco.cli.common import console, context_of
from frontierco.errors import FrontiercoError

app = typer.Typer(help="Real cities: OpenStreetMap extracts to distance and duration matrices.", no_args_is_help=True)


@app.command("build")
def cities_build(
    ctx: typer.Context,
    osm: Annotated[Path, typer.Option(help="OSM extract (.osm.pbf, .osm, .osm.gz, .osm.bz2)")],
    name: Annotated[str, typer.Option(help="city name")],
    points: Annotated[int, typer.Option(help="points to sample")] = 1000,
    seed: Annotated[int, typer.Option(help="sampling seed")] = 0,
    out: Annotated[Path | None, typer.Option(help="output .npz (default instances/cities/NAME.npz)")] = None,
) -> None:
    """Build a city .npz: sample points on the drivable network, compute directed distances and durations."""
    from frontierco.problems.routing.cities.build import build_city, check_city, save_city

    city = build_city(osm, name, points, seed)
    report = check_city(city)
    target = save_city(city, out or context_of(ctx).required().root / "instances" / "cities" / f"{name}.npz")
    console.print(
        f"{name}: {city.size} points on {city.metadata['scc_nodes']} road nodes; asymmetry {report.asymmetry:.3f}, "
        f"one-way pairs {100 * report.one_way_share:.1f}%, mean speed {report.mean_speed_kmh:.1f} km/h; written to {target}"
    )
    if not report.ok:
        raise FrontiercoError(f"city checks failed: finite={report.finite}, triangle violations={report.triangle_violations}")


@app.command("import-rrnco")
def cities_import(
    ctx: typer.Context,
    directory: Path,
    out: Annotated[Path | None, typer.Option(help="destination folder (default: the workspace's instances/cities)")] = None,
) -> None:
    """Copy the RRNCO release's {City}_data.npz files (checked to read) into the cities folder."""
    from frontierco.problems.routing.cities.build import import_rrnco

    out = out if out is not None else context_of(ctx).required().root / "instances" / "cities"
    copied = import_rrnco(directory, out)
    console.print(f"imported {len(copied)} cities into {out}")
