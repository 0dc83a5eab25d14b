import matplotlib.image
import numpy as np
import pytest

from frontierco.app.plot import plot_run
from frontierco.errors import UsageError
from frontierco.harness.execute import run_plan
from frontierco.harness.plan import Selection, plan_collection
from frontierco.results import ResultStore
from frontierco.solver import Budget, get_solver
from tests.helpers import suite_registry


@pytest.mark.parametrize(
    "solver, problem, collection",
    [
        ("greedy", "mis", "mis-rb-small"),
        ("nn-2opt", "tsp", "tsp-uniform-100"),
        ("savings", "cvrp", "cvrp-uniform-50"),
        ("nn-2opt", "tsp", "realcity-atsp-50"),
    ],
)
def test_plot_draws_a_verified_run(tmp_path, solver, problem, collection):
    store, registry = ResultStore(tmp_path / "runs"), suite_registry()
    plan = plan_collection(registry, get_solver(solver), problem, Selection(collection, "dev", limit=1), Budget(5.0))
    (record,) = run_plan(plan, store)
    out = plot_run(store, record.run_id[:10], tmp_path / "plot.png", registry)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = matplotlib.image.imread(out)[..., :3]
    ink = (pixels < 0.9).any(axis=-1).mean()  # share of pixels that are not (near) white
    colours = len(np.unique((pixels * 255).astype(np.uint8).reshape(-1, 3), axis=0))
    assert 0.01 < ink < 0.8 and colours > 10  # something was drawn, in colour, and not a filled blank


def test_plot_refuses_what_it_cannot_draw(tmp_path):
    store = ResultStore(tmp_path / "runs")
    selection = Selection("milp-setcover-easy", "dev", limit=1)
    (record,) = run_plan(plan_collection(suite_registry(), get_solver("highs"), "milp", selection, Budget(5.0)), store)
    with pytest.raises(UsageError, match="can be drawn"):
        plot_run(store, record.run_id, tmp_path / "plot.png", suite_registry())
