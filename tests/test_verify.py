"""A stored run re-verifies when its re-evaluated objective equals the record's up to rounding, not beyond."""

from types import SimpleNamespace

import pytest

from frontierco.app.verify import ROUNDING, Verification
from frontierco.problems import Evaluation


def _check(found: float | None, recorded: float | None, feasible: bool = True) -> bool:
    record = SimpleNamespace(objective=recorded, unrounded=None)
    return Verification(record, Evaluation(feasible, found), None, None).agrees  # type: ignore[arg-type]


def test_the_last_bits_of_a_float_sum_do_not_fail_a_run() -> None:
    assert _check(20631.427434342524, 20631.42743434252)  # seen on facility location 200 x 100
    assert _check(0.0, 0.0)


@pytest.mark.parametrize("relative", [1e-9, 1e-6])
def test_a_tampered_objective_still_fails(relative: float) -> None:
    assert relative > ROUNDING
    assert not _check(20631.4274 * (1 + relative), 20631.4274)


def test_an_infeasible_or_missing_objective_fails() -> None:
    assert not _check(None, 5.0, feasible=False)
    assert not _check(5.0, None)
