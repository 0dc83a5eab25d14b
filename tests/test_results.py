"""The record store's solution files: small ones beside the records (committed), large ones in the local
solution cache by their sha256, read back from it or from a mirror folder, or said to be unavailable."""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil

import pytest

from frontierco.errors import SolutionUnavailable
from frontierco.results import BY_HASH, ResultStore

SMALL = {"tour": [0, 1, 2]}
LARGE = {"tour": list(range(20_000))}


@pytest.fixture
def store(tmp_path) -> ResultStore:
    return ResultStore(tmp_path / "runs", solution_cache=tmp_path / "cache" / "solutions", solution_limit=1000)


def test_a_small_solution_is_stored_beside_the_records(store, tmp_path):
    name = store.save_solution("c", "run1", SMALL)
    assert (store.root / name).is_file() and name.startswith("c/solutions/run1-")
    assert store.load_solution(name) == SMALL
    assert not (tmp_path / "cache").exists()


def test_a_large_solution_goes_to_the_solution_cache_by_its_sha256_not_into_the_store(store, tmp_path):
    name = store.save_solution("c", "run2", LARGE)
    assert name.startswith(BY_HASH) and not store.root.exists()
    (cached,) = (tmp_path / "cache" / "solutions").iterdir()
    assert hashlib.sha256(cached.read_bytes()).hexdigest() == name[len(BY_HASH) :] and cached.name == f"{name[len(BY_HASH) :]}.json.gz"
    assert store.load_solution(name) == LARGE
    assert store.save_solution("c", "run3", LARGE) == name  # the same content: the same file, written once


def test_a_large_solution_is_read_from_a_mirror_folder_when_checked_and_said_unavailable_otherwise(store, tmp_path):
    name = store.save_solution("c", "run2", LARGE)
    digest = name[len(BY_HASH) :]
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    shutil.move(tmp_path / "cache" / "solutions" / f"{digest}.json.gz", mirror / f"{digest}.json.gz")
    with pytest.raises(SolutionUnavailable, match=f"solution not available locally \\(sha256 {digest}\\)"):
        store.load_solution(name)
    store = store.with_solution_folder(mirror)
    assert store.load_solution(name) == LARGE
    (mirror / f"{digest}.json.gz").write_bytes(gzip.compress(b'{"tour": [0]}'))  # not the file the hash names
    with pytest.raises(SolutionUnavailable):
        store.load_solution(name)


def test_the_solution_settings_come_from_the_context_that_discover_reads(tmp_path, monkeypatch):
    """``FRONTIERCO_CACHE``, ``FRONTIERCO_SOLUTION_LIMIT`` and ``FRONTIERCO_SOLUTIONS`` reach a store through the
    context (``Context.discover``, as the CLI builds it); a store made without one has the defaults."""
    from frontierco.results import SOLUTION_LIMIT
    from frontierco.workspace import Context

    monkeypatch.setenv("FRONTIERCO_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("FRONTIERCO_SOLUTION_LIMIT", "1000")
    monkeypatch.setenv("FRONTIERCO_SOLUTIONS", os.pathsep.join([str(tmp_path / "a"), str(tmp_path / "b")]))
    store = Context.discover().records(tmp_path / "runs")
    assert (store.solution_cache, store.solution_limit) == (tmp_path / "cache" / "solutions", 1000)
    assert store.solution_folders == (tmp_path / "a", tmp_path / "b")
    assert store.save_solution("c", "run2", LARGE).startswith(BY_HASH) and (tmp_path / "cache" / "solutions").is_dir()
    plain = ResultStore(tmp_path / "runs")
    assert (plain.solution_limit, plain.solution_folders) == (SOLUTION_LIMIT, ())


BLANKS = gzip.compress(b" " * (1 << 24))  # 16 MiB of spaces in ~16 KB


@pytest.mark.parametrize(
    "packed",
    [
        gzip.compress(b'{"tour": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),  # a RecursionError traceback
        gzip.compress(b'{"tour": [0, 1, 2]') + BLANKS * 8 + gzip.compress(b"}"),  # 128 MiB of text from 130 KB: read whole
        gzip.compress(b"[1, 2]"),
    ],
    ids=["nested-past-the-stack", "gzip-bomb", "not-an-object"],
)
def test_a_stored_solution_that_cannot_be_read_within_bounds_is_one_error(store, packed):
    from frontierco.errors import FrontiercoError

    name = store.save_solution("c", "run1", SMALL)
    (store.root / name).write_bytes(packed)
    with pytest.raises(FrontiercoError, match="not a readable gzip file of JSON"):
        store.load_solution(name)


def test_a_record_line_nested_past_the_stack_is_skipped_as_no_record(tmp_path):
    from frontierco.results import read_records

    path = tmp_path / "s.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")  # every command that read the store was a RecursionError traceback
    assert read_records(path) == ([], 1)


def test_an_index_of_garbage_admits_nothing_and_a_folder_in_a_record_files_place_is_one_error(tmp_path):
    from frontierco.errors import StoreError
    from frontierco.results import admitted, read_records

    path = tmp_path / "s.jsonl"
    path.write_text("")
    path.with_suffix(".verified").write_bytes(b"\x00\xffgarbage\n" * 10)  # a UnicodeDecodeError traceback
    assert not any(len(digest) == 64 for digest in admitted(path))  # read: nothing in it is a digest
    folder = tmp_path / "d.jsonl"
    folder.mkdir()
    with pytest.raises(StoreError, match="a record file, not a folder"):  # an IsADirectoryError traceback
        read_records(folder)


@pytest.mark.parametrize("entry", [["0_5", 12.0], [0.5, "1_2"], [0.5, "12"], [True, 12.0], [0.5], 5, None], ids=repr)
def test_a_trace_entry_that_is_no_pair_of_json_numbers_is_no_record(entry):
    """The trace was read with float(): '1_2' (and ' 12 ', and true) became numbers, and an entry of no two values a
    TypeError that only some callers caught."""
    import json

    from frontierco.results import RunRecord
    from tests.helpers import record

    data = json.loads(record("s", "t1", "feasible", 12.0, [(0.5, 12.0)]).to_json())
    assert RunRecord.from_json(json.dumps(data)).trace == [(0.5, 12.0)]
    data["trace"] = [entry]
    with pytest.raises(ValueError, match="trace"):
        RunRecord.from_json(json.dumps(data))
