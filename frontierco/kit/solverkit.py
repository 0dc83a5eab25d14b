"""Helpers for writing solvers: integer distances for libraries that need them, a clock for the budget,
and a bridge from callback-style libraries to the anytime ``yield`` contract."""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from frontierco.problems.graphs.mis import MISInstance
from frontierco.problems.routing.cvrp import CVRPInstance
from frontierco.problems.routing.cvrptw import CVRPTWInstance
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance

INTEGER_SCALE_TARGET = 1e5
LIMIT_REFINEMENT = 100.0  # a route length limit on real distances: integers 100 times finer, so rounding up costs little


def integer_scale(weights: EdgeWeights) -> float:
    """The factor that turns the instance's distances into integers for integer-only libraries: 1 for
    integer rules, else a power of ten that puts the largest distance near 1e5. Solutions are always
    evaluated with the instance's own (unscaled) distances."""
    if weights.is_integer:
        return 1.0
    if weights.rule == "EXPLICIT":
        assert weights.matrix is not None
        largest = float(np.max(weights.matrix))
    else:
        assert weights.coords is not None
        span = weights.coords.max(axis=0) - weights.coords.min(axis=0)
        largest = float(np.hypot(*span)) if weights.coords.shape[0] > 1 else 1.0
    if largest <= 0:
        return 1.0
    return 10.0 ** math.floor(math.log10(INTEGER_SCALE_TARGET / largest))


def integer_matrix(weights: EdgeWeights, scale: float | None = None) -> np.ndarray:
    """The full distance matrix as int64, scaled by ``integer_scale`` (or ``scale``) and rounded; at most one n x n
    array beside the result (a 30,000-customer matrix is 7.2 GB)."""
    factor = integer_scale(weights) if scale is None else scale
    matrix = weights.full_matrix()
    if factor == 1.0 and weights.is_integer:
        return matrix.astype(np.int64, copy=False)
    scaled = matrix * factor if weights.rule == "EXPLICIT" else np.multiply(matrix, factor, out=matrix)  # never the instance's own
    return np.rint(scaled, out=scaled).astype(np.int64)


@dataclass(frozen=True)
class RouteLimit:
    """A CVRP instance's maximum route length in integers, for libraries that work on integers: ``travel`` is the
    distance matrix scaled by ``scale`` and rounded up, ``service`` the service time at each node (0 at the depot)
    scaled and rounded up, ``limit`` the maximum scaled down and rounded down. A route within ``limit`` in these
    integers is within the instance's own limit (exactly so for integer distance rules, where ``scale`` is 1)."""

    scale: float
    travel: np.ndarray
    service: np.ndarray
    limit: int

    @property
    def has_service(self) -> bool:
        return bool(np.any(self.service))


def route_limit(instance: CVRPInstance) -> RouteLimit | None:
    """The instance's route length limit in integers (None when it has none)."""
    if instance.max_distance is None:
        return None
    weights = instance.weights
    scale = integer_scale(weights) * (1.0 if weights.is_integer else LIMIT_REFINEMENT)
    matrix = weights.full_matrix()
    travel = matrix.astype(np.int64) if scale == 1.0 and weights.is_integer else np.ceil(matrix * scale - 1e-9).astype(np.int64)
    service = np.zeros(instance.n, dtype=np.int64)
    service[1:] = math.ceil(float(instance.service_time or 0.0) * scale - 1e-9)
    return RouteLimit(scale, travel, service, math.floor(instance.max_distance * scale + 1e-9))


def refuse_route_limit(instance: object, solver: str) -> None:
    """A ValueError for a solver that cannot honour a maximum route length, given an instance that has one."""
    if isinstance(instance, CVRPInstance) and instance.max_distance is not None:
        raise ValueError(
            f"{solver} cannot honour a maximum route length (DISTANCE {instance.max_distance:g}): run it where routes have no"
            " length limit, or use pyvrp, pyvrp-decomp, hgs, ortools or savings"
        )


@dataclass
class Clock:
    """Seconds left of a budget, with a safety margin so a library stops before the harness does."""

    time_limit: float
    margin: float = 0.05
    started: float = field(default_factory=time.monotonic)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def left(self) -> float:
        """Seconds a library may still use (never below 0.1, so a call is well-formed)."""
        return max(0.1, self.time_limit * (1.0 - self.margin) - self.elapsed())

    def expired(self) -> bool:
        return self.elapsed() >= self.time_limit * (1.0 - self.margin)


