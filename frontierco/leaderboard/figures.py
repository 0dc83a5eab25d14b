"""Figures as deterministic SVG: primal gap over time, performance profiles, per-instance gap heatmap.

Each figure is split in two: its data (plain numbers and names, computed from the board) and its drawing
(matplotlib, from that data alone). ``drawn`` keeps every drawing in a cache keyed by the sha256 of the
drawing's code, matplotlib's version and the data, so that a build draws only the figures whose input
changed; the SVG is the same bytes either way.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import os
import sys
from collections import defaultdict
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

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
    _share_mathtext_parses()
    return plt


@functools.cache
def _share_mathtext_parses() -> None:
    """matplotlib caches each mathtext parse (the log axes' tick labels, ``$\\mathdefault{10^{1}}$``) per parser
    object, and every renderer makes its own parser (two per saved figure: ``bbox_inches="tight"`` draws once to
    measure), so every label was parsed again in every figure, a fifth of the drawing time. One cache for all
    parsers of an output type instead: a parse is a function of its arguments and of rcParams, which are the
    same for every figure (set above). The SVG is the same bytes."""
    from matplotlib.mathtext import MathTextParser

    parse = MathTextParser._parse_cached.__wrapped__  # type: ignore[attr-defined]
    parsers = {"vector": MathTextParser("path"), "raster": MathTextParser("agg")}

    @functools.lru_cache(maxsize=4096)
    def shared(output_type: str, *args: Any) -> Any:
        return parse(parsers[output_type], *args)

    MathTextParser._parse_cached = lambda self, *args: shared(self._output_type, *args)  # type: ignore[attr-defined]


def svg_text(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "frontierco"}, bbox_inches="tight")
    pyplot().close(figure)
    return buffer.getvalue()


_cache: list[Path | None] = [None]  # the figure cache of the build under way (``begin``); None: every figure drawn


def figure_cache() -> Path | None:
    """Where the build under way keeps drawn figures (``begin``'s ``cache``: the context's ``Context.figures()``,
    from ``FRONTIERCO_FIGURE_CACHE``, else ``figures/`` in the file store's cache); None: none, every figure drawn."""
    return _cache[0]


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray | np.generic):
        return value.tolist()
    raise TypeError(f"not figure data: {type(value).__name__}")


@functools.cache
def _source(module: str) -> bytes:
    return Path(str(sys.modules[module].__file__)).read_bytes()


@functools.cache
def _matplotlib_version() -> str:
    """Read once: ``importlib.metadata.version`` parses the package's metadata on every call (a third of a
    cached build's time went there when each figure asked for it)."""
    return version("matplotlib")


def _drawing_key(draw: Callable[..., str], args: tuple[Any, ...]) -> str:
    """sha256 of what the drawing depends on: its module's and this module's source, matplotlib's and numpy's
    versions, the drawing's name and its arguments as JSON (floats written exactly, in the order given). A
    matplotlibrc of the user's is not in it: the pinned build runs without one."""
    digest = hashlib.sha256()
    for module in sorted({__name__, draw.__module__}):
        digest.update(_source(module))
    digest.update(json.dumps([_matplotlib_version(), np.__version__, draw.__qualname__, args], default=_plain).encode())
    return digest.hexdigest()


KEYS = "figures/keys.json"  # in the leaderboard folder: drawing key -> sha256 of the SVG it made, at the last build
_committed: dict[str, str] = {}  # drawing key -> its SVG, from the leaderboard folder's committed figures
_made: dict[str, str] = {}  # drawing key -> sha256 of its SVG, for every drawing asked for since ``begin``


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def committed_drawings(folder: Path) -> dict[str, str]:
    """Drawing key -> SVG for the figures under ``folder`` that the last build wrote: ``figures/keys.json``
    names the sha256 each key's drawing had, and a committed SVG counts only while its bytes still have it
    (an SVG edited by hand is drawn again, and ``--check`` then names it)."""
    try:
        keys = json.loads((folder / KEYS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(keys, dict):
        return {}
    by_hash: dict[str, str] = {}
    for path in sorted((folder / "figures").glob("*.svg")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        by_hash.setdefault(_sha256(text), text)
    return {key: by_hash[digest] for key, digest in keys.items() if isinstance(digest, str) and digest in by_hash}


def begin(folder: Path | None, cache: Path | None = None) -> None:
    """Start a build of the leaderboard in ``folder`` with the figure cache ``cache`` (None: none, every figure
    drawn): its committed figures serve as a second cache (a fresh clone draws only what changed), and the keys
    made from here on are collected for ``keys_json``."""
    _committed.clear()
    _made.clear()
    _cache[0] = cache
    if folder is not None and figure_cache() is not None:
        _committed.update(committed_drawings(folder))


def keys_json() -> str:
    """The key file of the drawings made since ``begin``: sorted JSON, the same bytes for the same drawings."""
    return json.dumps(dict(sorted(_made.items())), indent=0) + "\n"


_ahead: list[tuple[Callable[..., str], tuple[Any, ...]]] | None = None  # the drawings draw_ahead collects


def drawn(draw: Callable[..., str], *args: Any) -> str:
    """``draw(*args)``, an SVG, taken from the figure cache or the committed figures when the same drawing of the
    same data was made before (while ``draw_ahead`` collects, a drawing found in neither is noted and "" returned)."""
    key = _drawing_key(draw, args)
    svg = _found(key)
    if svg is None:
        folder = figure_cache()
        if folder is None:
            svg = draw(*args)
        elif _ahead is not None:
            _ahead.append((draw, args))
            return ""
        else:
            svg = _draw_and_keep(draw, args, folder / f"{key}.svg")
    _made[key] = _sha256(svg)
    return svg


def _found(key: str) -> str | None:
    """The drawing of ``key`` from the figure cache, else from the committed figures; None without a cache."""
    folder = figure_cache()
    if folder is None:
        return None
    try:
        return (folder / f"{key}.svg").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return _committed.get(key)


def _draw_and_keep(draw: Callable[..., str], args: tuple[Any, ...], path: Path) -> str:
    svg = draw(*args)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_text(svg, encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass  # a cache that cannot be written only costs the next build the drawing
    return svg


def _draw_one(k: int) -> None:
    """In a forked process: the k-th drawing draw_ahead found missing, into the cache."""
    assert _ahead is not None
    folder = figure_cache()
    assert folder is not None
    draw, args = _ahead[k]
    _draw_and_keep(draw, args, folder / f"{_drawing_key(draw, args)}.svg")


def draw_ahead(every_figure: Callable[[], object], jobs: int = 0) -> int:
    """Run ``every_figure`` (which asks ``drawn`` for every figure of a build) to learn which figures the cache
    lacks, then draw those into the cache in ``jobs`` forked processes (``Context.figure_jobs``; 0: one per
    core this process may use): each drawing is a function of its data alone, so the bytes are those of drawing
    them one by one. Returns how many were drawn; nothing is done without a cache."""
    global _ahead
    if figure_cache() is None:
        return 0
    pending: list[tuple[Callable[..., str], tuple[Any, ...]]] = []
    _ahead = pending
    try:
        every_figure()
    finally:
        _ahead = None
    jobs = jobs or len(os.sched_getaffinity(0))
    if jobs <= 1 or len(pending) <= 1:
        return len([drawn(draw, *args) for draw, args in pending])
    import multiprocessing

    _ahead = pending  # the forked processes find their drawings here
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(pending))) as pool:
            pool.map(_draw_one, range(len(pending)), chunksize=1)
    finally:
        _ahead = None
    return len(pending)


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
    horizon = max(r.record.time_limit for r in scored)
    grid = np.linspace(0.0, horizon, 200)
    groups: dict[str, list[ScoredRun]] = defaultdict(list)
    for run in scored:
        groups[group_label(run)].append(run)
    series = []
    for label in sorted(groups):
        curves = np.array([_gap_curve(r, grid) for r in groups[label]]) * 100
        band = (np.percentile(curves, 25, axis=0), np.percentile(curves, 75, axis=0))
        series.append((f"{label}, median of {len(curves)}", np.median(curves, axis=0), *band))
    return drawn(_draw_gap_over_time, board.collection.name, horizon, series)


def _draw_gap_over_time(name: str, horizon: float, series: list[tuple[str, list[float], list[float], list[float]]]) -> str:
    plt = pyplot()
    grid = np.linspace(0.0, horizon, 200)
    figure, axis = plt.subplots(figsize=(6.4, 3.6))
    for label, median, low, high in series:
        axis.step(grid, np.asarray(median, dtype=np.float64), where="post", label=label)
        axis.fill_between(grid, np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64), step="post", alpha=0.2)
    axis.set_xlabel("time (s)")
    axis.set_ylabel("primal gap of best so far (%)")
    axis.set_yscale("symlog", linthresh=0.1)
    axis.set_title(f"{name}: primal gap over time (band: 25-75% of runs)")
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
    return drawn(_draw_performance_profile, board.collection.name, len(problems), list(shares.items()))


def _draw_performance_profile(name: str, count: int, shares: list[tuple[str, list[float]]]) -> str:
    taus = np.logspace(0, 2, 100)
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.6))
    for label, share in shares:
        axis.step(taus, share, where="post", label=label)
    axis.set_xscale("log")
    axis.set_xlabel("tau: within this factor of the fastest solver")
    axis.set_ylabel("share of runs solved (gap <= 0.01%)")
    axis.set_ylim(0, 1.02)
    axis.set_title(f"{name}: performance profile ({count} instance-seed pairs)")
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
    return drawn(_draw_gap_heatmap, board.collection.name, labels, instances, matrix)


def _draw_gap_heatmap(name: str, labels: list[str], instances: list[str], cells: list[list[float]]) -> str:
    matrix = np.asarray(cells, dtype=np.float64)
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(1.2 + 1.1 * len(labels), 1.0 + 0.18 * len(instances)))
    image = axis.imshow(matrix, aspect="auto", cmap="viridis_r", vmin=0.0, vmax=max(1.0, float(np.nanmax(matrix))))
    axis.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=7)
    axis.set_yticks(range(len(instances)), instances, fontsize=6)
    figure.colorbar(image, ax=axis, label="primal gap (%)")
    axis.set_title(f"{name}: gap per instance (mean over seeds)")
    return svg_text(figure)


def figures(board: CollectionBoard) -> dict[str, str]:
    """File name -> SVG text, for the figures that apply to this board."""
    made = {
        f"{board.collection.name}-gap-over-time.svg": gap_over_time(board),
        f"{board.collection.name}-performance-profile.svg": performance_profile(board),
        f"{board.collection.name}-heatmap.svg": gap_heatmap(board),
    }
    return {name: svg for name, svg in made.items() if svg is not None}
