"""The figure cache: a build draws only the figures whose data changed, and a figure from the cache is the
same bytes as one drawn afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontierco.leaderboard import figures
from frontierco.leaderboard.build import build as build_with
from frontierco.results import ResultStore
from tests.helpers import record

_settings: dict[str, object] = {}


@pytest.fixture(autouse=True)
def _no_settings() -> None:
    _settings.clear()


def _use(cache: Path | None, jobs: int | None = None) -> None:
    """The figure cache (and the drawing jobs, when given) of the next builds, as the CLI passes a context's
    (``Context.figures()``, ``Context.figure_jobs``)."""
    _settings.update(figure_cache=cache, **({} if jobs is None else {"figure_jobs": jobs}))


def build(runs: Path, registry):  # type: ignore[no-untyped-def]
    return build_with(runs, registry, None, **_settings)  # type: ignore[arg-type]


def test_a_second_build_draws_nothing_and_a_changed_board_draws_only_its_changed_figures(board_setup, tmp_path, monkeypatch):
    registry, folder = board_setup
    _use(None)
    fresh = build(folder / "runs", registry)
    _use(tmp_path / "figure-cache", 1)  # drawn here, so that they can be counted
    drawings: list[str] = []
    real_svg_text = figures.svg_text

    def counted(figure) -> str:
        drawings.append(figure.axes[0].get_title())
        return real_svg_text(figure)

    monkeypatch.setattr(figures, "svg_text", counted)
    for module in ("frontierco.leaderboard.learned", "frontierco.leaderboard.sizes"):
        monkeypatch.setattr(f"{module}.svg_text", counted)
    cold = build(folder / "runs", registry)
    svgs = [name for name in fresh if name.endswith(".svg")]
    assert cold == fresh and len(drawings) == len(svgs) >= 2
    drawings.clear()
    assert build(folder / "runs", registry) == fresh and drawings == []
    ResultStore(folder / "runs").append(record("a", "t1", "feasible", 10.5, [(1.0, 12.0), (2.0, 10.5)], seed=1))
    changed = build(folder / "runs", registry)
    assert changed != fresh and 1 <= len(drawings) <= len(svgs)
    _use(None)
    assert build(folder / "runs", registry) == changed  # what the cache gave is what drawing gives


def test_the_key_changes_with_the_data_and_its_order():
    def draw(*args: object) -> str:
        return ""

    key = figures._drawing_key
    assert key(draw, ("x", [1.0, 2.0])) == key(draw, ("x", [1.0, 2.0]))
    assert len({key(draw, ("x", [1.0, 2.0])), key(draw, ("x", [2.0, 1.0])), key(draw, ("x", [1.0, 2.0000000000000004]))}) == 3


def test_figures_drawn_in_parallel_processes_are_the_same_bytes(board_setup, tmp_path, monkeypatch):
    registry, folder = board_setup
    _use(None)
    fresh = build(folder / "runs", registry)
    _use(tmp_path / "figure-cache", 2)
    assert build(folder / "runs", registry) == fresh
    assert len(list((tmp_path / "figure-cache").glob("*.svg"))) == len([name for name in fresh if name.endswith(".svg")])


def _count_drawings(monkeypatch) -> list[str]:
    drawings: list[str] = []
    real_svg_text = figures.svg_text

    def counted(figure) -> str:
        drawings.append(figure.axes[0].get_title())
        return real_svg_text(figure)

    for module in ("frontierco.leaderboard.figures", "frontierco.leaderboard.learned", "frontierco.leaderboard.sizes"):
        monkeypatch.setattr(f"{module}.svg_text", counted)
    return drawings


def test_a_fresh_clone_checks_the_committed_figures_without_drawing_them(board_setup, tmp_path, monkeypatch):
    """No figure cache on the machine (a fresh clone, CI): the committed key file names the drawing of each
    committed SVG, so ``--check`` takes them as they are; what a build writes is the same with or without it."""
    from frontierco.leaderboard.build import check, write

    registry, folder = board_setup
    _use(tmp_path / "first-machine", 1)
    outputs = build(folder / "runs", registry)
    write(folder, outputs)
    assert (folder / figures.KEYS).is_file()
    _use(tmp_path / "fresh-clone")
    drawings = _count_drawings(monkeypatch)
    again = build(folder / "runs", registry)
    assert drawings == [] and again == outputs and check(folder, again) == []
    _use(None)
    assert build(folder / "runs", registry) == outputs  # drawing them all gives the same bytes


def test_a_committed_figure_edited_by_hand_is_drawn_again_and_the_check_names_it(board_setup, tmp_path, monkeypatch):
    from frontierco.leaderboard.build import check, write

    registry, folder = board_setup
    _use(tmp_path / "first-machine", 1)
    write(folder, build(folder / "runs", registry))
    edited = sorted((folder / "figures").glob("*.svg"))[0]
    edited.write_text(edited.read_text().replace("</svg>", "<!-- edited --></svg>"))
    _use(tmp_path / "fresh-clone")
    drawings = _count_drawings(monkeypatch)
    assert check(folder, build(folder / "runs", registry)) == [f"figures/{edited.name}"]
    assert len(drawings) == 1


def test_the_key_file_is_a_cache_not_an_output_the_check_compares(board_setup, tmp_path, monkeypatch):
    from frontierco.leaderboard.build import check, write

    registry, folder = board_setup
    _use(tmp_path / "cache")
    outputs = build(folder / "runs", registry)
    write(folder, outputs)
    (folder / figures.KEYS).write_text("{}\n")  # keys of other library versions, or none: only slower
    assert check(folder, build(folder / "runs", registry)) == []