def cpu_share(sample: float = 0.05) -> float:
    """The share of one core this process gets now (busy-loop CPU time over wall time, in (0, 1]): turns
    a wall-clock budget into a CPU-time limit for libraries that count CPU time."""
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall_start < sample:
        pass
    share = (time.process_time() - cpu_start) / (time.perf_counter() - wall_start)
    return min(1.0, max(0.1, share))


def static_greedy_independent_set(instance: MISInstance) -> np.ndarray:
    """A quick independent set: vertices by increasing (initial) degree, each taken while still free."""
    return greedy_independent_set(instance, np.argsort(instance.adjacency.degrees, kind="stable"))


def greedy_independent_set(instance: MISInstance, order: np.ndarray) -> np.ndarray:
    """The vertices in ``order`` (a permutation), each taken while still free: a maximal independent set, sorted."""
    adjacency = instance.adjacency
    blocked = np.zeros(instance.n, dtype=bool)
    chosen = []
    for v in order:
        if not blocked[v]:
            chosen.append(v)
            blocked[adjacency.neighbours(v)] = True
            blocked[v] = True
    return np.array(sorted(chosen), dtype=np.int64)


def independent_dominating_set(n: int, edges: np.ndarray, key: np.ndarray) -> np.ndarray:
    """A maximal independent set (so a dominating set) by rounds of local maxima of ``key`` (distinct keys),
    over the edge list, which shrinks each round to the edges between undecided vertices."""
    undecided = np.ones(n, dtype=bool)
    chosen = np.zeros(n, dtype=bool)
    a, b = edges[:, 0], edges[:, 1]
    while undecided.any():
        beaten = np.zeros(n, dtype=bool)
        beaten[a[key[a] < key[b]]] = True
        beaten[b[key[b] < key[a]]] = True
        pick = undecided & ~beaten
        chosen |= pick
        undecided &= ~pick
        undecided[b[pick[a]]] = False
        undecided[a[pick[b]]] = False
        live = undecided[a] & undecided[b]
        a, b = a[live], b[live]
    return np.flatnonzero(chosen)


_DONE = object()


def pyvrp_data(instance: CVRPInstance) -> Any:
    """PyVRP ProblemData: location 0 is the depot, locations 1..n-1 the customers in order. A maximum route length
    becomes the vehicle type's ``max_distance`` (or, with service times, its ``shift_duration`` over durations
    equal to the distances plus each client's ``service_duration``), on ``route_limit``'s rounded-up integers."""
    import pyvrp

    n = instance.n
    coords = instance.weights.coords if instance.weights.coords is not None else np.zeros((n, 2))
    locations = [pyvrp.Location(float(x), float(y)) for x, y in coords.tolist()]
    limited = route_limit(instance)
    vehicles = instance.num_vehicles or n - 1
    if limited is not None:
        if isinstance(instance, CVRPTWInstance):
            raise ValueError("a maximum route length together with time windows is not supported")
        distances = limited.travel
        depots = [pyvrp.Depot(0)]
        service = limited.service.tolist()
        clients = [pyvrp.Client(i, delivery=[int(instance.demands[i])], service_duration=int(service[i])) for i in range(1, n)]
        unlimited = int(np.iinfo(np.int64).max)  # PyVRP's own default: no bound
        shift, distance = (limited.limit, unlimited) if limited.has_service else (unlimited, limited.limit)
        vehicle = pyvrp.VehicleType(vehicles, capacity=[int(instance.capacity)], shift_duration=shift, max_distance=distance)
        return pyvrp.ProblemData(locations, clients, depots, [vehicle], [distances], [distances])  # type: ignore[list-item]
    distances = integer_matrix(instance.weights)
    if isinstance(instance, CVRPTWInstance):
        assert instance.durations is not None and instance.time_windows is not None and instance.service_times is not None
        scale = integer_scale(instance.durations)
        durations = integer_matrix(instance.durations, scale)
        early = np.ceil(instance.time_windows[:, 0] * scale - 1e-9).astype(np.int64)
        late = np.floor(instance.time_windows[:, 1] * scale + 1e-9).astype(np.int64)
        service = np.rint(instance.service_times * scale).astype(np.int64)
        depots = [pyvrp.Depot(0, tw_early=int(early[0]), tw_late=int(late[0]))]
        clients = [
            pyvrp.Client(
                i, delivery=[int(instance.demands[i])], service_duration=int(service[i]), tw_early=int(early[i]), tw_late=int(late[i])
            )
            for i in range(1, n)
        ]
        vehicle = pyvrp.VehicleType(vehicles, capacity=[int(instance.capacity)], tw_early=int(early[0]), tw_late=int(late[0]))
    else:
        durations = distances  # no time windows and no duration limit: durations change nothing, and PyVRP copies both
        depots = [pyvrp.Depot(0)]
        clients = [pyvrp.Client(i, delivery=[int(instance.demands[i])]) for i in range(1, n)]
        vehicle = pyvrp.VehicleType(vehicles, capacity=[int(instance.capacity)])
    return pyvrp.ProblemData(locations, clients, depots, [vehicle], [distances], [durations])  # type: ignore[list-item]


