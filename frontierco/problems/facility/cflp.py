"""Capacitated facility location with splittable demand, as FrontierCO evaluates it.

Facilities 0..n-1 have a capacity and a fixed opening cost; customers 0..m-1 a demand; ``cost[i, j]`` is the
cost of serving all of customer j's demand from facility i (so serving a fraction f of it costs f * cost[i, j]).
A solution opens some facilities (each open one pays its fixed cost) and gives every customer fractions of its
demand from open facilities that sum to 1; no facility serves more demand than its capacity. FrontierCO's
``data/CFLP/config.py`` (``eval_func``) and its Gurobi model (``solve.py``: continuous assignment variables)
both allow a customer to be split: this is that problem, and a single-source solution (one facility per
customer, fraction 1) is one case of it. Tolerances: fractions sum to 1 within 1e-6, a load may exceed its
capacity by at most 1e-6 + 1e-9 * capacity, a fraction below 1e-9 counts as zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from frontierco.errors import FormatError
from frontierco.problems.common.base import Evaluation, Problem
from frontierco.problems.common.checks import as_index_array, first_out_of_range, first_repeated, times
from frontierco.problems.common.text import read_text
from frontierco.problems.common.tokens import fields, real, whole

SUM_TOL = 1e-6
ZERO = 1e-9
CAP_ABS_TOL, CAP_REL_TOL = 1e-6, 1e-9


def _vector(values: np.ndarray, length: int, what: str, per: str) -> None:
    if values.ndim != 1 or len(values) != length:
        raise ValueError(f"{what} must have one entry per {per} ({length})")
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{what} must be finite")


@dataclass(frozen=True, eq=False)
class CFLPInstance:
    """n facilities (capacity, fixed cost), m customers (demand), cost[i, j] for all of j's demand from i."""

    name: str
    capacity: np.ndarray
    fixed_cost: np.ndarray
    demand: np.ndarray
    cost: np.ndarray

    def __post_init__(self) -> None:
        if self.cost.ndim != 2:
            raise ValueError("cost must be a facilities x customers matrix")
        n, m = self.cost.shape
        if n < 1 or m < 1:
            raise ValueError("at least one facility and one customer")
        _vector(self.capacity, n, "capacity", "facility")
        _vector(self.fixed_cost, n, "fixed cost", "facility")
        _vector(self.demand, m, "demand", "customer")
        if not np.all(np.isfinite(self.cost)):
            raise ValueError("assignment costs must be finite")
        if np.any(self.capacity < 0) or np.any(self.demand < 0):
            raise ValueError("capacities and demands must be non-negative")

    @property
    def n(self) -> int:
        """Facilities."""
        return int(self.cost.shape[0])

    @property
    def m(self) -> int:
        """Customers."""
        return int(self.cost.shape[1])


@dataclass(frozen=True, eq=False)
class CFLPSolution:
    """The open facilities and the served fractions as triplets: customer[k] gets fraction[k] of its demand from
    facility[k]."""

    open: np.ndarray
    customer: np.ndarray
    facility: np.ndarray
    fraction: np.ndarray

    @classmethod
    def single_source(cls, facility_of: np.ndarray) -> CFLPSolution:
        """Customer j served wholly by facility_of[j]; exactly the facilities used are open."""
        facility_of = np.asarray(facility_of, dtype=np.int64)
        return cls(np.unique(facility_of), np.arange(len(facility_of)), facility_of, np.ones(len(facility_of)))


