"""A maximum route length (CVRPLIB's DISTANCE): every CVRP solver either honours it, every solution it yields
within the limit, or refuses the instance in one line; none returns routes that break it unawares."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from frontierco.kit.savings import savings_routes
from frontierco.problems import CVRPSolution, evaluate
from frontierco.problems.routing.generators import cvrp_uniform
from frontierco.solver import Budget, discover, get_solver

HONOUR = ("pyvrp", "pyvrp-decomp", "hgs", "ortools", "savings")


def _limited():
    """60 customers whose savings routes without a limit are longer than the limit: it binds."""
    free = cvrp_uniform("limited", 7, n=60, capacity=40).instance
    longest = max(free.weights.path_length(np.array([0, *r, 0])) for r in savings_routes(free))
    round_trips = 2 * free.weights.between(np.zeros(free.n - 1, dtype=np.int64), np.arange(1, free.n))
    limit = max(0.7 * longest, 1.05 * float(round_trips.max()) + 0.01)  # every customer can be served alone
    assert limit < longest
    return replace(free, max_distance=limit, service_time=0.01)


def test_every_cvrp_solver_honours_the_limit_or_refuses_it():
    for name, spec in discover().items():
        if "cvrp" not in spec.problems or name in HONOUR:
            continue
        source = Path(spec.target.rsplit(":", 1)[0]).read_text()
        assert "refuse_route_limit(instance, self.name)" in source, f"{name} neither honours nor refuses a route limit"


@pytest.mark.parametrize("name", HONOUR)
def test_a_solver_that_honours_the_limit_yields_only_routes_within_it(name):
    spec = get_solver(name)
    if not spec.available:
        pytest.skip(f"{name} is not installed ({spec.fix})")
    instance = _limited()
    solutions = list(spec.load()().solve(instance, Budget(1.5, seed=1)))
    verdicts = [evaluate(instance, s) for s in solutions]
    assert verdicts and all(v.feasible for v in verdicts), [v.reason for v in verdicts if not v.feasible]


def test_vroom_refuses_a_limited_instance():
    spec = get_solver("vroom")
    if not spec.available:
        pytest.skip(f"vroom is not installed ({spec.fix})")
    with pytest.raises(ValueError, match="vroom cannot honour a maximum route length"):
        next(iter(spec.load()().solve(_limited(), Budget(1.0))))
    assert isinstance(next(iter(spec.load()().solve(replace(_limited(), max_distance=None), Budget(1.0)))), CVRPSolution)