def stream(run: Callable[[Callable[[Any], None]], None]) -> Iterator[Any]:
    """Run ``run(emit)`` in a thread and yield whatever it emits, as it emits it (callback libraries:
    CP-SAT, SCIP, HiGHS, OR-Tools routing). An exception in ``run`` is raised here."""
    items: queue.Queue[Any] = queue.Queue()
    failure: list[BaseException] = []

    def target() -> None:
        try:
            run(items.put)
        except BaseException as exc:  # handed to the consumer below
            failure.append(exc)
        finally:
            items.put(_DONE)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    while (item := items.get()) is not _DONE:
        yield item
    thread.join()
    if failure:
        raise failure[0]


def cpsat_incumbents(
    solver: Any, model: Any, read: Callable[[Callable[[Any], int]], Any], lower_bound: float | None = None
) -> Iterator[tuple[str, Any]]:
    """Solve ``model`` with the CP-SAT ``solver`` (its parameters set) in a thread and yield what it finds as it
    finds it: ``("solution", read(value))`` for every incumbent, ``read`` given the callback's variable-value
    function; for a minimisation with a known ``lower_bound``, ``("bound", b)`` whenever CP-SAT's objective bound
    rises above the last one reported; at the end ``("optimal", read(solver.value))`` when proven optimal."""
    from ortools.sat.python import cp_model

    reported = [lower_bound]

    def better(value: float, emit: Callable[[Any], None]) -> None:
        if reported[0] is not None and value > reported[0]:
            reported[0] = value
            emit(("bound", value))

    class Incumbents(cp_model.CpSolverSolutionCallback):
        def __init__(self, emit: Callable[[Any], None]) -> None:
            super().__init__()
            self.emit = emit

        def on_solution_callback(self) -> None:
            self.emit(("solution", read(self.value)))
            better(self.best_objective_bound, self.emit)

    def run(emit: Callable[[Any], None]) -> None:
        if lower_bound is not None:
            solver.best_bound_callback = lambda value: better(value, emit)
        status = solver.solve(model, Incumbents(emit))
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT refused the model: {model.validate()}")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            better(solver.best_objective_bound, emit)
        if status == cp_model.OPTIMAL:
            emit(("optimal", read(solver.value)))

    yield from stream(run)


class ScipSearch:
    """A PySCIPOpt model searched in slices: each ``run`` continues the tree search where the last one stopped
    (SCIP keeps its state between ``optimize`` calls), so a caller can pause it, work elsewhere and hand it
    better solutions (``offer``) before resuming. ``limits/time`` counts SCIP's solving time over all slices."""

    def __init__(self, model: Any, variables: list[Any]) -> None:
        import pyscipopt

        self.model, self.variables = model, variables
        self.emit: Callable[[Any], None] = lambda item: None
        search = self

        class Incumbents(pyscipopt.Eventhdlr):
            def eventinit(self) -> None:
                self.model.catchEvent(pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND, self)

            def eventexit(self) -> None:
                self.model.dropEvent(pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND, self)

            def eventexec(self, event: Any) -> None:
                search.emit((search.values(self.model.getBestSol()), False))

        model.includeEventhdlr(Incumbents(), "incumbents", "streams every new best solution")

    def values(self, solution: Any) -> np.ndarray:
        return np.array([self.model.getSolVal(solution, var) for var in self.variables], dtype=np.float64)

    @property
    def finished(self) -> bool:
        """Solved: proven optimal or infeasible (no slice can add anything)."""
        return self.model.getStatus() in ("optimal", "infeasible", "unbounded", "inforunbd")

    def run(self, until: float | None = None) -> Iterator[tuple[np.ndarray, bool]]:
        """Search until SCIP's solving time reaches ``until`` seconds (None: the model's own limits), yielding
        (column values, proven optimal) for every new best solution, and once more with True when SCIP
        proves the last one optimal."""
        if until is not None:
            self.model.setParam("limits/time", max(until, self.model.getSolvingTime() + 0.01))

        def search(emit: Callable[[Any], None]) -> None:
            self.emit = emit
            self.model.optimizeNogil()
            self.emit = lambda item: None
            if self.model.getStatus() == "optimal":
                emit((self.values(self.model.getBestSol()), True))

        yield from stream(search)

    def offer(self, values: np.ndarray) -> bool:
        """Hand SCIP a solution found elsewhere (values of ``variables``); True when SCIP stored it."""
        import pyscipopt

        stage = self.model.getStage()
        if stage > pyscipopt.SCIP_STAGE.SOLVING:  # solved: nothing left to gain
            return False
        solution = self.model.createOrigSol()
        for var, value in zip(self.variables, values, strict=True):
            self.model.setSolVal(solution, var, float(value))
        if stage == pyscipopt.SCIP_STAGE.PROBLEM:  # before the first slice: checked when solving starts
            return bool(self.model.addSol(solution, free=True))
        return bool(self.model.trySol(solution, free=True))