def evaluate(instance: CFLPInstance, solution: CFLPSolution) -> Evaluation:
    """Every customer's fractions come from open facilities and sum to 1, no capacity is exceeded; the cost is
    recomputed here: fixed costs of the open facilities plus fraction x assignment cost (numbered from 1)."""
    n, m = instance.n, instance.m
    opened, problem = as_index_array(solution.open, "open facilities")
    if opened is None:
        return Evaluation.infeasible(problem)
    bad = first_out_of_range(opened, 0, n - 1)
    if bad is not None:
        return Evaluation.infeasible(f"open facility {bad + 1} is not in 1..{n} (numbered from 1)")
    repeated = first_repeated(opened, n)
    if repeated is not None:
        return Evaluation.infeasible(f"facility {repeated[0] + 1} opened {times(repeated[1])}")
    customer, problem = as_index_array(solution.customer, "customers of the assignment")
    if customer is None:
        return Evaluation.infeasible(problem)
    facility, problem = as_index_array(solution.facility, "facilities of the assignment")
    if facility is None:
        return Evaluation.infeasible(problem)
    try:
        fraction = np.asarray(solution.fraction, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):  # a solver's JSON: an object, a string, a number past float64
        return Evaluation.infeasible("the assignment's fractions must be a flat list of numbers")
    if not (len(customer) == len(facility) == fraction.size) or fraction.ndim != 1:
        return Evaluation.infeasible("the assignment's customers, facilities and fractions must be lists of one length")
    if not np.all(np.isfinite(fraction)):
        return Evaluation.infeasible("the assignment has a fraction that is not a finite number")
    bad = first_out_of_range(customer, 0, m - 1)
    if bad is not None:
        return Evaluation.infeasible(f"customer {bad + 1} is not in 1..{m} (numbered from 1)")
    bad = first_out_of_range(facility, 0, n - 1)
    if bad is not None:
        return Evaluation.infeasible(f"facility {bad + 1} is not in 1..{n} (numbered from 1)")
    negative = np.flatnonzero(fraction < -ZERO)
    if negative.size:
        k = negative[0]
        return Evaluation.infeasible(f"customer {customer[k] + 1} gets a negative fraction {fraction[k]:g} from facility {facility[k] + 1}")
    is_open = np.zeros(n, dtype=bool)
    is_open[opened] = True
    closed = np.flatnonzero((fraction > ZERO) & ~is_open[facility])
    if closed.size:
        k = closed[0]
        return Evaluation.infeasible(f"customer {customer[k] + 1} is served by facility {facility[k] + 1}, which is not open")
    served = np.bincount(customer, weights=fraction, minlength=m)
    short = np.flatnonzero(np.abs(served - 1.0) > SUM_TOL)
    if short.size:
        j = short[0]
        return Evaluation.infeasible(
            f"customer {j + 1} is served fractions summing to {served[j]:.9g}, not 1 (all its demand must be served)"
        )
    load = np.bincount(facility, weights=fraction * instance.demand[customer], minlength=n)
    over = np.flatnonzero(load > instance.capacity + CAP_ABS_TOL + CAP_REL_TOL * instance.capacity)
    if over.size:
        i = over[0]
        return Evaluation.infeasible(f"facility {i + 1} serves demand {load[i]:.9g}, over its capacity {instance.capacity[i]:.9g}")
    objective = float(instance.fixed_cost[opened].sum()) + float(np.dot(fraction, instance.cost[facility, customer]))
    return Evaluation.ok(objective)


def write_solution_file(path: Path, instance: CFLPInstance, solution: CFLPSolution, objective: float | None) -> None:
    """'open i1 i2 ...', then one 'customer facility fraction' line per served part (numbered from 1)."""
    lines = ["open " + " ".join(str(int(i) + 1) for i in np.sort(solution.open))]
    lines += [
        f"{int(j) + 1} {int(i) + 1} {float(f)!r}" for j, i, f in zip(solution.customer, solution.facility, solution.fraction, strict=True)
    ]
    path.write_text("\n".join(lines) + "\n")


def read_solution_file(path: Path, instance: CFLPInstance) -> CFLPSolution:
    lines = [(k, fields(raw)) for k, raw in enumerate(read_text(path).splitlines(), start=1) if raw.strip()]
    if not lines or lines[0][1][0] != "open":
        raise FormatError(path, lines[0][0] if lines else 0, "a first line 'open FACILITY ...' (numbered from 1)")
    try:
        opened = [whole(t) - 1 for t in lines[0][1][1:]]
    except ValueError:
        raise FormatError(path, lines[0][0], "'open' followed by integer facility numbers") from None
    triplets = []
    for number, tokens in lines[1:]:
        try:
            if len(tokens) != 3:
                raise ValueError
            triplets.append((whole(tokens[0]) - 1, whole(tokens[1]) - 1, real(tokens[2])))
        except ValueError:
            raise FormatError(path, number, "'CUSTOMER FACILITY FRACTION' (integers from 1, a number)") from None
    parts = np.array(triplets, dtype=np.float64).reshape(-1, 3)
    return CFLPSolution(np.array(opened, dtype=np.int64), parts[:, 0].astype(np.int64), parts[:, 1].astype(np.int64), parts[:, 2])


PROBLEM = Problem(
    name="cflp",
    sense="min",
    instance_type=CFLPInstance,
    solution_type=CFLPSolution,
    evaluate=evaluate,
    description="capacitated facility location, splittable demand (FrontierCO's); fixed + assignment cost, minimise",
    to_data=lambda s: {
        "open": np.asarray(s.open).tolist(),
        "customer": np.asarray(s.customer).tolist(),
        "facility": np.asarray(s.facility).tolist(),
        "fraction": np.asarray(s.fraction, dtype=np.float64).tolist(),
    },
    from_data=lambda d: CFLPSolution(
        np.asarray(d["open"]), np.asarray(d["customer"]), np.asarray(d["facility"]), np.asarray(d["fraction"])
    ),
    size=lambda instance: instance.m,
    describe=lambda instance: f"{instance.n} facilities, {instance.m} customers",
    default_collection="cflp-cornuejols-easy",
    reference_solver="highs",
    baseline="highs",
    time_shift=1.0,
    solution_suffix=".txt",
    cases="frontierco.problems.facility.cases:cflp_cases",
    frontierco_folder="CFLP",
)
