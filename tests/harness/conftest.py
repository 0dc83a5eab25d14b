from dataclasses import replace

import pytest

from frontierco.harness.plan import plan_file
from frontierco.solver import Budget, discover
from tests.helpers import DATA, TEST_SOLVERS


@pytest.fixture(scope="session")
def faulty():
    return discover(TEST_SOLVERS)["faulty"]


@pytest.fixture
def sandbox() -> str:
    """The sandbox the runs of ``plan_for`` want (a context's ``sandbox``, carried by the job): "" the first
    that works; a test module that needs none overrides this fixture with "0"."""
    return ""


@pytest.fixture
def plan_for(faulty, sandbox):
    """A plan of the faulty solver on tests/data/tiny.vrp in one mode (reference 100)."""

    def build(mode: str, time_limit: float = 5.0, seeds: int = 1, memory_mb: int | None = 8192, **params):
        plan = plan_file(faulty, DATA / "tiny.vrp", Budget(time_limit), seeds, params={"mode": mode, **params})
        hand = {"reference": 100.0, "reference_source": "hand", "reference_status": "optimal"}
        specs = [replace(s, **hand, memory_mb=memory_mb, sandbox=sandbox) for s in plan.specs]
        return replace(plan, specs=specs)

    return build
