"""FrontierCO's headline picture on our data: for each routing problem, the mean primal gap against instance
size of every learned solver and of the best classical solver at that size, from the run records."""

from __future__ import annotations

import re
from collections import defaultdict

import numpy as np

from frontierco.leaderboard.data import CollectionBoard
from frontierco.leaderboard.figures import group_label, pyplot, svg_text
from frontierco.manifests import GeneratedSource, InstanceEntry

PROBLEMS = ("tsp", "cvrp")
BINS_PER_DECADE = 4
CVRPLIB_NAME = re.compile(r"^[A-Za-z]+-n(\d+)-k\d+$")  # X-n101-k25: 101 nodes, the depot included
TSPLIB_NAME = re.compile(r"^[A-Za-z_]+(\d+)$")  # kroA100, pr2392: the number of cities


def nominal_size(entry: InstanceEntry) -> int | None:
    """Customers (CVRP) or nodes (TSP) without loading the instance: a generator's ``n``, else the count that
    CVRPLIB and TSPLIB names carry; None when neither says."""
    if isinstance(entry.source, GeneratedSource):
        n = entry.source.params.get("n")
        return n if isinstance(n, int) else None
    if (match := CVRPLIB_NAME.match(entry.name)) is not None:
        return int(match.group(1)) - 1
    if entry.problem == "tsp" and (match := TSPLIB_NAME.match(entry.name)) is not None:
        return int(match.group(1))
    return None


def _size_bin(size: int) -> int:
    return int(np.floor(np.log10(size) * BINS_PER_DECADE))


def _cells(boards: list[CollectionBoard], problem: str) -> dict[tuple[str, int], dict[str, dict[str, list[float]]]]:
    """(collection, size bin) -> group label -> instance -> gaps (%), for the runs with a gap and a size."""
    cells: dict[tuple[str, int], dict[str, dict[str, list[float]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for board in boards:
        if board.collection.problem != problem:
            continue
        for run in board.runs:
            size = nominal_size(board.collection.entry(run.record.instance))
            if run.gap is not None and size is not None and size >= 2:
                cells[(board.collection.name, _size_bin(size))][group_label(run)][run.record.instance].append(100 * run.gap)
    return cells


def learned_vs_classical(boards: list[CollectionBoard], learned: set[str], problem: str) -> str | None:
    """Mean gap against size of each learned solver (at each time limit) and of the best classical solver, on
    the same instances: a cell is the instances of one collection and size bin (a quarter decade) that every
    learned solver there ran on; a solver counts in a cell only with runs on all of them. None when no learned
    run of this problem has a size."""
    sizes = {b.collection.name: {e.name: nominal_size(e) for e in b.collection.entries} for b in boards if b.collection.problem == problem}
    learned_points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    classical_points: list[tuple[float, float, str]] = []
    for (collection, _), groups in sorted(_cells(boards, problem).items()):
        is_learned = {label: label.split(" (")[0].split("@")[0].split("{")[0] in learned for label in groups}
        learned_sets = [set(runs) for label, runs in groups.items() if is_learned[label]]
        shared = set.intersection(*learned_sets) if learned_sets else set()
        if not shared:
            continue
        x = float(np.exp(np.mean([np.log(sizes[collection][name]) for name in shared])))  # type: ignore[arg-type]
        means = {label: float(np.mean([np.mean(runs[name]) for name in shared])) for label, runs in groups.items() if shared <= set(runs)}
        for label, mean in means.items():
            if is_learned[label]:
                learned_points[label].append((x, mean))
        classical = {label: mean for label, mean in means.items() if not is_learned[label]}
        if classical:
            label = min(classical, key=lambda name: (classical[name], name))
            classical_points.append((x, classical[label], label))
    if not learned_points:
        return None
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.8))
    for label in sorted(learned_points):
        points = sorted(learned_points[label])
        axis.plot([x for x, _ in points], [y for _, y in points], marker="o", label=f"{label} (learned)")
    if classical_points:
        marks = sorted(classical_points)
        axis.plot(
            [x for x, _, _ in marks], [y for _, y, _ in marks], color="black", linestyle="--", marker="s", label="best classical solver"
        )
        for x, y, label in marks:
            axis.annotate(label, (x, y), textcoords="offset points", xytext=(4, -10), fontsize=6)
    axis.set_xscale("log")
    axis.set_yscale("symlog", linthresh=0.1)
    axis.set_ylim(bottom=0.0)
    axis.set_xlabel("customers" if problem == "cvrp" else "nodes")
    axis.set_ylabel("mean primal gap (%)")
    axis.set_title(f"{problem}: learned solvers and the best classical one, by instance size (same instances)")
    axis.legend(fontsize=6)
    return svg_text(figure)


def learned_figures(boards: list[CollectionBoard], learned: set[str]) -> dict[str, str]:
    """File name -> SVG, one per routing problem with learned runs."""
    made = {f"learned-vs-classical-{p}.svg": learned_vs_classical(boards, learned, p) for p in PROBLEMS}
    return {name: svg for name, svg in made.items() if svg is not None}
