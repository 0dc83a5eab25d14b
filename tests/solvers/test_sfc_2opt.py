"""sfc-2opt: a curve tour at once, then improving 2-opt / Or-opt / iterated local search tours, each costed as the
checker costs it."""

import numpy as np
import pytest

pytest.importorskip("numba")

from frontierco.problems import EdgeWeights, TSPInstance, evaluate  # noqa: E402
from frontierco.problems.generate import generate  # noqa: E402
from frontierco.solver import Budget, get_solver  # noqa: E402


def test_the_curve_visits_neighbouring_cells_in_turn() -> None:
    from frontierco.kit.solverkit import hilbert_index

    xs, ys = np.meshgrid(np.arange(16), np.arange(16))
    cells = np.column_stack([xs.ravel(), ys.ravel()]).astype(float)
    index = hilbert_index(cells, order=4)
    assert sorted(index.tolist()) == list(range(256))
    steps = np.abs(np.diff(cells[np.argsort(index)], axis=0)).sum(axis=1)
    assert np.all(steps == 1)  # every step of the curve goes to an adjacent cell


@pytest.mark.parametrize("n", [3, 50, 6000])  # 6,000 cities: coordinates only, no dense matrix
def test_tours_are_feasible_and_improve(n: int) -> None:
    instance = generate("tsp-dimacs-uniform", "u", 7, {"n": n}).instance
    solver = get_solver("sfc-2opt").load()()
    solver.setup()
    lengths = [evaluate(instance, s) for s in solver.solve(instance, Budget(time_limit=3.0))]
    assert lengths and all(v.feasible for v in lengths)
    values = [v.objective for v in lengths]
    assert all(b < a for a, b in zip(values, values[1:], strict=False))


def test_a_matrix_only_instance_gets_a_feasible_tour() -> None:
    matrix = np.random.default_rng(0).integers(1, 20, (6, 6))
    instance = TSPInstance("m", EdgeWeights("EXPLICIT", matrix=matrix * (1 - np.eye(6, dtype=int))))
    solver = get_solver("sfc-2opt").load()()
    (only,) = list(solver.solve(instance, Budget(time_limit=2.0)))
    assert evaluate(instance, only).feasible


def test_a_slow_handover_takes_at_most_a_fifth_of_the_time() -> None:
    """Each handed-over tour costs the consumer 0.3 s (at 1M cities a copy, a send and a check take about a
    second): the search between two handovers must then take at least 4 x 0.3 s, so that rounds sized by their
    own time keep growing (version 3 counted the handover as search, and crawled at a round of ~1,000 moves)."""
    import time

    instance = generate("tsp-dimacs-uniform", "u", 8, {"n": 6000}).instance
    solver = get_solver("sfc-2opt").load()()
    solver.setup()
    arrivals, resumes = [], []
    for _ in solver.solve(instance, Budget(time_limit=8.0)):
        arrivals.append(time.monotonic())
        time.sleep(0.3)
        resumes.append(time.monotonic())
    searches = [arrival - resume for resume, arrival in zip(resumes[1:-2], arrivals[2:-1], strict=True)]
    assert len(searches) >= 2 and min(searches) >= 4 * 0.3 * 0.95
