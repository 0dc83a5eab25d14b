"""leaderboard/tables.py: which cells are bold, how a row on fewer instances shows, the CSV and the excerpt."""

from frontierco.leaderboard.data import boards
from frontierco.leaderboard.tables import COLUMNS, SUBSET_MARK, aggregates_csv, excerpt_markdown, rows
from frontierco.results import ResultStore
from tests.helpers import record


def _board(registry, folder):
    (board,) = boards(registry, list(ResultStore(folder / "runs").records()))
    return board


def _cells(board):
    return {row[0]: dict(zip(COLUMNS, row, strict=True)) for row in rows(board)}


def test_the_best_value_of_each_column_is_bold_and_the_worse_is_not(board_setup):
    cells = _cells(_board(*board_setup))
    a, b = cells["a"], cells["b"]
    assert (a["feasible %"], a["optimal"], a["mean gap %"], a["score"]) == ("**100.0**", "**1**", "**4.545**", "**0.9545**")
    assert (b["feasible %"], b["optimal"], b["mean gap %"], b["score"]) == ("50.0", "0", "55.000", "0.4500")
    assert (a["beats reference"], b["beats reference"]) == ("0", "1 ⚑")
    assert a["runs"] == "2" and a["limit s"] == "10"


def test_a_row_on_fewer_instances_shows_its_coverage_and_is_never_bold_however_good(board_setup):
    registry, folder = board_setup
    ResultStore(folder / "runs").append(record("c", "t1", "optimal", 10.0, [(0.5, 10.0)]))  # perfect, but on one instance of two
    cells = _cells(_board(registry, folder))
    assert cells["c"]["runs"] == f"1 {SUBSET_MARK} 1/2 instances"
    assert not any("**" in value for value in cells["c"].values())
    assert cells["a"]["mean gap %"] == "**4.545**"  # the ranking is among the complete rows only


def test_nothing_is_bold_when_one_row_alone_ran_on_every_instance(board_setup):
    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    for path in (folder / "runs").rglob("b.*"):
        path.unlink()  # b's records and their index: a alone is left
    assert {r.solver for r in store.records()} == {"a"}
    (row,) = rows(_board(registry, folder))
    assert not any("**" in cell for cell in row)


def test_tied_values_are_bold_in_both_rows(board_setup):
    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    store.append(record("d", "t1", "feasible", 11.0, [(1.0, 12.0), (4.0, 11.0)]))  # a's runs again
    store.append(record("d", "t2", "optimal", 10.0, [(2.0, 10.0)]))
    cells = _cells(_board(registry, folder))
    assert cells["a"]["mean gap %"] == cells["d"]["mean gap %"] == "**4.545**"


def test_the_csv_has_a_row_per_aggregate_and_the_excerpt_names_the_leader(board_setup):
    board = _board(*board_setup)
    lines = aggregates_csv([board]).splitlines()
    assert lines[0].startswith("collection,problem,solver,time_limit,runs,scored_runs,")
    assert [line.split(",")[2] for line in lines[1:]] == ["a", "b"]
    assert lines[2].startswith("tiny,tsp,b,10,2,2,0.500000,0,0.55000000,0.45000000,")
    excerpt = excerpt_markdown([board], set()).splitlines()
    assert excerpt[2] == "| [tiny](leaderboards/tiny.md) | tsp | a (10 s) | 4.545 | 100.0 | 2 |"
