from dataclasses import replace

import pytest

from frontierco.harness.plan import plan_file
from frontierco.solver import Budget, discover
from tests.helpers import DATA, TEST_SOLVERS


@pytest.fixture(scope="session")
def faulty():
    return discover(TEST_SOLVERS)["faulty"]


@pytest.fixture
def plan_for(faulty):
    """A campaign of the faulty solver on tests/data/tiny.vrp in one mode (reference 100)."""

    def build(mode: str, time_limit: float = 5.0, seeds: int = 1, memory_mb: int | None = 8192, **params):
        plan = plan_file(faulty, DATA / "tiny.vrp", Budget(time_limit), seeds, params={"mode": mode, **params})
        specs = [
            replace(s, reference=100.0, reference_source="hand", reference_status="optimal", memory_mb=memory_mb) for s in plan.specs
        ]
        return replace(plan, specs=specs)

    return build
