import math

import numpy as np
import pytest

from frontierco.leaderboard.build import build
from frontierco.leaderboard.data import boards
from frontierco.leaderboard.paired import SHIFT, bootstrap_interval, paired
from frontierco.results import ResultStore
from tests.helpers import record


def test_ratios_wins_and_the_geometric_mean_by_hand(board_setup):
    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    for name, trace in (("t1", [(1.0, 12.0), (4.0, 11.0)]), ("t2", [(2.0, 10.0)])):  # c ran exactly as a did
        store.append(record("c", name, "feasible", trace[-1][1], trace))
    (board,) = boards(registry, list(store.records()))
    by_solver = {p.solver: p for p in paired(board, baseline="a")}
    assert set(by_solver) == {"b", "c"}
    # integrals of a: t1 (1 + 3 * 2/12 + 6/11) / 10, t2 0.2; b: t1 crashed (1), t2 gap 1 until 5 s then 0.1
    a1, a2, b1, b2 = (1 + 3 * 2 / 12 + 6 / 11) / 10, 0.2, 1.0, (5 + 5 * 0.1) / 10
    ratios = [(b1 + SHIFT) / (a1 + SHIFT), (b2 + SHIFT) / (a2 + SHIFT)]
    b = by_solver["b"]
    assert (b.instances, b.wins, b.ties, b.losses) == (2, 0, 0, 2)
    assert b.geometric_mean == pytest.approx(math.sqrt(ratios[0] * ratios[1]))
    assert min(ratios) <= b.low <= b.geometric_mean <= b.high <= max(ratios)
    c = by_solver["c"]
    assert (c.wins, c.ties, c.losses, c.geometric_mean) == (0, 2, 0, pytest.approx(1.0))


def test_no_baseline_on_the_board_means_no_paired_section(board_setup):
    registry, folder = board_setup
    (board,) = boards(registry, list(ResultStore(folder / "runs").records()))
    assert paired(board) == []  # tsp's baseline is lkh, which did not run here
    page = build(folder / "runs", registry)["tiny.md"].decode()
    assert "## Paired against lkh" not in page
    assert "## Paired against the best classical row" in page  # a, the strongest row that ran everywhere


def test_the_paired_section_is_on_the_page_in_the_csv_and_on_the_site(board_setup, monkeypatch):
    registry, folder = board_setup
    from dataclasses import replace

    from frontierco.problems import PROBLEMS

    monkeypatch.setitem(PROBLEMS, "tsp", replace(PROBLEMS["tsp"], baseline="a"))
    outputs = build(folder / "runs", registry)
    assert "## Paired against a" in outputs["tiny.md"].decode()
    assert "| b | 10 | 2 | 0 / 0 / 2 |" in outputs["tiny.md"].decode()
    assert outputs["paired.csv"].decode().splitlines()[1].startswith("tiny,b,a,10,2,0,0,2,")
    assert "Paired against a" in outputs["site/index.html"].decode()


def test_the_bootstrap_interval_is_reproducible_and_narrows_with_more_instances():
    rng = np.random.default_rng(1)
    few, many = rng.normal(0.0, 0.5, 5), rng.normal(0.0, 0.5, 200)
    assert bootstrap_interval(few) == bootstrap_interval(few)
    (low_few, high_few), (low_many, high_many) = bootstrap_interval(few), bootstrap_interval(many)
    assert high_many - low_many < high_few - low_few
    assert low_many < 1.0 < high_many  # centred on a ratio of 1


def test_every_row_is_also_paired_with_the_best_classical_row(board_setup, monkeypatch):
    """d (classical) beats the baseline a; c is learned and better still. The best classical row is d (lowest
    integral among the classical rows on every instance), and every other row is paired with it exactly as
    with a baseline named d; when d is learned too, the best classical row is the baseline a: no section."""
    from dataclasses import replace

    from frontierco.leaderboard.paired import best_classical, paired_with_best_classical
    from frontierco.problems import PROBLEMS

    monkeypatch.setitem(PROBLEMS, "tsp", replace(PROBLEMS["tsp"], baseline="a"))
    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    for name in ("t1", "t2"):
        store.append(record("d", name, "feasible", 10.5, [(1.0, 10.5)]))
        store.append(record("c", name, "feasible", 10.0, [(0.5, 10.0)]))
    (board,) = boards(registry, list(store.records()))
    assert best_classical(board, 10.0, learned={"c"}) == "d"
    strongest = paired_with_best_classical(board, learned={"c"})
    assert {p.solver for p in strongest} == {"a", "b", "c"} and {p.baseline for p in strongest} == {"d"}
    assert strongest == paired(board, baseline="d")
    assert next(p for p in strongest if p.solver == "c").wins == 2
    assert best_classical(board, 10.0, learned={"c", "d"}) == "a"
    assert paired_with_best_classical(board, learned={"c", "d"}) == []


def test_the_best_classical_section_is_on_the_page_in_the_csv_and_on_the_site(board_setup, monkeypatch):
    from dataclasses import replace

    from frontierco.problems import PROBLEMS

    monkeypatch.setitem(PROBLEMS, "tsp", replace(PROBLEMS["tsp"], baseline="a"))
    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    for name in ("t1", "t2"):
        store.append(record("d", name, "feasible", 10.5, [(1.0, 10.5)]))
    outputs = build(folder / "runs", registry)
    page = outputs["tiny.md"].decode()
    assert "## Paired against a" in page and "## Paired against the best classical row" in page
    assert "| a | d | 10 | 2 |" in page
    csv_lines = outputs["paired.csv"].decode().splitlines()
    assert csv_lines[0].endswith(",against")
    assert any(line.startswith("tiny,a,d,10,2,") and line.endswith(",best classical") for line in csv_lines)
    assert "Paired against the best classical row" in outputs["site/index.html"].decode()
