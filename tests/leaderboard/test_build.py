import pytest

from frontierco.leaderboard.build import build, check, write
from frontierco.leaderboard.data import boards
from frontierco.leaderboard.ranking import leader
from frontierco.registry import Registry
from frontierco.results import ResultStore


def test_aggregates_hand_values(board_setup):
    registry, folder = board_setup
    (board,) = boards(registry, list(ResultStore(folder / "runs").records()))
    a, b = board.aggregates
    assert (a.solver, b.solver) == ("a", "b")
    assert a.mean_gap == pytest.approx((1 / 11 + 0) / 2)
    assert b.mean_gap == pytest.approx((1 + 0.1) / 2)  # a crash counts 1; 9 against 10 is 1/10
    assert a.optimal == 1 and b.feasible_share == 0.5
    assert b.beats_reference == 1 and a.beats_reference == 0
    # a on t1: gap 1 until t=1, 2/12 until 4, 1/11 until 10 -> (1 + 3 * 2/12 + 6/11) / 10; on t2: 1 until 2 -> 0.2
    assert a.primal_integral == pytest.approx(((1 + 3 * 2 / 12 + 6 / 11) / 10 + 0.2) / 2)


def test_markdown_marks_best_and_flags(board_setup):
    registry, folder = board_setup
    outputs = build(folder / "runs", registry)
    table = outputs["tiny.md"].decode()
    assert "| a | 10 | 2 | **100.0** | **1** | **4.545** |" in table
    assert "| 1 ⚑ |" in table
    assert "[tiny](tiny.md)" in outputs["README.md"].decode()
    assert outputs["aggregates.csv"].decode().splitlines()[1].startswith("tiny,tsp,a,10,2,2,1.000000,1,0.04545455")
    assert set(outputs) >= {
        "figures/tiny-gap-over-time.svg",
        "figures/tiny-performance-profile.svg",
        "figures/tiny-heatmap.svg",
        "site/index.html",
    }


def test_build_is_byte_stable_and_check_finds_drift(board_setup):
    registry, folder = board_setup
    first, second = build(folder / "runs", registry), build(folder / "runs", registry)
    assert first == second
    write(folder, first)
    assert check(folder, first) == []
    (folder / "tiny.md").write_text("edited by hand\n")
    (folder / "stale.md").write_text("left over\n")
    assert check(folder, first) == ["tiny.md", "stale.md"]
    write(folder, first)
    assert not (folder / "stale.md").exists() and check(folder, first) == []


def test_runs_on_loose_files_stay_off_the_board(board_setup):
    registry, folder = board_setup
    from tests.helpers import record

    loose = record("a", "mine", "feasible", 3.0, [(1.0, 3.0)])
    loose.collection = "files"
    ResultStore(folder / "runs").append(loose)
    assert [b.collection.name for b in boards(registry, list(ResultStore(folder / "runs").records()))] == ["tiny"]


def test_readme_excerpt_is_written_and_checked(board_setup, tmp_path):
    from frontierco.leaderboard.build import README_END, README_START

    registry, folder = board_setup
    readme = tmp_path / "README.md"
    readme.write_text(f"# project\n\n{README_START}\nold\n{README_END}\n\nmore text\n")
    outputs = build(folder / "runs", registry)
    assert "README.md" in check(folder, outputs, readme)
    write(folder, outputs, readme)
    text = readme.read_text()
    assert "| [tiny](leaderboards/tiny.md) | tsp | a (10 s) | 4.545 | 100.0 | 2 |" in text and text.endswith("more text\n")
    assert check(folder, outputs, readme) == []


def test_runs_of_removed_or_changed_instances_are_left_out(board_setup):
    from tests.helpers import record

    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    store.append(record("c", "gone", "feasible", 3.0, [(1.0, 3.0)]))
    changed = record("c", "t1", "feasible", 10.0, [(1.0, 10.0)])
    changed.instance_sha256 = "an older version"
    store.append(changed)
    (board,) = boards(registry, list(store.records()))
    assert {a.solver for a in board.aggregates} == {"a", "b"}
    assert board.dropped == 2
    assert (
        "Runs left out because their instance left the collection or changed since they ran: 2."
        in build(folder / "runs", registry)["tiny.md"].decode()
    )


def test_a_row_on_a_subset_of_the_instances_is_marked_never_bold_and_never_the_leader(board_setup):
    """The issue's case: a 1-second run of nn-2opt on two instances led tsplib over LKH's 93 runs."""
    from tests.helpers import record

    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    store.append(record("c", "t2", "optimal", 10.0, [(0.1, 10.0)]))  # perfect, but on one instance of two
    (board,) = boards(registry, list(store.records()))
    c = next(x for x in board.aggregates if x.solver == "c")
    assert c.mean_gap == 0.0 and not board.comparable(c) and board.coverage(c) == 1 and board.instances == 2
    assert leader(board).solver == "a"
    table = build(folder / "runs", registry)["tiny.md"].decode()
    assert "| c | 10 | 1 ◐ 1/2 instances | 100.0 | 1 | 0.000 | 1.0000 |" in table
    assert "| a | 10 | 2 | **100.0** | **1** | **4.545** |" in table


