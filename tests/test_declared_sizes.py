"""The operation counts that the FJSP library manifests declare (``size = K``, the boards' axis of instance size for
the learned-vs-classical figure) are the instances' own."""

from pathlib import Path

import pytest

from frontierco.manifests import read_manifest
from frontierco.problems import PROBLEMS
from frontierco.registry import INSTANCES_DIR
from tests.helpers import suite_registry

FJSP_FILES = sorted([*INSTANCES_DIR.glob("frontierco/*fjsp-*.toml"), *INSTANCES_DIR.glob("real/fjsp-*.toml")])  # files, not generators


def test_the_fjsp_boards_have_a_size_axis_in_operations() -> None:
    assert PROBLEMS["fjsp"].size_unit == "operations"
    assert [p.stem for p in FJSP_FILES] == [
        *(f"frontierco-fjsp-{s}" for s in ("easy", "hard")),
        "fjsp-brandimarte",
        *(f"fjsp-hurink-{d}data" for d in "erv"),
        "fjsp-song-random",
    ]


@pytest.mark.parametrize("path", FJSP_FILES, ids=[path.stem for path in FJSP_FILES])
def test_each_fjsp_library_instance_declares_its_operation_count(path: Path, mirror: Path) -> None:
    registry = suite_registry()
    collection = registry.collection(read_manifest(path).name)
    for entry in collection.entries:
        assert entry.size == registry.load(entry).num_operations, entry.key


def test_the_mds_boards_have_a_size_axis_in_vertices_from_the_generators_n() -> None:
    """The MDS boards get the gap-against-size figure: an entry generated with a fixed ``n`` has that size."""
    from frontierco.leaderboard.sizes import nominal_size

    assert PROBLEMS["mds"].size_unit == "vertices"
    registry = suite_registry()
    fixed = registry.collection("mds-sparse-large").entries
    assert [nominal_size(entry) for entry in fixed] == [entry.source.params["n"] for entry in fixed]  # type: ignore[union-attr]
    assert all(isinstance(nominal_size(entry), int) for entry in fixed)


DRAWN_SIZES = ("mds-ba-easy", "mds-ba-hard", "mds-ba-800-1200", "mds-ba-800-1200-fresh", "mis-rb-800-1200", "mis-rb-800-1200-fresh")


@pytest.mark.parametrize("name", DRAWN_SIZES)
def test_a_generated_collection_whose_n_is_drawn_per_seed_declares_each_instances_vertex_count(name: str) -> None:
    """Where the generator draws n per seed from a range (BA and RB graphs of 800-1200 vertices), each entry declares
    the vertex count of the graph its seed generates, so the learned-vs-classical figure places these boards."""
    from frontierco.leaderboard.sizes import nominal_size

    registry = suite_registry()
    collection = registry.collection(name)
    assert not isinstance(collection.entries[0].source.params.get("n"), int)  # type: ignore[union-attr]  # no fixed n
    for entry in collection.entries:
        assert nominal_size(entry) == entry.size == registry.load(entry).n, entry.key
