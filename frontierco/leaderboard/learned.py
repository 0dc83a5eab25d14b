"""FrontierCO's headline picture on our data: for each problem with a size axis, the mean primal gap against instance
size of every learned solver and of the best classical solver at that size, from the run records."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from frontierco.leaderboard.data import CollectionBoard
from frontierco.leaderboard.figures import drawn, group_label, pyplot, svg_text
from frontierco.leaderboard.sizes import UNITS, cells, nominal_size


def learned_vs_classical(boards: list[CollectionBoard], learned: set[str], problem: str) -> str | None:
    """Mean gap against size of each learned solver (at each time limit) and of the best classical solver, on
    the same instances: a cell is the instances of one collection and size bin (a quarter decade) that every
    learned solver there ran on; a solver counts in a cell only with runs on all of them. None when no learned
    run of this problem has a size."""
    sizes = {b.collection.name: {e.name: nominal_size(e) for e in b.collection.entries} for b in boards if b.collection.problem == problem}
    learned_points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    classical_points: list[tuple[float, float, str]] = []
    solver_of = {group_label(run): run.record.solver for board in boards for run in board.runs}
    for (collection, _), groups in sorted(cells(boards, problem).items()):
        is_learned = {label: solver_of[label] in learned for label in groups}
        learned_sets = [set(runs) for label, runs in groups.items() if is_learned[label]]
        shared = set.intersection(*learned_sets) if learned_sets else set()
        if not shared:
            continue
        x = float(np.exp(np.mean([np.log(sizes[collection][name]) for name in sorted(shared)])))  # type: ignore[arg-type]
        means = {
            label: float(np.mean([np.mean(runs[name]) for name in sorted(shared)])) for label, runs in groups.items() if shared <= set(runs)
        }
        for label, mean in means.items():
            if is_learned[label]:
                learned_points[label].append((x, mean))
        classical = {label: mean for label, mean in means.items() if not is_learned[label]}
        if classical:
            label = min(classical, key=lambda name: (classical[name], name))
            classical_points.append((x, classical[label], label))
    if not learned_points:
        return None
    lines = [(label, sorted(learned_points[label])) for label in sorted(learned_points)]
    return drawn(_draw_learned_vs_classical, problem, lines, sorted(classical_points))


def _draw_learned_vs_classical(problem: str, lines: list[tuple[str, list[list[float]]]], marks: list[list[Any]]) -> str:
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.8))
    for label, points in lines:
        axis.plot([x for x, _ in points], [y for _, y in points], marker="o", label=f"{label} (learned)")
    if marks:
        axis.plot(
            [x for x, _, _ in marks], [y for _, y, _ in marks], color="black", linestyle="--", marker="s", label="best classical solver"
        )
        for x, y, label in marks:
            axis.annotate(label, (x, y), textcoords="offset points", xytext=(4, -10), fontsize=6)
    axis.set_xscale("log")
    axis.set_yscale("symlog", linthresh=0.1)
    axis.set_ylim(bottom=0.0)
    axis.set_xlabel(UNITS[problem])
    axis.set_ylabel("mean primal gap (%)")
    axis.set_title(f"{problem}: learned solvers and the best classical one, by instance size (same instances)")
    axis.legend(fontsize=6)
    return svg_text(figure)


def learned_figures(boards: list[CollectionBoard], learned: set[str]) -> dict[str, str]:
    """File name -> SVG, one per sized problem with learned runs."""
    made = {f"learned-vs-classical-{p}.svg": learned_vs_classical(boards, learned, p) for p in UNITS}
    return {name: svg for name, svg in made.items() if svg is not None}
