"""leaderboard/ranking.py: the one decision of which cells are bold and which row leads, and that the markdown
page, the README excerpt and the HTML site render that decision rather than re-deriving it."""

from frontierco.leaderboard.build import _site
from frontierco.leaderboard.data import boards
from frontierco.leaderboard.protocol import Protocol
from frontierco.leaderboard.ranking import MEASURED, leader, rank
from frontierco.leaderboard.tables import COLUMNS, cells, excerpt_markdown, index_markdown, rows
from frontierco.results import ResultStore
from tests.helpers import record


def _board(registry, folder, *extra):
    """The fixture's board (a on both instances, b on both), with ``extra`` records added."""
    (board,) = boards(registry, [*ResultStore(folder / "runs").records(), *extra])
    return board


def _index(board, solver):
    return next(k for k, a in enumerate(board.aggregates) if a.solver == solver)


def _bold(ranking, row):
    return {column for column in MEASURED if ranking.bold(column, row)}


def test_every_measured_column_is_a_column_of_the_tables():
    assert set(MEASURED) <= set(COLUMNS)


def test_each_column_names_its_best_rows_and_the_lowest_gap_leads(board_setup):
    board = _board(*board_setup)
    ranking = rank(board)
    a, b = _index(board, "a"), _index(board, "b")
    assert ranking.ranked == {a, b}
    assert {"feasible %", "optimal", "mean gap %", "score"} <= _bold(ranking, a)
    assert not {"feasible %", "optimal", "mean gap %", "score"} & _bold(ranking, b)
    for column in MEASURED:  # every column has a best row, and a row never both is and is not
        assert ranking.best[column] and ranking.best[column] <= {a, b}
    assert ranking.leader == a and leader(board) is board.aggregates[a]


def test_a_row_on_fewer_instances_is_neither_bold_nor_the_leader_however_good(board_setup):
    perfect = record("c", "t2", "optimal", 10.0, [(0.01, 10.0)])  # gap 0 at once, but on one instance of two
    board = _board(*board_setup, perfect)
    ranking = rank(board)
    c = _index(board, "c")
    assert board.aggregates[c].mean_gap == 0.0
    assert c not in ranking.ranked and _bold(ranking, c) == set()
    assert ranking.leader == _index(board, "a")
    assert "mean gap %" in _bold(ranking, _index(board, "a"))  # the ranking is among the complete rows only


def test_tied_values_are_bold_in_every_tied_row_and_the_name_breaks_a_full_tie(board_setup):
    twin = [record("d", "t1", "feasible", 11.0, [(1.0, 12.0), (4.0, 11.0)]), record("d", "t2", "optimal", 10.0, [(2.0, 10.0)])]
    board = _board(*board_setup, *twin)
    ranking = rank(board)
    a, d = _index(board, "a"), _index(board, "d")
    assert ranking.best["mean gap %"] == {a, d} and ranking.best["primal integral"] == {a, d}
    assert _bold(ranking, a) == _bold(ranking, d)
    assert ranking.leader == a  # equal gap, integral and time: the name decides, so the leader is stable


def test_one_complete_row_leads_but_nothing_is_bold(board_setup):
    registry, folder = board_setup
    only_a = [r for r in ResultStore(folder / "runs").records() if r.solver == "a"]
    (board,) = boards(registry, [*only_a, record("c", "t2", "optimal", 10.0, [(0.01, 10.0)])])
    ranking = rank(board)
    assert ranking.ranked == {_index(board, "a")} and not any(ranking.best.values())
    assert ranking.leader == _index(board, "a")


def test_no_row_on_every_instance_means_no_bold_and_no_leader(board_setup):
    registry, _ = board_setup
    (board,) = boards(registry, [record("a", "t1", "optimal", 10.0, [(1.0, 10.0)]), record("b", "t2", "optimal", 10.0, [(1.0, 10.0)])])
    ranking = rank(board)
    assert ranking.ranked == set() and not any(ranking.best.values()) and ranking.leader is None
    assert leader(board) is None and excerpt_markdown([board], set()).count("\n") == 2  # header lines only
    assert "| n/a | n/a |" in index_markdown([board], Protocol.of([]), [], [])


def test_markdown_and_site_cells_render_the_ranking(board_setup):
    board = _board(*board_setup, record("c", "t2", "optimal", 10.0, [(0.01, 10.0)]))
    ranking = rank(board)
    for k, (plain, marked) in enumerate(zip(cells(board), rows(board), strict=True)):
        for column, cell, text in zip(COLUMNS, plain, marked, strict=True):
            assert cell.best == ranking.bold(column, k)
            if column != "solver":
                assert text == (f"**{cell.text}**" if cell.best else cell.text)


def _site_of(board):
    return _site([(board, {})], {}, {}, Protocol.of([r.record for r in board.runs]), len(board.runs))


def test_the_site_does_not_read_bold_out_of_markdown(board_setup):
    """A solver whose name holds ``**`` (or HTML) shows literally: escaped on the page and in markdown, and
    bold only where the ranking says, which is never the solver column."""
    registry, folder = board_setup
    star, tag = "**star**", "<b>tag</b>"
    records = [
        *(r for r in ResultStore(folder / "runs").records()),
        record(star, "t1", "feasible", 11.0, [(1.0, 12.0), (4.0, 11.0)]),
        record(star, "t2", "optimal", 10.0, [(2.0, 10.0)]),
        record(tag, "t1", "crash", None, []),
        record(tag, "t2", "crash", None, []),
    ]
    (board,) = boards(registry, records)
    html = _site_of(board)
    assert "<td>**star**</td>" in html  # not "star" in a bold cell, as when the site stripped ``**`` off markdown
    assert "<td>&lt;b&gt;tag&lt;/b&gt;</td>" in html and "<b>tag</b>" not in html
    assert rows(board)[_index(board, star)][0] == r"\*\*star\*\*"
    bold_cells = html.count('class="best"')
    assert bold_cells == sum(len(rows_) for rows_ in rank(board).best.values())
    # the leader on the site's index is the ranking's (a and **star** tie; the name decides)
    assert rank(board).leader == _index(board, star) and "<td>**star** (10 s)</td>" in html
