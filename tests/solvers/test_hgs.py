"""hgs: HGS-CVRP optimises the unrounded distances it is scored on, and keeps Golden's route-length limit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from frontierco.filestore import FileStore
from frontierco.problems import CVRPInstance, EdgeWeights, evaluate
from frontierco.registry import Registry
from frontierco.solver import Budget, get_solver


def _solve(instance: CVRPInstance, seconds: float) -> list:
    spec = get_solver("hgs")
    if not spec.available:
        pytest.skip(f"hgs is not installed ({spec.fix})")
    return list(spec.load()().solve(instance, Budget(seconds, seed=1)))


def test_hgs_finds_the_shortest_route_where_every_distance_rounds_to_zero() -> None:
    """Twelve points on a circle of radius 0.2, all distances below 0.5: on rounded distances every order costs 0
    and HGS could return any; on the unrounded ones the one shortest solution is the polygon, one route."""
    k, radius = 12, 0.2
    angles = 2 * np.pi * np.arange(k) / k
    coords = 0.5 + radius * np.c_[np.cos(angles), np.sin(angles)]
    instance = CVRPInstance("polygon", EdgeWeights("EXACT_2D", coords=coords), np.r_[0, np.ones(k - 1, dtype=np.int64)], k)
    assert instance.weights.full_matrix().max() < 0.5
    verdict = evaluate(instance, _solve(instance, 2.0)[-1])
    assert verdict.feasible and verdict.objective == pytest.approx(k * 2 * radius * np.sin(np.pi / k), rel=1e-9)


def test_hgs_keeps_golden_1_within_its_distance_limit(mirror: Path) -> None:
    """cvrplib-golden's Golden_1 (DISTANCE 650 binds: FrontierCO's value without it is 4.5% lower): every
    solution hgs yields is within the limit, as the checker enforces it."""
    registry = Registry(store=FileStore(mirror=mirror))
    instance = registry.load(registry.collection("cvrplib-golden").entry("Golden_1"))
    assert isinstance(instance, CVRPInstance) and instance.max_distance == 650.0
    solutions = _solve(instance, 4.0)
    verdicts = [evaluate(instance, s) for s in solutions]
    assert len(verdicts) == 3 and all(v.feasible for v in verdicts), [v.reason for v in verdicts]
    lengths = [instance.weights.path_length(np.array([0, *route, 0])) for route in solutions[-1].routes]
    assert max(lengths) <= 650.0 + 1e-6 and max(lengths) > 0.9 * 650.0  # the limit is what shapes the routes


def test_hgs_hands_its_population_and_neighbourhood_parameters_to_hgs_cvrp(monkeypatch: pytest.MonkeyPatch) -> None:
    """mu, lambda and nb_granular are HGS-CVRP's own mu, lambda and nbGranular, and their defaults are HGS-CVRP's."""
    spec = get_solver("hgs")
    if not spec.available:
        pytest.skip(f"hgs is not installed ({spec.fix})")
    import hygese

    given: list[hygese.AlgorithmParameters] = []
    original = hygese.Solver.__init__

    def capture(self: hygese.Solver, parameters: hygese.AlgorithmParameters, verbose: bool = False) -> None:
        given.append(parameters)
        original(self, parameters=parameters, verbose=verbose)

    monkeypatch.setattr(hygese.Solver, "__init__", capture)
    coords = np.random.default_rng(0).random((9, 2))
    instance = CVRPInstance("nine", EdgeWeights("EXACT_2D", coords=coords), np.r_[0, np.ones(8, dtype=np.int64)], 3)
    for params in ({}, {"mu": 12, "lambda": 20, "nb_granular": 30}):
        solutions = list(spec.load()(**params).solve(instance, Budget(1.0, seed=1)))
        assert evaluate(instance, solutions[-1]).feasible
    default, chosen = given
    own = hygese.AlgorithmParameters()
    assert (default.mu, default.lambda_, default.nbGranular) == (own.mu, own.lambda_, own.nbGranular)
    assert (chosen.mu, chosen.lambda_, chosen.nbGranular) == (12, 20, 30)


def test_hgs_hands_hgs_cvrp_the_points_beside_an_unrounded_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unrounded Euclidean instances go to HGS-CVRP as a matrix of doubles and with their points: without points
    hygese passes zeros, every route's polar sector is the one angle 0, and SWAP* loses its sector filter."""
    spec = get_solver("hgs")
    if not spec.available:
        pytest.skip(f"hgs is not installed ({spec.fix})")
    import hygese

    given: list[dict] = []
    original = hygese.Solver.solve_cvrp

    def capture(self: hygese.Solver, data: dict, rounding: bool = True) -> object:
        given.append(dict(data))
        return original(self, data, rounding=rounding)

    monkeypatch.setattr(hygese.Solver, "solve_cvrp", capture)
    coords = np.random.default_rng(1).random((9, 2)) - 0.5  # negative ones too (Golden 1-8 have them)
    instance = CVRPInstance("nine", EdgeWeights("EXACT_2D", coords=coords), np.r_[0, np.ones(8, dtype=np.int64)], 3)
    assert evaluate(instance, list(spec.load()().solve(instance, Budget(1.0, seed=1)))[-1]).feasible
    (data,) = given
    points = np.c_[data["x_coordinates"], data["y_coordinates"]]
    assert points.min() == 0.0 and np.allclose(points - points[0], coords - coords[0])  # shifted: same angles about the depot
    assert np.allclose(data["distance_matrix"], instance.weights.full_matrix())
