"""TSPLIB ``.tsp``/``.atsp`` and VRPLIB ``.vrp`` instances, VRPLIB ``.sol`` and TSPLIB ``.tour`` solutions.

Values are parsed by the ``vrplib`` package; this module groups the file into specifications and
sections itself so that every error names its line, assembles the explicit matrix layouts that
``vrplib`` leaves out (UPPER_ROW, LOWER_DIAG_ROW, ...), and turns the data into typed instances.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import vrplib
from vrplib.parse.parse_utils import infer_type

from frontierco.errors import FormatError
from frontierco.problems.common.text import base_suffix, open_text, read_all_ascii, read_text
from frontierco.problems.common.tokens import fields, real, whole
from frontierco.problems.routing.cvrp import CVRPInstance, CVRPSolution
from frontierco.problems.routing.cvrptw import CVRPTWInstance
from frontierco.problems.routing.distances import COORDINATE_RULES, EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance, TSPSolution

RoutingInstance = TSPInstance | CVRPInstance | CVRPTWInstance

_TRIANGLES = {
    "UPPER_ROW": (False, False),
    "LOWER_COL": (False, False),
    "UPPER_DIAG_ROW": (False, True),
    "LOWER_DIAG_COL": (False, True),
    "LOWER_ROW": (True, False),
    "UPPER_COL": (True, False),
    "LOWER_DIAG_ROW": (True, True),
    "UPPER_DIAG_COL": (True, True),
}


MAX_COORDINATE = 1e9  # |x|, |y|: rounded distances then fit int64 for tours of up to a billion nodes
MAX_WEIGHT = 1e12  # an explicit edge weight
STREAM_FROM = 1 << 22  # bytes: a coordinate TSP file larger than this is streamed (see _streamed_coordinate_tsp)


_HEADER = re.compile(r"^[ \t]*([A-Za-z_]+_SECTION)\b[ \t:]*([^\r\n]*)\r?$", re.M)
_EOF = re.compile(r"^[ \t]*EOF[ \t\r]*$", re.M)


@dataclass
class _Section:
    """A ``*_SECTION`` of the file: its name, the line of its header and its text up to the next section."""

    name: str
    line: int
    body: str

    def rows(self) -> list[tuple[int, str]]:
        """(file line, text) of its non-empty, non-comment lines (the slow path that names a bad line)."""
        numbered = enumerate(self.body.split("\n"), start=self.line)
        return [(number, line.strip()) for number, line in numbered if line.strip() and not line.strip().startswith("#")]

    def values(self, path: Path) -> np.ndarray:
        """Every number of the section in order, parsed at once; where numpy stops (a bad token, or a Unicode space
        padding a line), row by row, a bad row named by its line."""
        body = self.body if "#" not in self.body else "\n".join(line for _, line in self.rows())  # comment lines out
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # numpy warns, and stops, at a token that is not a number
                values = np.fromstring(body, dtype=np.float64, sep=" ")  # C parser: no Python object per number
            return values
        except (ValueError, DeprecationWarning):
            numbers: list[float] = []
            for number, line in self.rows():
                try:
                    numbers += [real(token) for token in fields(line)]
                except ValueError:
                    raise FormatError(path, number, f"numbers in {self.name.upper()}_SECTION, got {line[:40]!r}") from None
            return np.array(numbers, dtype=np.float64)

    def line_of_value(self, k: int) -> int:
        """The file line of the k-th number of the section."""
        seen = 0
        for number, line in self.rows():
            seen += len(fields(line))
            if seen > k:
                return number
        return self.line


def _group(text: str, path: Path) -> tuple[dict[str, tuple[object, int]], dict[str, _Section]]:
    """Specifications (value, line) and sections of a TSPLIB/VRPLIB file, each with its line number. Section
    headers are found by one regular expression over the whole text, so a million-line section is never
    walked line by line in Python."""
    eof = _EOF.search(text)
    limit = eof.start() if eof else len(text)  # no copy of the text: sections end at EOF
    headers = [header for header in _HEADER.finditer(text, 0, limit)]
    specs: dict[str, tuple[object, int]] = {}
    head = text[: headers[0].start() if headers else limit]
    for number, raw in enumerate(head.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if ":" not in line:
            raise FormatError(path, number, f"'KEY : value' or a *_SECTION header, got {line[:40]!r}")
        key, value = _specification(line)
        specs[key] = (value, number)
    sections: dict[str, _Section] = {}
    at = 1 + head.count("\n")
    for k, match in enumerate(headers):
        if k:
            at += text.count("\n", headers[k - 1].start(), match.start())
        name = match.group(1).upper().removesuffix("_SECTION").lower()
        if name in sections:
            raise FormatError(path, at, f"{match.group(1).upper()} only once")
        end = headers[k + 1].start() if k + 1 < len(headers) else limit
        body = text[match.end() : end]
        sections[name] = _Section(name, at, match.group(2) + body if match.group(2) else body)
    return specs, sections


def _specification(line: str) -> tuple[str, object]:
    """A 'KEY : value' line as vrplib's parser reads it (the key in lower case, the value a number where it is one),
    except that a value Python's int() or float() would take but no format writes ('1_000') stays text: a numeric
    specification then refuses it by its line, and a NAME keeps it as written."""
    key, value = (part.strip() for part in re.split(r"\s*:\s*", line, maxsplit=1))
    return key.lower(), value if "_" in value or not value.isascii() else infer_type(value)


def _spec(specs: dict[str, tuple[object, int]], key: str, path: Path, default: object = None) -> object:
    if key in specs:
        return specs[key][0]
    if default is None:
        raise FormatError(path, 0, f"a {key.upper()} specification")
    return default


def _int_spec(specs: dict[str, tuple[object, int]], key: str, path: Path) -> int:
    value = _spec(specs, key, path)
    if not isinstance(value, int) or value < 1:
        raise FormatError(path, specs[key][1], f"a positive integer {key.upper()}, got {value!r}")
    return value


def _number_spec(specs: dict[str, tuple[object, int]], key: str, path: Path, positive: bool) -> float | None:
    """An optional finite number specification (``DISTANCE : 650``), positive or non-negative; None when absent."""
    if key not in specs:
        return None
    value, line = specs[key]
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and 0 <= value <= MAX_WEIGHT
    if not ok or (positive and value == 0):
        raise FormatError(path, line, f"a finite {'positive' if positive else 'non-negative'} number {key.upper()}, got {value!r}")
    return float(value)  # type: ignore[arg-type]


def _section(sections: dict[str, _Section], name: str, path: Path) -> _Section:
    if name not in sections:
        raise FormatError(path, 0, f"a {name.upper()}_SECTION")
    return sections[name]


def _table(section: _Section, n: int, columns: int, path: Path) -> np.ndarray:
    """A section of n rows 'index v1 .. vk' as an (n, k) array (k = columns); a bad row is named by its line."""
    values = section.values(path)
    if values.size != n * (columns + 1):
        rows = section.rows()
        for number, line in rows:
            if len(fields(line)) != columns + 1:
                raise FormatError(path, number, f"an index and {columns} values in {section.name.upper()}_SECTION")
        raise FormatError(path, section.line, f"{n} rows in {section.name.upper()}_SECTION, found {len(rows)}")
    table = values.reshape(n, columns + 1)
    wrong = np.flatnonzero(table[:, 0] != np.arange(1, n + 1))  # ids in any other order would be silently ignored
    if wrong.size:
        k = int(wrong[0])
        raise FormatError(
            path,
            section.line_of_value(k * (columns + 1)),
            f"node ids 1..{n} in order in {section.name.upper()}_SECTION, got {table[k, 0]:g} in row {k + 1}",
        )
    return table[:, 1:]


def _bounded(values: np.ndarray, limit: float, section: _Section, path: Path, what: str, line_of: Callable[[int], int]) -> None:
    """Every value finite and within +-limit; else a FormatError at the line of the first that is not
    (``line_of``: the file line of the value with that flat index)."""
    bad = np.flatnonzero(~np.isfinite(values) | (np.abs(values) > limit))
    if bad.size:
        k = int(bad[0])
        raise FormatError(path, line_of(k), f"finite {what} within +-{limit:g} in {section.name.upper()}_SECTION, got {values.flat[k]!r}")


def _row_line(section: _Section, columns: int) -> Callable[[int], int]:
    """The file line of a table section's value by flat index (the index column not counted)."""
    return lambda k: section.line_of_value(k // columns * (columns + 1))


def _explicit_matrix(section: _Section, specs: dict[str, tuple[object, int]], n: int, path: Path) -> np.ndarray:
    layout = str(_spec(specs, "edge_weight_format", path)).upper()
    values = section.values(path)
    _bounded(values, MAX_WEIGHT, section, path, "edge weights", section.line_of_value)
    if layout == "FULL_MATRIX":
        expected = n * n
    elif layout in _TRIANGLES:
        expected = n * (n + 1) // 2 if _TRIANGLES[layout][1] else n * (n - 1) // 2
    else:
        raise FormatError(path, specs["edge_weight_format"][1], f"a known EDGE_WEIGHT_FORMAT, got {layout!r}")
    if values.size != expected:
        raise FormatError(path, section.line, f"{expected} values in EDGE_WEIGHT_SECTION ({layout}, n={n}), found {values.size}")
    integral = bool(np.all(values == np.round(values)))
    values = values.astype(np.int64) if integral else values
    if layout == "FULL_MATRIX":
        return values.reshape(n, n)
    lower, with_diagonal = _TRIANGLES[layout]
    matrix = np.zeros((n, n), dtype=values.dtype)
    rows, cols = np.tril_indices(n, 0 if with_diagonal else -1) if lower else np.triu_indices(n, 0 if with_diagonal else 1)
    matrix[rows, cols] = values
    matrix[cols, rows] = values
    return matrix


def _weights(specs: dict[str, tuple[object, int]], sections: dict[str, _Section], n: int, path: Path) -> EdgeWeights:
    rule = str(_spec(specs, "edge_weight_type", path)).upper()
    if rule == "EXPLICIT":
        return EdgeWeights("EXPLICIT", matrix=_explicit_matrix(_section(sections, "edge_weight", path), specs, n, path))
    if rule not in COORDINATE_RULES:
        raise FormatError(
            path, specs["edge_weight_type"][1], f"EDGE_WEIGHT_TYPE in {', '.join(COORDINATE_RULES)} or EXPLICIT, got {rule!r}"
        )
    coordinates = _section(sections, "node_coord", path)
    coords = _table(coordinates, n, 2, path)
    _bounded(coords, MAX_COORDINATE, coordinates, path, "coordinates", _row_line(coordinates, 2))
    return EdgeWeights(rule, coords=coords)


def _depot_is_first(sections: dict[str, _Section], path: Path) -> None:
    if "depot" not in sections:
        return
    depots = [float(v) for v in sections["depot"].values(path) if v != -1]
    if depots != [1.0]:
        raise FormatError(path, sections["depot"].line, "a single depot, node 1, in DEPOT_SECTION")


def _streamed_coordinate_tsp(path: Path) -> TSPInstance | None:
    """A coordinate TSP (the frontier's million-node files) read without holding its text: the specification
    lines are read one by one up to NODE_COORD_SECTION, then numpy's C reader takes exactly DIMENSION rows from
    the open file. None when the file is anything else or anything is unusual (the general reader then reads
    it, and names what is wrong)."""
    try:
        with open_text(path) as handle:
            head = []
            for line in handle:
                if _HEADER.match(line):
                    if not line.strip().upper().startswith("NODE_COORD_SECTION") or fields(line)[1:]:
                        return None
                    break
                head.append(line)
            else:
                return None
            specs, _ = _group("".join(head), path)
            n, rule = specs.get("dimension", (None, 0))[0], str(specs.get("edge_weight_type", ("", 0))[0]).upper()
            kind = str(specs.get("type", ("TSP", 0))[0]).upper()
            if kind != "TSP" or rule not in COORDINATE_RULES or not isinstance(n, int) or n < 1:
                return None
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                rows = np.loadtxt(handle, dtype=np.float64, max_rows=n, ndmin=2)
            if rows.shape != (n, 3) or handle.read().strip() not in ("", "EOF") or not np.array_equal(rows[:, 0], np.arange(1, n + 1)):
                return None  # the general reader names what is wrong
            if not read_all_ascii(handle):
                return None  # loadtxt splits at Unicode spaces ('12\u00a034' as 12 and 34): the general reader does not
    except (ValueError, OSError, EOFError, UnicodeDecodeError):
        return None
    coords = np.ascontiguousarray(rows[:, 1:])
    del rows
    if not np.all(np.isfinite(coords) & (np.abs(coords) <= MAX_COORDINATE)):
        return None  # the general reader names the line
    return TSPInstance(name=str(specs.get("name", (path.stem.split(".")[0], 0))[0]), weights=EdgeWeights(rule, coords=coords))


def read_routing_instance(path: str | Path) -> RoutingInstance:
    """Read a TSPLIB or VRPLIB file; TYPE picks TSP/ATSP, CVRP or VRPTW/CVRPTW."""
    path = Path(path)
    if path.stat().st_size > STREAM_FROM if path.is_file() else False:
        streamed = _streamed_coordinate_tsp(path)
        if streamed is not None:
            return streamed
    specs, sections = _group(read_text(path), path)
    kind = (fields(str(_spec(specs, "type", path, "TSP")).upper()) or [""])[0]
    if "fixed_edges" in sections:
        raise FormatError(path, sections["fixed_edges"].line, "no FIXED_EDGES_SECTION (fixed edges are not supported)")
    n = _int_spec(specs, "dimension", path)
    name = str(_spec(specs, "name", path, path.stem.split(".")[0]))
    weights = _weights(specs, sections, n, path)
    if kind in ("TSP", "ATSP"):
        return TSPInstance(name=name, weights=weights)
    if kind not in ("CVRP", "VRPTW", "CVRPTW"):
        raise FormatError(path, specs["type"][1], f"TYPE TSP, ATSP, CVRP or VRPTW, got {kind!r}")
    _depot_is_first(sections, path)
    demand_section = _section(sections, "demand", path)
    demands = _table(demand_section, n, 1, path)[:, 0]
    capacity = _int_spec(specs, "capacity", path)
    _bounded(demands, MAX_WEIGHT, demand_section, path, "demands", _row_line(demand_section, 1))
    for wrong, rule in ((demands < 0, "non-negative demands"), (demands > capacity, f"demands at most the capacity {capacity}")):
        if np.any(wrong):
            k = int(np.flatnonzero(wrong)[0])
            raise FormatError(path, demand_section.line_of_value(2 * k), f"{rule} in DEMAND_SECTION, got {demands[k]:g} for node {k + 1}")
    vehicles = specs["vehicles"][0] if "vehicles" in specs else None
    if vehicles is not None and (not isinstance(vehicles, int) or vehicles < 1):
        raise FormatError(path, specs["vehicles"][1], f"a positive integer VEHICLES, got {vehicles!r}")
    demands = demands.astype(np.int64) if np.all(demands == np.round(demands)) else demands
    if kind == "CVRP":  # DISTANCE: the maximum route length; SERVICE_TIME: spent at each customer, counted in it
        limit, stop = _number_spec(specs, "distance", path, True), _number_spec(specs, "service_time", path, False)
        return CVRPInstance(name, weights, demands, capacity, vehicles, max_distance=limit, service_time=stop)
    window_section = _section(sections, "time_window", path)
    windows = _table(window_section, n, 2, path)
    _bounded(windows, MAX_WEIGHT, window_section, path, "time windows", _row_line(window_section, 2))
    if np.any(closed := windows[:, 0] > windows[:, 1]):
        k = int(np.flatnonzero(closed)[0])
        raise FormatError(
            path,
            window_section.line_of_value(3 * k),
            f"time windows that open before they close, got {windows[k, 0]:g} > {windows[k, 1]:g} for node {k + 1}",
        )
    service = np.zeros(n)
    if "service_time" in sections:
        service = _table(sections["service_time"], n, 1, path)[:, 0]
        _bounded(service, MAX_WEIGHT, sections["service_time"], path, "service times", _row_line(sections["service_time"], 1))
        if np.any(service < 0):
            k = int(np.flatnonzero(service < 0)[0])
            raise FormatError(
                path, sections["service_time"].line_of_value(2 * k), f"service times >= 0, got {service[k]:g} for node {k + 1}"
            )
    return CVRPTWInstance(name, weights, demands, capacity, vehicles, weights, windows, service)


def _weights_data(weights: EdgeWeights) -> dict[str, object]:
    if weights.rule == "EXPLICIT":
        return {"EDGE_WEIGHT_TYPE": "EXPLICIT", "EDGE_WEIGHT_FORMAT": "FULL_MATRIX", "EDGE_WEIGHT_SECTION": weights.matrix}
    return {"EDGE_WEIGHT_TYPE": weights.rule, "NODE_COORD_SECTION": weights.coords}


def routing_suffix(instance: RoutingInstance) -> str:
    """``.atsp`` for an asymmetric TSP, ``.tsp`` for a symmetric one, ``.vrp`` for a vehicle routing instance."""
    if isinstance(instance, TSPInstance):
        return ".atsp" if instance.is_asymmetric else ".tsp"
    return ".vrp"


def write_routing_instance(path: str | Path, instance: RoutingInstance) -> None:
    """Write a TSP instance as TSPLIB, a CVRP/CVRPTW one as VRPLIB (through ``vrplib``)."""
    data: dict[str, object] = {"NAME": instance.name}
    if isinstance(instance, TSPInstance):
        data |= {"TYPE": "ATSP" if instance.is_asymmetric else "TSP", "DIMENSION": instance.n}
        data |= _weights_data(instance.weights)
    else:
        kind = "VRPTW" if isinstance(instance, CVRPTWInstance) else "CVRP"
        data |= {"TYPE": kind, "DIMENSION": instance.n, "CAPACITY": int(instance.capacity)}
        if instance.num_vehicles is not None:
            data["VEHICLES"] = int(instance.num_vehicles)
        if kind == "VRPTW" and (instance.max_distance is not None or instance.service_time is not None):
            raise ValueError("this reader takes DISTANCE and SERVICE_TIME from CVRP files only; a VRPTW file would lose them")
        if instance.max_distance is not None:
            data["DISTANCE"] = instance.max_distance
        if instance.service_time is not None:
            data["SERVICE_TIME"] = instance.service_time
        data |= _weights_data(instance.weights)
        data["DEMAND_SECTION"] = instance.demands
        if isinstance(instance, CVRPTWInstance):
            if instance.durations is not instance.weights:
                raise ValueError("VRPLIB has no section for separate durations; use the city .npz form")
            data["TIME_WINDOW_SECTION"] = instance.time_windows
            data["SERVICE_TIME_SECTION"] = instance.service_times
        data["DEPOT_SECTION"] = np.array([1, -1])
    vrplib.write_instance(path, data)


def read_vrplib_solution(path: str | Path) -> CVRPSolution:
    """A VRPLIB ``.sol`` file: 'Route #k: i j ...' lines with customer indices (depot 0 implied)."""
    path = Path(path)
    text = read_text(path)
    routes: list[np.ndarray] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line.lower().startswith("route"):
            continue
        head, _, body = line.partition(":")
        try:
            routes.append(np.array([whole(t) for t in fields(body)], dtype=np.int64))
        except ValueError:
            raise FormatError(path, number, f"integer customer indices after {head!r}") from None
    if not routes and not any(line.strip().lower().startswith("cost") for line in text.splitlines()):
        raise FormatError(path, 0, "at least one 'Route #k: ...' line (or only a 'Cost' line: no customers)")
    return CVRPSolution(tuple(routes))


def stated_cost(path: str | Path) -> float:
    """The 'Cost' a VRPLIB ``.sol`` file states ('Cost 1234' or 'Cost: 1234', the last such line, as vrplib reads it);
    none, or one that is no number, is a FormatError naming the line."""
    path = Path(path)
    cost: tuple[str, int] | None = None
    for number, raw in enumerate(read_text(path).splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or "Route" in line:
            continue
        key, _, value = line.partition(":" if ":" in line else " ")
        if key.strip().lower() == "cost":
            cost = (value.strip(), number)
    if cost is None:
        raise FormatError(path, 0, "a 'Cost' line")
    try:
        return real(cost[0])
    except ValueError:
        raise FormatError(path, cost[1], f"a numeric Cost, got {cost[0][:40]!r}") from None


def write_vrplib_solution(path: str | Path, solution: CVRPSolution, cost: float | None = None) -> None:
    """Write routes as a VRPLIB ``.sol`` file (through ``vrplib``)."""
    data = {"Cost": cost} if cost is not None else {}
    vrplib.write_solution(path, [list(map(int, r)) for r in solution.routes if len(r)], data)


def tsp_solution_from_routes(solution: CVRPSolution) -> TSPSolution:
    """A TSP tour from a one-route VRPLIB solution (the node 0 is the implied start)."""
    if len(solution.routes) != 1:
        raise ValueError(f"a TSP solution has one route, this one has {len(solution.routes)}")
    return TSPSolution(np.concatenate(([0], solution.routes[0])).astype(np.int64))


_PLAIN_TOUR_SECTION = re.compile(r"^TOUR_SECTION[ \t]*\r?\n", re.M)
_DIGITS_AND_SPACE = b"0123456789 \t\r\n"


def _plain_numbers(body: str) -> str | None:
    """The node numbers of a tour section that is whole numbers, -1 and EOF or not (None otherwise)."""
    tail = body.rstrip()
    if tail.endswith("EOF"):
        tail = tail[:-3].rstrip()
    if not tail.endswith("-1") or (len(tail) > 2 and not tail[-3].isspace()):
        return None
    numbers = tail[:-2]
    if not numbers.isascii() or numbers.encode().translate(None, _DIGITS_AND_SPACE):
        return None
    return numbers


def plain_tour(text: str, path: Path) -> TSPSolution | None:
    """The common tour file read at C speed (a million-node tour in a fifth of the general reader's time): a
    header the general reader accepts, a TOUR_SECTION line, then only whole node numbers, -1 and EOF. None when
    anything else is there: the general reader then reads it, and names what is wrong."""
    found = _PLAIN_TOUR_SECTION.search(text)
    if found is None:
        return None
    numbers = _plain_numbers(text[found.end() :])
    if numbers is None:
        return None
    try:
        _group(text[: found.start()], path)
    except FormatError:
        return None
    if not numbers.strip():
        return TSPSolution(np.zeros(0, dtype=np.int64))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a token numpy cannot read to its end is no plain tour
        try:
            nodes = np.fromstring(numbers, dtype=np.int64, sep=" ")
        except (ValueError, DeprecationWarning):
            return None
    if nodes.size and nodes.max() >= 10**18:
        return None  # numpy reads a number past int64 as its maximum: the general reader takes such a file
    return TSPSolution(nodes - 1)


def read_tour(path: str | Path) -> TSPSolution:
    """A TSPLIB ``.tour`` file: TOUR_SECTION with 1-based nodes, ended by -1 (``plain_tour`` when it can, else
    parsed at once with a bad token found and named afterwards)."""
    path = Path(path)
    text = read_text(path)
    plain = plain_tour(text, path)
    if plain is not None:
        return plain
    _, sections = _group(text, path)
    if "tour" not in sections:
        raise FormatError(path, 0, "a TOUR_SECTION")
    section = sections["tour"]
    numbers = section.values(path)
    wrong = np.flatnonzero(~np.isfinite(numbers) | (numbers != np.round(numbers)))
    if wrong.size:
        raise FormatError(path, section.line_of_value(int(wrong[0])), "1-based node numbers in TOUR_SECTION")
    values = numbers.astype(np.int64)
    ends = np.flatnonzero(values == -1)
    nodes = values[: ends[0]] if ends.size else values
    return TSPSolution(nodes - 1)


def write_tour(path: str | Path, name: str, solution: TSPSolution, length: float | None = None) -> None:
    """Write a TSPLIB ``.tour`` file (1-based nodes, -1, EOF)."""
    lines = [f"NAME : {name}.tour", "TYPE : TOUR"]
    if length is not None:
        lines.append(f"COMMENT : length {length:g}")
    lines += [f"DIMENSION : {len(solution.tour)}", "TOUR_SECTION"]
    lines += [str(int(v) + 1) for v in solution.tour] + ["-1", "EOF", ""]
    Path(path).write_text("\n".join(lines))


def write_tsp_solution(path: Path, instance: TSPInstance, solution: TSPSolution, objective: float | None) -> None:
    """A TSP solution as a TSPLIB .tour (its registration in ``formats.SOLUTION_FILES``)."""
    write_tour(path, instance.name, solution, objective)


def read_tsp_solution(path: Path, instance: TSPInstance) -> TSPSolution:
    """A TSPLIB .tour, or a VRPLIB .sol of one route (a tour written as t.sol is still read as a tour)."""
    if base_suffix(path) != ".sol" or "TOUR_SECTION" in read_text(path).upper():
        return read_tour(path)
    return tsp_solution_from_routes(read_vrplib_solution(path))


def write_routes_solution(path: Path, instance: CVRPInstance, solution: CVRPSolution, objective: float | None) -> None:
    """A CVRP or CVRPTW solution as a VRPLIB .sol."""
    write_vrplib_solution(path, solution, objective)


def read_routes_solution(path: Path, instance: CVRPInstance) -> CVRPSolution:
    """A VRPLIB .sol, for a CVRP or CVRPTW instance."""
    return read_vrplib_solution(path)
