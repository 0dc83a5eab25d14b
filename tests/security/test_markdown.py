"""What reaches the markdown pages from a plugin (parameter values, library names) is escaped there; the
suite's own names come out as they always did."""

from dataclasses import replace

import pytest

from frontierco.leaderboard import markdown
from frontierco.leaderboard.build import build
from frontierco.results import ResultStore
from tests.helpers import record
from tests.leaderboard.conftest import board_setup  # noqa: F401

HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(1)>|`x`*y*_z_[l](u)\\"


@pytest.mark.parametrize("text", ["ctc-scip{heuristics=aggressive}", "dimes@cuda", "milp-cauction-easy", "torch 2.13.0+cpu"])
def test_benign_names_are_unchanged(text):
    assert markdown.name(text) == text


def test_a_hostile_name_is_inert():
    escaped = markdown.name(HOSTILE + "\nnext line")
    assert "<" not in escaped and ">" not in escaped and "\n" not in escaped
    assert all(escaped[k - 1] == "\\" for k, char in enumerate(escaped) if char in "|`*_[]")


def test_hostile_parameters_and_libraries_do_not_reach_the_pages_raw(board_setup):  # noqa: F811
    registry, folder = board_setup
    evil = record("a", "t1", "feasible", 10.0, [(1.0, 10.0)])
    evil = replace(evil, run_id="evil", params={"k": HOSTILE}, provenance={"libraries": {"<img src=x onerror=alert(1)>": "1"}})
    ResultStore(folder / "runs").append(evil)
    outputs = build(folder / "runs", registry)
    for name in ("tiny.md", "README.md"):
        page = outputs[name].decode()
        assert "<script" not in page and "<img" not in page, name
    row = next(line for line in outputs["tiny.md"].decode().splitlines() if line.startswith("| a{k="))
    assert row.replace("\\|", "").count("|") == 11  # the ten columns, no more
    assert "<script" not in outputs["excerpt.md"].decode()
