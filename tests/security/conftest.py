from dataclasses import replace
from pathlib import Path

import pytest

from frontierco.harness.plan import plan_file
from frontierco.solver import Budget, discover
from tests.helpers import DATA

HOSTILE = Path(__file__).parent / "solvers"  # test-only solvers that attack the harness


@pytest.fixture(scope="session")
def hostile():
    return discover(HOSTILE)["hostile"]


@pytest.fixture
def hostile_plan(hostile):
    """A campaign of the hostile solver on tests/data/tiny.vrp in one mode (reference 100)."""

    def build(mode: str, time_limit: float = 5.0, memory_mb: int | None = 8192, sandbox: str = "", **params):
        """``sandbox``: the one the runs want (a context's, carried by the job); "" the first that works."""
        plan = plan_file(hostile, DATA / "tiny.vrp", Budget(time_limit), 1, params={"mode": mode, **params})
        hand = {"reference": 100.0, "reference_source": "hand", "reference_status": "optimal"}
        specs = [replace(s, **hand, memory_mb=memory_mb, sandbox=sandbox) for s in plan.specs]
        return replace(plan, specs=specs)

    return build
