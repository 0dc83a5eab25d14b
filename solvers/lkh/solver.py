"""LKH (Helsgaun's Lin-Kernighan heuristic) through the ``elkai`` package, for TSP and ATSP."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from frontierco.kit.solverkit import Clock, integer_matrix, integer_scale
from frontierco.problems import TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver

NATIVE_RULES = ("EUC_2D", "CEIL_2D", "ATT", "GEO", "MAN_2D", "MAX_2D")
LARGE = 10_000  # cities from which LKH gets POPMUSIC candidate sets (no run with this solver had as many before)
HUGE = 100_000  # cities from which POPMUSIC gives way to QUADRANT candidates, no ascent and a greedy first tour


def problem_text(instance: TSPInstance) -> str:
    """The instance as TSPLIB text for LKH: native rules as coordinates, everything else as an integer
    matrix (unrounded Euclidean coordinates are scaled to integers first)."""
    weights = instance.weights
    n = instance.n
    if weights.rule in NATIVE_RULES or weights.rule == "EXACT_2D":
        assert weights.coords is not None
        rule, coords = weights.rule, weights.coords
        if rule == "EXACT_2D":
            rule, coords = "EUC_2D", np.rint(coords * integer_scale(weights))
        lines = [f"{k + 1} {x!r} {y!r}" for k, (x, y) in enumerate(coords.tolist())]
        header = f"TYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : {rule}\nNODE_COORD_SECTION\n"
        return header + "\n".join(lines) + "\nEOF\n"
    matrix = integer_matrix(weights)
    kind = "ATSP" if instance.is_asymmetric else "TSP"
    header = f"TYPE : {kind}\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : FULL_MATRIX\nEDGE_WEIGHT_SECTION\n"
    return header + "\n".join(" ".join(map(str, row)) for row in matrix.tolist()) + "\nEOF\n"


def candidate_settings(n: int) -> str:
    """LKH's candidate-set parameters for n cities: its defaults (alpha-nearness after a subgradient ascent)
    below LARGE, POPMUSIC from LARGE, QUADRANT without the ascent and a greedy first tour from HUGE."""
    if n >= HUGE:
        return "CANDIDATE_SET_TYPE = QUADRANT\nMAX_CANDIDATES = 5\nSUBGRADIENT = NO\nINITIAL_TOUR_ALGORITHM = GREEDY\n"
    return "CANDIDATE_SET_TYPE = POPMUSIC\nINITIAL_PERIOD = 100\n" if n >= LARGE else ""


class LKH(Solver):
    name = "lkh"
    problems = ("tsp",)
    version = "3"
    deterministic = True
    requires = {"elkai": "elkai>=2.0"}

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[TSPSolution]:
        from elkai import _elkai

        clock = Clock(budget.time_limit, margin=0.1)
        n = instance.n
        if n < 3:
            yield TSPSolution(np.arange(n))
            return
        text = problem_text(instance)
        # a short first run for an early tour, then the rest of the budget; LKH's TIME_LIMIT does not
        # cover its preprocessing (the ascent), so the first run's overhead is kept free for the second.
        # From LARGE cities on, POPMUSIC candidates replace the quadratic alpha-nearness ascent; the short
        # first run stays there too, because the preprocessing it measures grows with n (version 1 gave one
        # run the whole budget, and at 10,000 to 1M cities its preprocessing ran past the harness's limit:
        # no tour at all at 300 s). From HUGE cities on, POPMUSIC's own preprocessing is too slow (E316k.0:
        # 413 s with TIME_LIMIT 10 and no ascent); QUADRANT candidates without the ascent and a greedy first
        # tour gave 402.7M there in 305 s with TIME_LIMIT 100 (version 2: no tour within 300 s)
        candidates = candidate_settings(n)
        overhead = 0.0
        for share in (0.1, 1.0):
            seconds = clock.left() * share - 1.2 * overhead
            if share == 1.0 and seconds < overhead:
                return  # the second run would be all preprocessing: it could not improve on the first tour
            seconds = max(0.1, seconds)
            limits = f"RUNS = 1\nSEED = {budget.seed + 1}\nTIME_LIMIT = {seconds:.3f}\nTRACE_LEVEL = 0\n"
            params = f"{limits}{candidates}PROBLEM_FILE = :stdin:\n"
            started = clock.elapsed()
            tour = np.array(_elkai.solve_problem(params, text), dtype=np.int64) - 1
            overhead = max(0.0, clock.elapsed() - started - seconds)
            yield TSPSolution(tour[:n])
            if clock.expired():
                return
