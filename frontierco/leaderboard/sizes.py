"""Instance sizes without loading an instance, and the frontier's picture: every solver's mean primal gap
against instance size, per problem, from the run records."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from frontierco.leaderboard.data import CollectionBoard
from frontierco.leaderboard.figures import drawn, group_label, pyplot, svg_text
from frontierco.manifests import GeneratedSource, InstanceEntry
from frontierco.problems import PROBLEMS

UNITS = {name: problem.size_unit for name, problem in PROBLEMS.items() if problem.size_unit is not None}  # the sized problems
BINS_PER_DECADE = 4


def nominal_size(entry: InstanceEntry) -> int | None:
    """The size in its problem's ``size_unit`` without loading the instance: the manifest's declared ``size``, else a
    generator's ``n``, else the count the instance's name carries (``Problem.size_in_name``); None when none says."""
    if entry.size is not None:
        return entry.size
    if isinstance(entry.source, GeneratedSource):
        n = entry.source.params.get("n")
        return n if isinstance(n, int) else None
    return PROBLEMS[entry.problem].size_in_name(entry.name)


def _size_bin(size: int) -> int:
    return int(np.floor(np.log10(size) * BINS_PER_DECADE))


def cells(boards: list[CollectionBoard], problem: str) -> dict[tuple[str, int], dict[str, dict[str, list[float]]]]:
    """(collection, size bin) -> group label -> instance -> gaps (%), for the runs with a gap and a size."""
    found: dict[tuple[str, int], dict[str, dict[str, list[float]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for board in boards:
        if board.collection.problem != problem:
            continue
        for run in board.runs:
            size = nominal_size(board.collection.entry(run.record.instance))
            if run.gap is not None and size is not None and size >= 2:
                found[(board.collection.name, _size_bin(size))][group_label(run)][run.record.instance].append(100 * run.gap)
    return found


def gap_against_size(boards: list[CollectionBoard], problem: str) -> str | None:
    """Each solver's (at each time limit) mean gap per cell (one collection's instances in one quarter decade
    of size), at the cell's geometric mean size: a line per solver across sizes. None when no run of the
    problem has both a gap and a size, or all of them lie in one cell."""
    sizes = {b.collection.name: {e.name: nominal_size(e) for e in b.collection.entries} for b in boards if b.collection.problem == problem}
    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    found = cells(boards, problem)
    for (collection, _), groups in sorted(found.items()):
        for label, runs in groups.items():
            x = float(np.exp(np.mean([np.log(sizes[collection][name]) for name in runs])))  # type: ignore[arg-type]
            points[label].append((x, float(np.mean([np.mean(gaps) for gaps in runs.values()]))))
    if len(found) < 2:
        return None
    return drawn(_draw_gap_against_size, problem, [(label, sorted(points[label])) for label in sorted(points)])


def _draw_gap_against_size(problem: str, lines: list[tuple[str, list[list[float]]]]) -> str:
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(7.2, 4.2))
    colours = plt.get_cmap("tab20").colors
    for k, (label, line) in enumerate(lines):
        style = {"color": colours[k % len(colours)], "linestyle": ("-", "--", ":")[k // len(colours) % 3]}
        axis.plot([x for x, _ in line], [y for _, y in line], marker="o", markersize=3, linewidth=1, label=label, **style)
    axis.set_xscale("log")
    axis.set_yscale("symlog", linthresh=0.1)
    axis.set_ylim(bottom=0.0)
    axis.set_xlabel(UNITS[problem])
    axis.set_ylabel("mean primal gap (%)")
    axis.set_title(f"{problem}: mean primal gap against instance size (each point: one collection, a quarter decade)")
    axis.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return svg_text(figure)


def size_figures(boards: list[CollectionBoard]) -> dict[str, str]:
    """File name -> SVG, one per problem with runs at two sizes or more."""
    made = {f"gap-against-size-{p}.svg": gap_against_size(boards, p) for p in UNITS}
    return {name: svg for name, svg in made.items() if svg is not None}