def scip_incumbents(model: Any, variables: list[Any]) -> Iterator[tuple[np.ndarray, bool]]:
    """Optimise a PySCIPOpt model, yielding (column values, proven optimal) for every new best solution as
    SCIP finds it, and once more with True when it proves the last one optimal."""
    yield from ScipSearch(model, variables).run()


def hilbert_index(points: np.ndarray, order: int = 16) -> np.ndarray:
    """Each point's position along the Hilbert curve of a 2^order grid laid over the points' bounding box
    (the classic rotate-and-flip walk from the top level down, for all points at once): sorted by it, the points
    make a tour within a constant factor of the optimum in the plane, in O(n log n)."""
    low, span = points.min(axis=0), np.ptp(points, axis=0)
    side = 1 << order
    cells = np.floor((points - low) / np.where(span > 0, span, 1.0) * (side - 1)).astype(np.int64)
    x, y = cells[:, 0].copy(), cells[:, 1].copy()
    index = np.zeros(len(points), dtype=np.int64)
    level = side >> 1
    while level > 0:
        rx = (x & level) > 0
        ry = (y & level) > 0
        index += level * level * ((3 * rx) ^ ry)
        flip = ~ry  # rotate the quadrant so that the curve inside it is the canonical one
        swap_x = np.where(flip & rx, side - 1 - x, x)
        swap_y = np.where(flip & rx, side - 1 - y, y)
        x, y = np.where(flip, swap_y, x), np.where(flip, swap_x, y)
        level >>= 1
    return index


def nearest_neighbour(weights: EdgeWeights, start: int) -> np.ndarray:
    """The nearest-neighbour tour from ``start`` (always to the closest unvisited node, by the instance's own
    weights, asymmetric ones included): the cheap first tour of the TSP solvers that need one at once."""
    n = weights.size
    tour = np.empty(n, dtype=np.int64)
    unvisited = np.ones(n, dtype=bool)
    current = start
    for k in range(n):
        tour[k] = current
        unvisited[current] = False
        if k == n - 1:
            break
        candidates = np.flatnonzero(unvisited)
        current = int(candidates[np.argmin(weights.between(np.full(candidates.size, current), candidates))])
    return tour


def classical_mds(matrix: np.ndarray) -> np.ndarray:
    """(n, 2) points whose Euclidean distances best match the symmetrised matrix (Torgerson's classical
    multidimensional scaling: the two leading eigenvectors of the double-centred squared distances). How the
    learned routing models place an instance that has no coordinates."""
    matrix = np.asarray(matrix, dtype=np.float64)
    n = matrix.shape[0]
    squared = ((matrix + matrix.T) / 2.0) ** 2
    centre = np.eye(n) - 1.0 / n
    values, vectors = np.linalg.eigh(-0.5 * centre @ squared @ centre)
    return np.asarray(vectors[:, -2:] * np.sqrt(np.maximum(values[-2:], 0.0)))


def unit_square(instance: TSPInstance | CVRPInstance) -> np.ndarray:
    """The points a learned routing model reads: the coordinates when they lie in the unit square (its training data), else
    min-max scaled with one factor; without coordinates, a classical multidimensional scaling of the
    symmetrised matrix (the tour is still costed with the instance's own weights)."""
    weights = instance.weights
    points = np.asarray(weights.coords, dtype=np.float64)[:, :2] if weights.coords is not None else classical_mds(weights.full_matrix())
    if points.min() >= 0.0 and points.max() <= 1.0:
        return points
    low = points.min(0)
    span = float((points.max(0) - low).max())
    return (points - low) / (span if span > 0 else 1.0)


def depot_routes(visits: np.ndarray) -> list[np.ndarray]:
    """The routes in a learned CVRP decoder's visit sequence: the customers between visits to the depot 0
    (negative entries, padding after the end, are dropped)."""
    visits = visits[visits >= 0]
    return [r[r != 0].astype(np.int64) for r in np.split(visits, np.flatnonzero(visits == 0)) if np.any(r != 0)]
