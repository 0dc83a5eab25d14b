"""scripts/move_large_solutions.py: solution files over the limit leave the store for a folder of files named by
their sha256, the records name them by hash, and they still load (from that folder as a mirror)."""

from __future__ import annotations

from dataclasses import replace

from frontierco.filestore import FileStore
from frontierco.results import BY_HASH, index_path
from frontierco.workspace import Context
from tests.helpers import load_script, record


def _move():
    return load_script("move_large_solutions").move


def _limited(tmp_path, limit: int) -> Context:
    """A context whose solution limit is ``limit`` (its cache in ``tmp_path``)."""
    return Context(files=FileStore(cache=tmp_path / "cache"), solution_limit=limit)


def test_large_solution_files_move_out_and_still_load(tmp_path):
    store = _limited(tmp_path, 10**9).records(tmp_path / "runs")  # both written into the store, as before the limit
    small = store.save_solution("tiny", "s-t1-0", {"tour": [0, 1]})
    large = store.save_solution("tiny", "s-t2-0", {"tour": list(range(20_000))})
    store.append(replace(record("s", "t1", "feasible", 1.0, [(1.0, 1.0)]), solution_file=small))
    store.append(replace(record("s", "t2", "feasible", 1.0, [(1.0, 1.0)]), solution_file=large))
    mirror = tmp_path / "mirror"
    moved = _move()(store.root, mirror, delete=True, context=_limited(tmp_path, 1000))
    assert list(moved) == [large] and not (store.root / large).exists() and (store.root / small).exists()
    names = {r.instance: r.solution_file for r in store.records()}
    assert names["t1"] == small and names["t2"] == moved[large] and moved[large].startswith(BY_HASH)
    assert store.with_solution_folder(mirror).load_solution(names["t2"]) == {"tour": list(range(20_000))}
    assert _move()(store.root, mirror, delete=True, context=_limited(tmp_path, 1000)) == {}  # done once


def test_a_budget_moves_the_smallest_files_first_and_admitted_records_stay_admitted(tmp_path):
    store = _limited(tmp_path, 10**9).records(tmp_path / "runs")
    names = {}
    for instance, size in (("t1", 3_000), ("t2", 30_000), ("t3", 6_000)):
        names[instance] = store.save_solution("tiny", f"s-{instance}-0", {"tour": list(range(size))})
        store.append(replace(record("s", instance, "feasible", 1.0, [(1.0, 1.0)]), solution_file=names[instance]))
    assert {r.instance for r in store.records(only_admitted=True)} == {"t1", "t2", "t3"}
    sizes = {instance: (store.root / name).stat().st_size for instance, name in names.items()}
    over = _limited(tmp_path, min(sizes.values()) - 1)  # all three over the limit
    moved = _move()(store.root, tmp_path / "mirror", delete=True, budget=sizes["t1"] + sizes["t3"], context=over)
    assert set(moved) == {names["t1"], names["t3"]} and (store.root / names["t2"]).exists()  # the largest waits
    assert {r.instance for r in store.records(only_admitted=True)} == {"t1", "t2", "t3"}  # rewritten, still admitted
    assert len(index_path(store.path("tiny", "s")).read_text().split()) == 5
