"""Markdown and CSV renderings of the aggregates (fixed formatting, sorted rows: byte-stable); bold cells and
the leader as ``ranking.rank`` decides."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from frontierco.leaderboard import markdown
from frontierco.leaderboard.data import CollectionBoard
from frontierco.leaderboard.frontier import comparison_markdown
from frontierco.leaderboard.paired import paired, paired_csv_rows, paired_markdown, paired_with_best_classical
from frontierco.leaderboard.protocol import Protocol
from frontierco.leaderboard.ranking import leader, rank
from frontierco.problems import get_problem

COLUMNS = ("solver", "limit s", "runs", "feasible %", "optimal", "mean gap %", "score", "primal integral", "sgm time s", "beats reference")


def _fmt(value: float | None, digits: int) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


SUBSET_MARK = "◐"
UNSANDBOXED_MARK = "⚠"  # runs whose solver ran without a sandbox (harness/sandbox)


@dataclass(frozen=True)
class Cell:
    """A table cell as plain text (not markdown, not HTML) and whether it is bold (``ranking.rank``); each
    rendering escapes the text for its own format."""

    text: str
    best: bool = False


def cells(board: CollectionBoard) -> list[list[Cell]]:
    """Table cells per aggregate, in the order of ``COLUMNS``, bold as ``ranking.rank`` decides; a row on fewer
    instances shows its coverage and a mark."""
    ranking = rank(board)
    table = []
    for k, a in enumerate(board.aggregates):
        gap = None if a.mean_gap is None else 100 * a.mean_gap
        runs = str(a.runs) + ("" if a.scored == a.runs else f" ({a.runs - a.scored} unscored)")
        if k not in ranking.ranked:
            runs += f" {SUBSET_MARK} {board.coverage(a)}/{board.instances} instances"
        if unsandboxed := board.unsandboxed(a):
            runs += f" {UNSANDBOXED_MARK} {unsandboxed} unsandboxed"
        texts = [
            a.solver,
            f"{a.time_limit:g}",
            runs,
            f"{100 * a.feasible_share:.1f}",
            str(a.optimal),
            _fmt(gap, 3),
            _fmt(a.score, 4),
            _fmt(a.primal_integral, 4),
            f"{a.sgm_time:.2f}",
            f"{a.beats_reference} ⚑" if a.beats_reference else "0",
        ]
        table.append([Cell(text, ranking.bold(column, k)) for column, text in zip(COLUMNS, texts, strict=True)])
    return table


def rows(board: CollectionBoard) -> list[list[str]]:
    """The cells of ``cells`` as markdown: the solver name escaped, a bold value between ``**``."""
    return [[markdown.name(row[0].text), *(f"**{cell.text}**" if cell.best else cell.text for cell in row[1:])] for row in cells(board)]


def collection_markdown(board: CollectionBoard, protocol: Protocol, figures: list[str]) -> str:
    c = board.collection
    lines = [f"# {markdown.name(c.name)}", "", f"{c.description} ({c.problem}, {len(c.entries)} instances, version {c.version}).", ""]
    lines += ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(row) + " |" for row in rows(board)]
    lines += [
        "",
        "Mean primal gap |f - f*| / max(|f|, |f*|) over the runs of instances that have a reference (1 for a run without",
        "a feasible solution), score = 1 - mean gap, primal integral over [0, limit] divided by the limit, shifted",
        f"geometric mean of the time to the best solution (shift {get_problem(c.problem).time_shift:g} s; the limit when unsolved).",
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
            "Mean primal gap against size (generators' n, or the count in a library instance's name) of each learned solver",
            "and of the classical solver with the lowest mean gap, on the same instances: per collection and quarter",
            "decade of size, the instances every learned solver there ran on.",
            "",
        ]
        lines += [f"![{name}](figures/{name})" for name in overview]
    if sized:
        lines += ["", "## Every solver by instance size", ""]
        lines += [
            "Mean primal gap against size (the manifest's declared size, generators' n, or the count in a library instance's",
            "name) of each solver at each time limit: a point per collection and quarter decade of size, over the",
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


def excerpt_markdown(boards: list[CollectionBoard], learned: set[str] | frozenset[str]) -> str:
    """The short tables the project README shows: each collection's leading solver, and FrontierCO's comparison
    (the best learned row against the best classical row on each of FrontierCO's sets)."""
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
    if compared := comparison_markdown(boards, learned):
        lines += ["", "FrontierCO's comparison on its sets (details: [leaderboards/README.md](leaderboards/README.md)):", "", *compared]
    return "\n".join(lines) + "\n"
