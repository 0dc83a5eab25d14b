"""k-medoids style alternation for capacitated p-median: regret-greedy capacitated assignment, shift/swap
improvement of the assignment, each cluster's best capacity-feasible medoid, perturbation of the medians."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock
from frontierco.problems import CPMPInstance, CPMPSolution
from frontierco.problems.facility.cpmp import floor_distance
from frontierco.solver import Budget, Solver

CAP_TOL = 1e-9


def regret_assignment(instance: CPMPInstance, medians: np.ndarray) -> np.ndarray | None:
    """Points in order of decreasing regret (second-nearest minus nearest median distance; larger demand first on
    ties), each to its nearest median with room left; None when a point fits nowhere."""
    distance = instance.distances_to(medians)
    room = instance.capacity[medians].astype(np.float64).copy()
    if distance.shape[1] > 1:
        two = np.partition(distance, 1, axis=1)[:, :2]
        regret = two[:, 1] - two[:, 0]
    else:
        regret = np.zeros(instance.n)
    assignment = np.empty(instance.n, dtype=np.int64)
    for i in np.lexsort((-instance.demand, -regret)):
        fits = np.flatnonzero(room >= instance.demand[i] - CAP_TOL)
        if not fits.size:
            return None
        k = fits[np.argmin(distance[i, fits])]
        assignment[i] = k
        room[k] -= instance.demand[i]
    return assignment


def improve_assignment(instance: CPMPInstance, medians: np.ndarray, slot: np.ndarray, clock: Clock) -> np.ndarray:
    """Shift a point to a nearer median with room, or swap the medians of two points, while either gains."""
    distance = instance.distances_to(medians)
    demand = instance.demand
    room = instance.capacity[medians] - np.bincount(slot, weights=demand, minlength=len(medians))
    improved = True
    while improved and not clock.expired():
        improved = False
        for i in range(instance.n):
            if i % 256 == 255 and clock.expired():
                break  # a pass is O(n^2): on tens of thousands of points it must stop with the clock
            current = distance[i, slot[i]]
            better = np.flatnonzero((distance[i] < current) & (room >= demand[i] - CAP_TOL))
            if better.size:
                k = better[np.argmin(distance[i, better])]
                room[slot[i]] += demand[i]
                room[k] -= demand[i]
                slot[i] = k
                improved = True
                continue
            # swap with a point j of a nearer median when both fit after the exchange
            gain = current + distance[np.arange(instance.n), slot] - distance[i, slot] - distance[np.arange(instance.n), slot[i]]
            fits = (room[slot] + demand >= demand[i] - CAP_TOL) & (room[slot[i]] + demand[i] >= demand - CAP_TOL) & (slot != slot[i])
            candidates = np.flatnonzero(fits & (gain > 0))
            if candidates.size:
                j = candidates[np.argmax(gain[candidates])]
                a, b = slot[i], slot[j]
                room[a] += demand[i] - demand[j]
                room[b] += demand[j] - demand[i]
                slot[i], slot[j] = b, a
                improved = True
    return slot


def medoids(instance: CPMPInstance, medians: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """For each cluster, the member whose capacity holds the cluster's demand and whose summed distance to the
    members is least (the current median when none is better)."""
    new = medians.copy()
    for k in range(len(medians)):
        members = np.flatnonzero(slot == k)
        if not members.size:
            continue
        load = instance.demand[members].sum()
        candidates = members[instance.capacity[members] >= load - CAP_TOL]
        if not candidates.size:
            continue
        total = floor_distance(instance.coords[candidates][:, None, :], instance.coords[members][None, :, :]).sum(axis=1)
        current = floor_distance(instance.coords[members], instance.coords[medians[k]]).sum()
        if total.min() < current and candidates[np.argmin(total)] not in new:
            new[k] = candidates[np.argmin(total)]
    return new


def _cost(instance: CPMPInstance, medians: np.ndarray, slot: np.ndarray) -> float:
    return float(floor_distance(instance.coords, instance.coords[medians[slot]]).sum())


class CPMPLocalSearch(Solver):
    name = "cpmp-ls"
    problems = ("cpmp",)
    version = "2"

    def solve(self, instance: CPMPInstance, budget: Budget) -> Iterator[object]:
        clock = Clock(budget.time_limit, margin=0.05)
        rng = np.random.default_rng(budget.seed)
        best_value = np.inf
        best: tuple[np.ndarray, np.ndarray] | None = None
        tries = 0
        while not clock.expired():
            if best is None:
                medians = self._spread(instance, rng)
                tries += 1
            else:
                medians = self._kick(instance, best[0], rng)
            slot = regret_assignment(instance, medians)
            if slot is None:
                if best is None and tries >= 200:
                    return  # no feasible assignment found from 200 starts (e.g. the demand exceeds every p capacities)
                continue
            value = np.inf
            while not clock.expired():  # alternate: assignment, medoids, assignment, ... while it gains
                slot = improve_assignment(instance, medians, slot, clock)
                new_value = _cost(instance, medians, slot)
                if new_value >= value - 1e-9:
                    break
                value = new_value
                moved = medoids(instance, medians, slot)
                if np.array_equal(moved, medians):
                    break
                reassigned = regret_assignment(instance, moved)
                if reassigned is None:
                    break
                medians, slot = moved, reassigned
            value = _cost(instance, medians, slot)
            if value < best_value - 1e-9:
                best_value, best = value, (medians.copy(), slot.copy())
                yield CPMPSolution(medians.copy(), medians[slot])

    @staticmethod
    def _spread(instance: CPMPInstance, rng: np.random.Generator) -> np.ndarray:
        """k-means++ seeding (Arthur and Vassilvitskii 2007): each next median drawn with probability proportional
        to the squared distance to the nearest one chosen."""
        chosen = [int(rng.integers(instance.n))]
        nearest = floor_distance(instance.coords, instance.coords[chosen[0]]) ** 2
        for _ in range(instance.p - 1):
            weights = nearest.copy()
            weights[chosen] = 0.0
            total = weights.sum()
            free = np.setdiff1d(np.arange(instance.n), chosen)
            pick = int(rng.choice(instance.n, p=weights / total)) if total > 0 else int(rng.choice(free))
            chosen.append(pick)
            nearest = np.minimum(nearest, floor_distance(instance.coords, instance.coords[pick]) ** 2)
        return np.array(chosen, dtype=np.int64)

    @staticmethod
    def _kick(instance: CPMPInstance, medians: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Replace one or two medians by points drawn at random among the non-medians."""
        if instance.p == instance.n:
            return medians.copy()
        new = medians.copy()
        free = np.setdiff1d(np.arange(instance.n), medians)
        count = min(len(free), int(rng.integers(1, 3)), instance.p)
        new[rng.choice(instance.p, size=count, replace=False)] = rng.choice(free, size=count, replace=False)
        return new
