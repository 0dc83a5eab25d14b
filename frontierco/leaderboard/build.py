"""``frontierco leaderboard build``: a pure function of the run records (and the manifests' references)
to files: README.md, one markdown page per collection (its table and the paired statistics against its
problem's baseline), aggregates.csv, paired.csv, figures/*.svg, site/index.html
(which solvers are learned comes from their ``learned`` attribute).
``check`` builds in memory and names every file that differs from what is on disk."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from frontierco.leaderboard.data import CollectionBoard, boards
from frontierco.leaderboard.figures import KEYS, begin, draw_ahead, figures, keys_json
from frontierco.leaderboard.learned import learned_figures
from frontierco.leaderboard.paired import paired, paired_with_best_classical
from frontierco.leaderboard.protocol import Protocol
from frontierco.leaderboard.published import published_markdown
from frontierco.leaderboard.ranking import leader
from frontierco.leaderboard.sizes import size_figures
from frontierco.leaderboard.tables import (
    COLUMNS,
    aggregates_csv,
    cells,
    collection_markdown,
    excerpt_markdown,
    index_markdown,
    paired_csv,
)
from frontierco.registry import Registry
from frontierco.results import ResultStore, latest
from frontierco.solver import discover


def _encoded(svgs: dict[str, str]) -> list[dict[str, str]]:
    return [{"name": name, "data": base64.b64encode(svg.encode()).decode()} for name, svg in sorted(svgs.items())]


def _site(
    built: list[tuple[CollectionBoard, dict[str, str]]], learned: dict[str, str], sized: dict[str, str], protocol: Protocol, runs: int
) -> str:
    environment = Environment(loader=PackageLoader("frontierco.leaderboard"), autoescape=select_autoescape(["html", "j2"]))
    pages = []
    for board, svgs in built:
        best = leader(board)
        pages.append(
            {
                "name": board.collection.name,
                "problem": board.collection.problem,
                "description": board.collection.description,
                "instances": len(board.collection.entries),
                "runs": len(board.runs),
                "leader": f"{best.solver} ({best.time_limit:g} s)" if best else "n/a",
                "leader_gap": "n/a" if best is None else f"{100 * best.mean_gap:.3f}",  # type: ignore[operator]
                "rows": cells(board),  # plain text and the bold of ranking.rank; the template escapes the text
                "paired": paired(board),
                "strongest": paired_with_best_classical(board),
                "figures": _encoded(svgs),
            }
        )
    template = environment.get_template("index.html.j2")
    return template.render(
        boards=pages,
        overview=_encoded(learned),
        sized=_encoded(sized),
        columns=COLUMNS,
        protocol=protocol,
        protocol_text=protocol.markdown(),
        runs=runs,
    )


README_START = "<!-- leaderboard excerpt: start (written by frontierco leaderboard build) -->"
README_END = "<!-- leaderboard excerpt: end -->"


def with_excerpt(readme: str, excerpt: str) -> str:
    """The project README with its leaderboard excerpt section replaced."""
    if README_START not in readme or README_END not in readme:
        return readme
    head, rest = readme.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    return f"{head}{README_START}\n{excerpt}{README_END}{tail}"


def build(
    runs_root: Path,
    registry: Registry,
    solvers: Sequence[Path] | None = None,
    figure_cache: Path | None = None,
    figure_jobs: int = 0,
) -> dict[str, bytes]:
    """Every output file, by path relative to the leaderboard folder (the parent of ``runs_root``);
    ``excerpt.md`` is not written as a file but into the project README's marked section; ``figures/keys.json``
    names the drawing of each figure, so that the next build (a fresh clone's ``--check`` too) draws only the
    figures whose drawing or data changed. ``registry`` and the ``solvers`` folders are a context's
    (``Registry.of(context)``, ``context.layers("solvers")``; no folders: the suite's), and so are the figure cache
    and the processes that draw into it (``context.figures()``, ``context.figure_jobs``; no cache: every figure is
    drawn, the committed ones are not looked at)."""
    begin(runs_root.parent, figure_cache)  # the committed figures whose drawing is unchanged are taken as they are
    records = [r for r in latest(list(ResultStore(runs_root).records(only_admitted=True))) if not r.on_file]
    protocol = Protocol.of(records)
    built = []
    outputs: dict[str, bytes] = {}
    every_board = list(boards(registry, records))
    learned_names = {name for name, spec in discover(solvers).items() if spec.learned}

    def every_figure() -> None:
        for board in every_board:
            figures(board)
        learned_figures(every_board, learned_names)
        size_figures(every_board)

    draw_ahead(every_figure, figure_jobs)  # the figures the cache lacks, drawn in parallel; below every figure is then a cache hit
    for board in every_board:
        svgs = figures(board)
        built.append((board, svgs))
        board_protocol = Protocol.of([r.record for r in board.runs])
        outputs[f"{board.collection.name}.md"] = collection_markdown(board, board_protocol, sorted(svgs)).encode()
        for name, svg in svgs.items():
            outputs[f"figures/{name}"] = svg.encode()
    boards_only = [board for board, _ in built]
    learned = learned_figures(boards_only, learned_names)
    sized = size_figures(boards_only)
    for name, svg in (learned | sized).items():
        outputs[f"figures/{name}"] = svg.encode()
    published = published_markdown(registry, boards_only, learned_names)
    outputs["README.md"] = index_markdown(boards_only, protocol, sorted(learned), sorted(sized), published).encode()
    outputs["aggregates.csv"] = aggregates_csv(boards_only).encode()
    outputs["paired.csv"] = paired_csv(boards_only).encode()
    outputs[EXCERPT] = excerpt_markdown(boards_only, learned_names).encode()
    outputs["site/index.html"] = _site(built, learned, sized, protocol, len(records)).encode()
    outputs[KEYS] = keys_json().encode()
    return outputs


EXCERPT = "excerpt.md"


def _generated(folder: Path) -> set[str]:
    """Files a previous build wrote (what a fresh build may replace or remove)."""
    found = {str(p.relative_to(folder)) for p in folder.glob("*.md")} | {str(p.relative_to(folder)) for p in folder.glob("figures/*.svg")}
    found.discard(EXCERPT)
    for name in ("aggregates.csv", "paired.csv", "site/index.html"):
        if (folder / name).exists():
            found.add(name)
    return found


def _files(outputs: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data for name, data in outputs.items() if name != EXCERPT}


def write(folder: Path, outputs: dict[str, bytes], readme: Path | None = None) -> None:
    """Write the outputs into the leaderboard folder (removing files an earlier build made that this one
    does not), and the excerpt into ``readme`` when given."""
    files = _files(outputs)
    for stale in _generated(folder) - set(files):
        (folder / stale).unlink()
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if readme is not None and readme.exists():
        readme.write_text(with_excerpt(readme.read_text(), outputs[EXCERPT].decode()))


def check(folder: Path, outputs: dict[str, bytes], readme: Path | None = None) -> list[str]:
    """Paths that differ between a fresh build and what is on disk (missing, changed or left over). The key file
    of the figures is not compared: it is a cache (its keys name the library versions), not an output."""
    files = {name: data for name, data in _files(outputs).items() if name != KEYS}
    differing = [name for name, data in sorted(files.items()) if not (folder / name).exists() or (folder / name).read_bytes() != data]
    differing += sorted(_generated(folder) - set(files))
    if readme is not None and readme.exists() and with_excerpt(readme.read_text(), outputs[EXCERPT].decode()) != readme.read_text():
        differing.append(str(readme.name))
    return differing
