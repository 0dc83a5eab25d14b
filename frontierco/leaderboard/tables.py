"""Markdown and CSV renderings of the aggregates (fixed formatting, sorted rows: byte-stable)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from frontierco.leaderboard import markdown
from frontierco.leaderboard.data import CollectionBoard, leader
from frontierco.leaderboard.paired import paired, paired_csv_rows, paired_markdown, paired_with_best_classical
from frontierco.leaderboard.protocol import Protocol
from frontierco.metrics import Aggregate

COLUMNS = ("solver", "limit s", "runs", "feasible %", "optimal", "mean gap %", "score", "primal integral", "sgm time s", "beats reference")


def _fmt(value: float | None, digits: int) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _best(aggregates: list[Aggregate], key: Callable[[Aggregate], float | None], lowest: bool, ranked: set[int]) -> set[int]:
    values = [(value, k) for k, a in enumerate(aggregates) if k in ranked and (value := key(a)) is not None]
    if not values:
        return set()
    target = min(v for v, _ in values) if lowest else max(v for v, _ in values)
    return {k for v, k in values if v == target}


SUBSET_MARK = "◐"
UNSANDBOXED_MARK = "⚠"  # runs whose solver ran without a sandbox (harness/sandbox)


def rows(board: CollectionBoard) -> list[list[str]]:
    """Table cells per aggregate, the best value of each measured column in bold among the rows that ran on
    every instance of the board; a row on fewer instances shows its coverage and a mark, and is never bold."""
    aggregates = board.aggregates
    ranked = {k for k, a in enumerate(aggregates) if board.comparable(a)}
    best = {
        "feasible": _best(aggregates, lambda a: a.feasible_share, False, ranked),
        "optimal": _best(aggregates, lambda a: float(a.optimal), False, ranked),
        "gap": _best(aggregates, lambda a: a.mean_gap, True, ranked),
        "score": _best(aggregates, lambda a: a.score, False, ranked),
        "integral": _best(aggregates, lambda a: a.primal_integral, True, ranked),
        "time": _best(aggregates, lambda a: a.sgm_time, True, ranked),
    }

    def mark(text: str, column: str, k: int) -> str:
        return f"**{text}**" if k in best[column] and len(ranked) > 1 else text

    table = []
    for k, a in enumerate(aggregates):
        gap = None if a.mean_gap is None else 100 * a.mean_gap
        runs = str(a.runs) + ("" if a.scored == a.runs else f" ({a.runs - a.scored} unscored)")
        if k not in ranked:
            runs += f" {SUBSET_MARK} {board.coverage(a)}/{board.instances} instances"
        if unsandboxed := board.unsandboxed(a):
            runs += f" {UNSANDBOXED_MARK} {unsandboxed} unsandboxed"
        table.append(
            [
                a.solver,
                f"{a.time_limit:g}",
                runs,
                mark(f"{100 * a.feasible_share:.1f}", "feasible", k),
                mark(str(a.optimal), "optimal", k),
                mark(_fmt(gap, 3), "gap", k),
                mark(_fmt(a.score, 4), "score", k),
                mark(_fmt(a.primal_integral, 4), "integral", k),
                mark(f"{a.sgm_time:.2f}", "time", k),
                f"{a.beats_reference} ⚑" if a.beats_reference else "0",
            ]
        )
    return table


def collection_markdown(board: CollectionBoard, protocol: Protocol, figures: list[str]) -> str:
    c = board.collection
    lines = [f"# {markdown.name(c.name)}", "", f"{c.description} ({c.problem}, {len(c.entries)} instances, version {c.version}).", ""]
    lines += ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join([markdown.name(row[0]), *row[1:]]) + " |" for row in rows(board)]
    lines += [
        "",
        "Mean primal gap |f - f*| / max(|f|, |f*|) over the runs of instances that have a reference (1 for a run without",
        "a feasible solution), score = 1 - mean gap, primal integral over [0, limit] divided by the limit, shifted",
        "geometric mean of the time to the best solution (shift 1 s routing/MIS, 10 s MILP; the limit when unsolved).",
        "Best values in bold among the rows that ran on every instance of this board; a row on fewer instances shows",
        f"its coverage ({SUBSET_MARK}) and is neither bold nor the leader. The leader has the lowest mean gap, then the lowest",
        "primal integral, then the lowest time. ⚑ counts runs that beat the reference (see `frontierco reference",
        "update`). Each solver's newest version only (runs of older versions stay in the records).",
    ]
    if any(board.unsandboxed(a) for a in board.aggregates):
        lines += [
            "",
            f"{UNSANDBOXED_MARK} runs made without a sandbox (neither Landlock nor bubblewrap worked where they ran, or it was",
            "turned off): their solver could read the references and write outside its folder.",
        ]
    if board.dropped:
        lines += ["", f"Runs left out because their instance left the collection or changed since they ran: {board.dropped}."]
    if board.instances_without_reference:
        lines += [
            "",
            f"Instances without a reference value yet (their runs are not in the gaps): {len(board.instances_without_reference)}.",
        ]
    lines += [""] + paired_markdown(paired(board), paired_with_best_classical(board))
    lines += [protocol.markdown(), ""]
    lines += [f"![{name}](figures/{name})" for name in figures]
    return "\n".join(lines) + "\n"


def index_markdown(
    boards: list[CollectionBoard], protocol: Protocol, overview: list[str], sized: list[str], published: list[str] | None = None
) -> str:
    lines = [
        "# Leaderboards",
        "",
        "Rebuilt by `frontierco leaderboard build` from the run records in `runs/`; CI fails when this page differs",
        "from a fresh build. The HTML page with every table and figure is `site/index.html`.",
        "",
        "| collection | problem | instances | solvers | runs | leading solver | its mean gap % |",
        "|---|---|---|---|---|---|---|",
    ]
    for board in boards:
        best = leader(board)
        leading = f"{markdown.name(best.solver)} ({best.time_limit:g} s)" if best else "n/a"
        gap = _fmt(None if best is None else 100 * best.mean_gap, 3)  # type: ignore[operator]
        c = board.collection
        solvers = len({a.solver for a in board.aggregates})
        title = markdown.name(c.name)
        lines.append(f"| [{title}]({c.name}.md) | {c.problem} | {len(c.entries)} | {solvers} | {len(board.runs)} | {leading} | {gap} |")
    if overview:
        lines += ["", "## Learned solvers against the best classical one, by instance size", ""]
        lines += [
            "Mean primal gap against size (generators' n, or the count in TSPLIB/CVRPLIB names) of each learned solver",
            "and of the classical solver with the lowest mean gap, on the same instances: per collection and quarter",
            "decade of size, the instances every learned solver there ran on.",
            "",
        ]
        lines += [f"![{name}](figures/{name})" for name in overview]
    if sized:
        lines += ["", "## Every solver by instance size", ""]
        lines += [
            "Mean primal gap against size (the manifest's declared size, generators' n, or the count in TSPLIB/CVRPLIB",
            "names) of each solver at each time limit: a point per collection and quarter decade of size, over the",
            "instances of that cell the solver ran on (a solver's points may cover different instances).",
            "",
        ]
        lines += [f"![{name}](figures/{name})" for name in sized]
    lines += published or []  # FrontierCO's test sets (leaderboard/published.py)
    lines += ["", protocol.markdown(), ""]
    return "\n".join(lines)


def aggregates_csv(boards: list[CollectionBoard]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "collection",
            "problem",
            "solver",
            "time_limit",
            "runs",
            "scored_runs",
            "feasible_share",
            "optimal",
            "mean_gap",
            "score",
            "primal_integral",
            "sgm_time",
            "beats_reference",
        ]
    )
    for board in boards:
        for a in board.aggregates:
            writer.writerow(
                [
                    board.collection.name,
                    board.collection.problem,
                    a.solver,
                    f"{a.time_limit:g}",
                    a.runs,
                    a.scored,
                    f"{a.feasible_share:.6f}",
                    a.optimal,
                    _fmt(a.mean_gap, 8),
                    _fmt(a.score, 8),
                    _fmt(a.primal_integral, 8),
                    f"{a.sgm_time:.6f}",
                    a.beats_reference,
                ]
            )
    return buffer.getvalue()


def paired_csv(boards: list[CollectionBoard]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["collection", "solver", "baseline", "time_limit", "instances", "wins", "ties", "losses", "geometric_mean", "low", "high"]
    writer.writerow([*header, "against"])
    for board in boards:
        writer.writerows(paired_csv_rows(board))
    return buffer.getvalue()


def excerpt_markdown(boards: list[CollectionBoard]) -> str:
    """The short table the project README shows: each collection's leading solver."""
    lines = ["| collection | problem | leading solver | mean gap % | feasible % | runs |", "|---|---|---|---|---|---|"]
    for board in boards:
        best = leader(board)
        if best is None:
            continue
        lines.append(
            f"| [{markdown.name(board.collection.name)}](leaderboards/{board.collection.name}.md) | {board.collection.problem} | "
            f"{markdown.name(best.solver)} ({best.time_limit:g} s) | "
            f"{100 * best.mean_gap:.3f} | {100 * best.feasible_share:.1f} | {best.runs} |"  # type: ignore[operator]
        )
    return "\n".join(lines) + "\n"
