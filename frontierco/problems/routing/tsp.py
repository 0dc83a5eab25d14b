"""Travelling salesman problem: symmetric (TSPLIB rules) or asymmetric (explicit matrix)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import as_index_array, first_out_of_range, first_repeated, times
from frontierco.problems.routing import tourpack
from frontierco.problems.routing.distances import EdgeWeights


@dataclass(frozen=True, eq=False)
class TSPInstance:
    """Nodes 0..n-1 and their distances; a tour visits each once and returns to its start."""

    name: str
    weights: EdgeWeights

    @property
    def n(self) -> int:
        return self.weights.size

    @property
    def is_asymmetric(self) -> bool:
        if self.weights.rule != "EXPLICIT":
            return False
        matrix = self.weights.matrix
        assert matrix is not None
        return not np.array_equal(matrix, matrix.T)


@dataclass(frozen=True, eq=False)
class TSPSolution:
    """A tour as a permutation of the node indices 0..n-1 (the closing edge is implied)."""

    tour: np.ndarray


def evaluate(instance: TSPInstance, solution: TSPSolution) -> Evaluation:
    """Check that the tour is a permutation of all nodes and compute its length by the instance's rule."""
    n = instance.n
    tour, problem = as_index_array(solution.tour, "tour")
    if tour is None:
        return Evaluation.infeasible(problem)
    bad = first_out_of_range(tour, 0, n - 1)
    if bad is not None:
        return Evaluation.infeasible(f"node {bad + 1} is not in 1..{n} (nodes numbered from 1, as in TSPLIB files)")
    repeated = first_repeated(tour, n)
    if repeated is not None:
        return Evaluation.infeasible(f"node {repeated[0] + 1} visited {times(repeated[1])} (nodes numbered from 1)")
    if len(tour) != n:
        missing = np.setdiff1d(np.arange(n), tour)
        return Evaluation.infeasible(f"tour visits {len(tour)} of {n} nodes; node {int(missing[0]) + 1} is missing (nodes numbered from 1)")
    closing = tour[[-1, 0]] if n else tour  # the closing leg apart: no copy of a 10M-node tour
    return Evaluation.ok(instance.weights.path_length(tour) + instance.weights.path_length(closing))


def unrounded_length(instance: TSPInstance, solution: TSPSolution) -> float | None:
    """The length of a feasible tour with unrounded Euclidean distances, as FrontierCO's TSP evaluator computes it
    (its best-known values are the rounded TSPLIB optima); None where the distances are not Euclidean."""
    weights = instance.weights.unrounded()
    if weights is None:
        return None
    tour = np.asarray(solution.tour, dtype=np.int64)
    return weights.path_length(tour) + weights.path_length(tour[[-1, 0]])


def packed_data(instance: TSPInstance, data: dict[str, Any]) -> dict[str, Any] | None:
    """A tour from ``tourpack.PACK_FROM`` cities on coordinates in tourpack's form, when it reads back to the same
    tour here; else None (the plain form is kept)."""
    coords = instance.weights.coords
    if instance.n < tourpack.PACK_FROM or coords is None or not isinstance(data.get("tour"), list):
        return None
    tour = np.asarray(data["tour"], dtype=np.int64)
    table = tourpack.neighbour_table(coords)
    packed = tourpack.pack(tour, coords, table)
    return {"packed_tour": packed} if np.array_equal(tourpack.unpack(packed, coords, table), tour) else None


def unpacked_data(instance: TSPInstance, data: dict[str, Any]) -> dict[str, Any]:
    """The plain form of a stored tour (``packed_data``'s form unpacked on the instance's coordinates)."""
    if "packed_tour" not in data:
        return data
    coords = instance.weights.coords
    if coords is None:
        raise ValueError("a packed tour needs an instance with coordinates")
    return {"tour": tourpack.unpack(data["packed_tour"], coords)}


TSPLIB_NAME = re.compile(r"^[A-Za-z_]+(\d+)$")  # kroA100, pr2392: the number of cities


def size_in_name(name: str) -> int | None:
    """The number of cities a TSPLIB name carries (kroA100: 100), else None."""
    match = TSPLIB_NAME.match(name)
    return int(match.group(1)) if match else None


PROBLEM = Problem(
    name="tsp",
    sense="min",
    instance_type=TSPInstance,
    solution_type=TSPSolution,
    evaluate=evaluate,
    description="travelling salesman (TSPLIB rules or asymmetric matrix); tour length, minimise",
    to_data=lambda solution: {"tour": np.asarray(solution.tour).tolist()},
    from_data=lambda data: TSPSolution(np.asarray(data["tour"])),
    size=lambda instance: int(instance.n),
    describe=lambda instance: f"{instance.n} nodes",
    default_collection="tsp-uniform-100",
    reference_solver="lkh",
    baseline="lkh",
    time_shift=1.0,
    solution_suffix=".tour",
    cases="frontierco.problems.routing.cases:tsp_cases",
    size_unit="nodes",
    size_in_name=size_in_name,
    unrounded=unrounded_length,
    frontierco_folder="TSP",
    compact=packed_data,
    expand=unpacked_data,
)
