"""LKH (Helsgaun's Lin-Kernighan heuristic) through the ``elkai`` package, for TSP and ATSP; above the size where
LKH's first trial does not end within the budget, the numba LK-style local search of ``frontierco.kit``."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from frontierco.kit.solverkit import Clock, cpu_share, hilbert_index, integer_matrix, integer_scale
from frontierco.problems import TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver

NATIVE_RULES = ("EUC_2D", "CEIL_2D", "ATT", "GEO", "MAN_2D", "MAX_2D")
LARGE = 1_000  # cities from which LKH gets POPMUSIC candidate sets (benchmarks/lkh_ladder.py: the ascent costs too much)
HUGE = 100_000  # cities from which POPMUSIC gives way to QUADRANT candidates, no ascent and a greedy first tour
FIRST_SHARE = 0.25  # of the time left, for the first run: preprocessing (candidates saved) and a first search
ONE_RUN = 5_000  # cities from which LKH runs once with the whole budget: a first run's share would end inside its preprocessing
SHARE_SAMPLE = 1.0  # seconds of busy loop that measure the share of a core the process gets
FIRST_SEARCH = 0.3  # of the budget at most, for the numba search's local optimum that LKH then starts from
SHARE_MARGIN = 0.85  # of that share: it changes while LKH runs, and a run that outlasts the wall budget loses its tour
NUMBA_FROM = 2_000_000  # cities from which the numba search replaces LKH (its first trial outlasts 300 s)
NEIGHBOURS = 8  # candidate lists of the numba search
GREEDY_FROM = 5_000_000  # cities from which the numba search starts from the greedy-edge tour, not the Hilbert curve:
# where it searches the whole 300 s of a 10M-city run (E10M.0 4.48% against 6.00%); at 100k-3M the runs from it ended
# worse (README: version 9), and below it every run is version 8's
DEPTH = 10  # flips of one LK-style move of the numba search (benchmarks/tsp_size_ladder.py)
TRIALS = 1_000_000_000  # LKH's MAX_TRIALS (its default, n, ends a run on small instances long before the limit)


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


def tour_file(path: Path, tour: np.ndarray) -> Path:
    """A tour as LKH reads an INITIAL_TOUR_FILE (TSPLIB's TOUR_SECTION, cities from 1)."""
    path.write_text("TOUR_SECTION\n" + "\n".join(str(city + 1) for city in tour.tolist()) + "\n-1\nEOF\n")
    return path


def first_tour(instance: TSPInstance) -> np.ndarray:
    """A tour at once: the cities along a Hilbert curve where there are coordinates, else in their order."""
    coords = instance.weights.coords
    if coords is None:
        return np.arange(instance.n, dtype=np.int64)
    return np.argsort(hilbert_index(np.asarray(coords, dtype=np.float64)[:, :2]), kind="stable").astype(np.int64)


class LKH(Solver):
    name = "lkh"
    problems = ("tsp",)
    version = "9"
    deterministic = True
    requires = {"elkai": "elkai>=2.0", "numba": "numba>=0.59"}

    def setup(self) -> None:
        from frontierco.kit import greedy_tour, tour_search

        tour_search.warm_up()  # the numba search and greedy start compiled (or loaded from numba's cache) before the clock
        greedy_tour.warm_up()

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[TSPSolution]:
        from elkai import _elkai

        from frontierco.kit.greedy_tour import greedy_tour
        from frontierco.kit.grid_neighbours import grid_neighbours
        from frontierco.kit.tour_search import LocalSearch, TourCosts, anytime, candidates

        clock = Clock(budget.time_limit, margin=0.1)
        n = instance.n
        best = curve = first_tour(instance)
        yield TSPSolution(best)
        if n < 4:
            return
        length = instance.weights.path_length(np.append(best, best[0]))
        costs = TourCosts.of(instance) if n >= ONE_RUN and instance.weights.coords is not None else None
        if costs is not None:
            # the numba search (from GREEDY_FROM cities starting from the greedy-edge tour): 2-opt + Or-opt, then LK-style
            # moves; above NUMBA_FROM for the whole budget, below it to a local optimum within FIRST_SEARCH of the budget,
            # the tour LKH starts from (a tour within seconds whatever share of a core LKH's CPU-time limits get)
            points = np.asarray(instance.weights.coords, dtype=np.float64)[:, :2]
            if n >= GREEDY_FROM:  # the same lists (ties by index), built by a grid of buckets in about 60% of the time
                neighbours = grid_neighbours(points, NEIGHBOURS)
                greedy = greedy_tour(costs, neighbours, points)  # descends sooner and deeper than the curve (issue 40)
                if (greedy_length := costs.length(greedy)) < length:
                    best, length = greedy, greedy_length
                    yield TSPSolution(best)
            else:
                neighbours = candidates(costs, points, NEIGHBOURS)
            search = LocalSearch(best, costs, neighbours)
            whole = n >= NUMBA_FROM
            first = clock if whole else Clock(budget.time_limit * FIRST_SEARCH, margin=0.0, started=clock.started)
            for better in anytime(search, first, budget.seed, depth=DEPTH, kicks=whole):
                best, length = better, search.length
                yield TSPSolution(best)
            if whole:
                return
        text = problem_text(instance)
        # Below ONE_RUN two runs, both bounded by LKH's TOTAL_TIME_LIMIT (which, unlike TIME_LIMIT, counts the
        # preprocessing): the first builds the candidate sets, saves them and searches for a quarter of the time left;
        # the second reads the candidates back (a second or two where building them took 10-20 s at 13,509 cities)
        # and searches from the first run's tour for the rest. From ONE_RUN on one run gets it all: a quarter of the
        # time would end inside the preprocessing. MAX_TRIALS is lifted so that the time, not LKH's trial count (n
        # by default), ends a run.
        folder = Path(tempfile.mkdtemp(prefix="lkh-"))  # under TMPDIR: the run's one writable folder
        settings = f"RUNS = 1\nSEED = {budget.seed + 1}\nTRACE_LEVEL = 0\nMAX_TRIALS = {TRIALS}\nTIME_LIMIT = 1e9\n"
        settings += candidate_settings(n)
        runs: tuple[tuple[float, Path | None], ...] = ((1.0, folder / "start.tour"),)
        if n < ONE_RUN:
            settings += f"CANDIDATE_FILE = {folder / 'candidates'}\n"
            runs = ((FIRST_SHARE, None), (1.0, folder / "start.tour"))
        for share, start in runs:
            seconds = clock.left() * share * cpu_share(SHARE_SAMPLE) * SHARE_MARGIN  # LKH's limits count CPU time
            if seconds < 0.5:
                return
            begin = "" if start is None or best is curve else f"INITIAL_TOUR_FILE = {tour_file(start, best)}\n"
            params = f"{settings}{begin}TOTAL_TIME_LIMIT = {seconds:.3f}\nPROBLEM_FILE = :stdin:\n"
            tour = np.array(_elkai.solve_problem(params, text), dtype=np.int64)[:n] - 1
            if len(tour) != n or len(np.unique(tour)) != n:
                continue  # the limit fell before LKH's first tour was whole (d15112 at 15 s): the next run starts afresh
            found = instance.weights.path_length(np.append(tour, tour[0]))
            if found < length:
                best, length = tour, found
                yield TSPSolution(best)