def test_equal_gaps_are_ranked_by_primal_integral_then_time(board_setup):
    from tests.helpers import record

    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    for solver, first in (("fast", 0.5), ("slow", 3.0)):  # same final tours, found at different times
        store.append(record(solver, "t1", "feasible", 11.0, [(first, 11.0)]))
        store.append(record(solver, "t2", "optimal", 10.0, [(first, 10.0)]))
    (board,) = boards(registry, list(store.records()))
    fast, slow = (next(x for x in board.aggregates if x.solver == s) for s in ("fast", "slow"))
    assert fast.mean_gap == slow.mean_gap and fast.primal_integral < slow.primal_integral
    assert leader(board).solver == "fast"


def test_only_the_newest_version_of_a_solver_is_on_the_board(board_setup):
    from tests.helpers import record

    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    newer = record("a", "t1", "feasible", 10.0, [(1.0, 10.0)])
    newer.run_id, newer.solver_version = "a-t1-v2", "2"
    newer.provenance = newer.provenance | {"finished_at": "2026-02-01T00:00:00+00:00"}
    store.append(newer)
    (board,) = boards(registry, list(store.records()))
    a = next(x for x in board.aggregates if x.solver == "a")
    assert a.runs == 1 and a.mean_gap == 0.0  # the version-1 runs of a (gap 1/11 and 0) are left out
    assert next(x for x in board.aggregates if x.solver == "b").runs == 2


def test_a_run_on_a_gpu_is_its_own_row(board_setup):
    from tests.helpers import record

    registry, folder = board_setup
    store = ResultStore(folder / "runs")
    on_gpu = record("a", "t1", "feasible", 10.0, [(1.0, 10.0)])
    on_gpu.run_id, on_gpu.device = "a-t1-cuda", "cuda"
    store.append(on_gpu)
    (board,) = boards(registry, list(store.records()))
    rows = {x.solver: x for x in board.aggregates}
    assert set(rows) == {"a", "a@cuda", "b"}
    assert rows["a"].runs == 2 and rows["a@cuda"].runs == 1 and rows["a@cuda"].mean_gap == 0.0


def test_the_learned_against_classical_figure_needs_a_learned_solver(board_setup, monkeypatch):
    from frontierco.solver import SolverSpec

    registry, folder = board_setup
    assert not any(name.startswith("figures/learned-vs-classical") for name in build(folder / "runs", registry))
    monkeypatch.setattr("frontierco.leaderboard.build.discover", lambda folders: {"b": SolverSpec("b", ("tsp",), "x.py:B", {}, True)})
    outputs = build(folder / "runs", registry)
    svg = outputs["figures/learned-vs-classical-tsp.svg"].decode()
    assert "b (10 s) (learned)" in svg and "best classical solver" in svg and ">a (10 s)<" in svg
    readme = outputs["README.md"].decode()
    assert "![learned-vs-classical-tsp.svg](figures/learned-vs-classical-tsp.svg)" in readme
    assert "learned-vs-classical-tsp.svg" in outputs["site/index.html"].decode()


def test_nominal_sizes_come_from_generators_and_library_names():
    from frontierco.filestore import FileSource
    from frontierco.leaderboard.sizes import nominal_size
    from frontierco.manifests import GeneratedSource, InstanceEntry

    def entry(name: str, problem: str, source: object) -> InstanceEntry:
        return InstanceEntry("c", name, "test", problem, source, None)  # type: ignore[arg-type]

    file = FileSource("x", "https://example.org/x", "0" * 64)
    assert nominal_size(entry("g", "tsp", GeneratedSource("tsp-uniform", {"n": 500}, 0, None))) == 500
    assert nominal_size(entry("X-n101-k25", "cvrp", file)) == 100  # 101 nodes, the depot included
    assert nominal_size(entry("kroA100", "tsp", file)) == 100
    assert nominal_size(entry("brock200_2", "mis", file)) is None


def test_the_gap_against_size_figure_places_each_solver_at_its_sizes(board_setup):
    """Both instances of the tiny collection have n = 5 (one cell): no figure. With a declared size of 500 for
    t2 each solver gets a point at 5 and one at 500, and the board's index links the figure."""
    import tomllib

    import tomli_w

    from frontierco.leaderboard.sizes import nominal_size

    registry, folder = board_setup
    assert not any(name.startswith("figures/gap-against-size") for name in build(folder / "runs", registry))
    manifest = registry.collection("tiny").manifest
    data = tomllib.loads(manifest.read_text())
    data["instance"][1]["size"] = 500
    manifest.write_text(tomli_w.dumps(data))
    registry = Registry(manifest.parent)
    assert nominal_size(registry.collection("tiny").entry("t2")) == 500
    outputs = build(folder / "runs", registry)
    svg = outputs["figures/gap-against-size-tsp.svg"].decode()
    assert ">a (10 s)<" in svg and ">b (10 s)<" in svg
    assert "![gap-against-size-tsp.svg](figures/gap-against-size-tsp.svg)" in outputs["README.md"].decode()
    assert "gap-against-size-tsp.svg" in outputs["site/index.html"].decode()


@pytest.mark.parametrize("size", [0, -3, "big", True])
def test_a_declared_size_must_be_a_positive_integer(tmp_path, size):
    import tomli_w

    from frontierco.errors import RegistryError
    from frontierco.manifests import read_manifest

    path = tmp_path / "c.toml"
    entry = {"name": "i", "file": "x.tsp", "url": "https://example.org/x.tsp", "sha256": "0" * 64, "size": size}
    path.write_text(tomli_w.dumps({"name": "c", "problem": "tsp", "instance": [entry]}))
    with pytest.raises(RegistryError, match="size must be a positive integer"):
        read_manifest(path)
