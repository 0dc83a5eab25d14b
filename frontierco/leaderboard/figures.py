"""Figures as deterministic SVG: primal gap over time, performance profiles, per-instance gap heatmap."""

from __future__ import annotations

import io
import math
from collections import defaultdict

import numpy as np

from frontierco import metrics
from frontierco.leaderboard.data import CollectionBoard
from frontierco.metrics import FEASIBLE_STATUSES, ScoredRun, primal_gap

HEATMAP_MAX_INSTANCES = 60


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "frontierco", "svg.fonttype": "none", "font.size": 9, "figure.dpi": 100})
    return plt


def svg_text(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "frontierco"}, bbox_inches="tight")
    pyplot().close(figure)
    return buffer.getvalue()


def group_label(run: ScoredRun) -> str:
    return f"{run.record.row_name} ({run.record.time_limit:g} s)"


def _gap_curve(run: ScoredRun, grid: np.ndarray) -> np.ndarray:
    curve = np.ones_like(grid)
    if run.reference is None or run.record.status not in FEASIBLE_STATUSES:
        return curve
    for t, objective in run.record.trace:
        curve[grid >= t] = primal_gap(objective, run.reference)
    return curve


def gap_over_time(board: CollectionBoard) -> str | None:
    scored = [r for r in board.runs if r.reference is not None]
    if not scored:
        return None
    plt = pyplot()
    horizon = max(r.record.time_limit for r in scored)
    grid = np.linspace(0.0, horizon, 200)
    groups: dict[str, list[ScoredRun]] = defaultdict(list)
    for run in scored:
        groups[group_label(run)].append(run)
    figure, axis = plt.subplots(figsize=(6.4, 3.6))
    for label in sorted(groups):
        curves = np.array([_gap_curve(r, grid) for r in groups[label]]) * 100
        axis.step(grid, np.median(curves, axis=0), where="post", label=f"{label}, median of {len(curves)}")
        axis.fill_between(grid, np.percentile(curves, 25, axis=0), np.percentile(curves, 75, axis=0), step="post", alpha=0.2)
    axis.set_xlabel("time (s)")
    axis.set_ylabel("primal gap of best so far (%)")
    axis.set_yscale("symlog", linthresh=0.1)
    axis.set_title(f"{board.collection.name}: primal gap over time (band: 25-75% of runs)")
    axis.legend(fontsize=7)
    return svg_text(figure)


def performance_profile(board: CollectionBoard) -> str | None:
    """Dolan-More profile of the time to reach a gap of at most 0.01% (unsolved: never)."""
    scored = [r for r in board.runs if r.reference is not None]
    groups: dict[str, dict[tuple[str, int], float]] = defaultdict(dict)
    for run in scored:
        groups[group_label(run)][(run.record.instance, run.record.seed)] = max(run.time_to_solve, 1e-3)
    if len(groups) < 2:
        return None
    problems = sorted({key for costs in groups.values() for key in costs})
    taus = np.logspace(0, 2, 100)
    shares = metrics.performance_profile(
        {label: [groups[label].get(p, math.inf) for p in problems] for label in sorted(groups)}, taus.tolist()
    )
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.6))
    for label, share in shares.items():
        axis.step(taus, share, where="post", label=label)
    axis.set_xscale("log")
    axis.set_xlabel("tau: within this factor of the fastest solver")
    axis.set_ylabel("share of runs solved (gap <= 0.01%)")
    axis.set_ylim(0, 1.02)
    axis.set_title(f"{board.collection.name}: performance profile ({len(problems)} instance-seed pairs)")
    axis.legend(fontsize=7)
    return svg_text(figure)


def gap_heatmap(board: CollectionBoard) -> str | None:
    scored = [r for r in board.runs if r.gap is not None]
    instances = sorted({r.record.instance for r in scored})
    if not scored or len(instances) > HEATMAP_MAX_INSTANCES:
        return None
    labels = sorted({group_label(r) for r in scored})
    cells: dict[tuple[str, str], list[float]] = defaultdict(list)
    for run in scored:
        cells[(run.record.instance, group_label(run))].append(100 * run.gap)  # type: ignore[operator]
    matrix = np.array([[np.mean(cells[(i, s)]) if cells[(i, s)] else np.nan for s in labels] for i in instances])
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(1.2 + 1.1 * len(labels), 1.0 + 0.18 * len(instances)))
    image = axis.imshow(matrix, aspect="auto", cmap="viridis_r", vmin=0.0, vmax=max(1.0, float(np.nanmax(matrix))))
    axis.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=7)
    axis.set_yticks(range(len(instances)), instances, fontsize=6)
    figure.colorbar(image, ax=axis, label="primal gap (%)")
    axis.set_title(f"{board.collection.name}: gap per instance (mean over seeds)")
    return svg_text(figure)


def figures(board: CollectionBoard) -> dict[str, str]:
    """File name -> SVG text, for the figures that apply to this board."""
    made = {
        f"{board.collection.name}-gap-over-time.svg": gap_over_time(board),
        f"{board.collection.name}-performance-profile.svg": performance_profile(board),
        f"{board.collection.name}-heatmap.svg": gap_heatmap(board),
    }
    return {name: svg for name, svg in made.items() if svg is not None}
