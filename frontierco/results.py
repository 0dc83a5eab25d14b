"""Run records and their append-only JSONL store.

Records live in ``<root>/<collection>/<solver>.jsonl``, one JSON object per line, each line written
whole, flushed and fsynced; the best solution of a run is stored beside them as
``<root>/<collection>/solutions/<run_id>-<content hash>.json.gz`` (written before the record that names it;
older records name ``<run_id>.json.gz``). A solution whose compressed file is over ``SOLUTION_LIMIT`` bytes (a
10M-city tour is ~38 MB as a list; the harness stores tours from 200,000 cities packed, ~2 MB at 10M, see
problems/routing/tourpack.py) is not written into the store, which is committed, but into the local solution cache
(``<cache>/solutions/<sha256>.json.gz``, named by the sha256 of the file as instance files are); the record
then names it ``sha256:<hex>``, and it is read from that cache or from any of the store's solution folders
(a mirror of such files), its hash checked. The cache, the folders and the limit are the context's
(``Context.records``; ``FRONTIERCO_SOLUTIONS`` and ``FRONTIERCO_SOLUTION_LIMIT`` from ``Context.discover``).

Records are evidence only once admitted: beside each ``<solver>.jsonl`` its index ``<solver>.verified`` holds a
digest (``line_digest``) per record line the harness wrote after judging the run itself, or that ``verify
--admit`` re-checked; the leaderboard shows admitted records alone, so a line appended by anyone else (a
solver forging an "optimal" record) never reaches a board. The digest is unkeyed: whoever can write the store can
write a line and its digest, and only a re-check catches that (``verify --changed-since``, in CI, re-checks every
record a commit adds or admits; docs/architecture.md says why no key).

Reading never writes: a line that is not a record (garbage, a torn write, a record missing fields) is
skipped and counted in one warning per file, and a record of a newer schema keeps its unknown fields. Only a
writer touches a file's end before appending: an unterminated last line that is a complete record gets its
newline; one that is not moves to ``<solver>.jsonl.quarantine`` beside it, so nothing is ever lost.
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import logging
import math
import os
import re
import socket
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import MISSING, asdict, dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from frontierco.errors import FrontiercoError, SolutionUnavailable, StoreError
from frontierco.names import check_name, inside

UNSANDBOXED = "unsandboxed"  # a record's provenance.sandbox when its solver ran without one (harness/sandbox)


def package_name(requirement: str) -> str:
    """The distribution name of a pip requirement: 'pyscipopt>=5.0' -> 'pyscipopt'."""
    return re.split(r"[<>=!~\[ ]", requirement, maxsplit=1)[0]


log = logging.getLogger(__name__)

ON_FILE = "files"  # the collection name a record of a run on a user's own instance file carries
SOLUTION_LIMIT = 4_000_000  # bytes of a compressed solution file above which it stays out of the store (``Context.solution_limit``)
BY_HASH = "sha256:"  # a record's solution_file naming a file of the solution cache by its sha256


def default_solution_cache() -> Path:
    """Where a store made without settings keeps solutions over the limit: ``solutions/`` in the file store's
    default cache (a context's store: in its file store's cache, ``Context.records``)."""
    from frontierco.filestore import default_cache

    return default_cache() / "solutions"


def _write_atomically(target: Path, data: bytes) -> None:
    temporary = target.with_suffix(f".{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(data)
        temporary.replace(target)
    except OSError as exc:
        raise StoreError(f"could not write {target}: {exc.strerror or exc}") from None
    finally:
        temporary.unlink(missing_ok=True)


class Status(StrEnum):
    """How a run ended (the value is what the record stores)."""

    OPTIMAL = "optimal"  # feasible, proven optimal by the solver, and equal to the reference
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"  # only infeasible solutions arrived
    NO_SOLUTION = "no_solution"  # the solver finished without a solution
    TIMEOUT = "timeout"  # no feasible solution within the limit
    ERROR = "error"  # the solver raised
    MEMORY = "memory"  # the memory limit
    CRASH = "crash"  # the worker died


FEASIBLE_STATUSES = (Status.OPTIMAL, Status.FEASIBLE)
FAILED_STATUSES = (Status.ERROR, Status.CRASH, Status.MEMORY)  # the run broke, as opposed to finding nothing


@dataclass
class RunRecord:
    """One finished run: identity, measures, parameters and provenance (long format)."""

    run_id: str
    solver: str
    solver_version: str
    params: dict[str, Any]
    problem: str
    collection: str
    instance: str
    instance_key: str
    instance_sha256: str
    time_limit: float
    seed: int
    threads: int
    status: str
    reason: str
    objective: float | None
    reference: float | None
    reference_source: str
    reference_status: str
    trace: list[tuple[float, float]]
    time_to_best: float | None
    proven: bool
    solve_time: float
    setup_time: float
    solutions_received: int
    exit_code: int | None
    exit_signal: int | None
    stderr_tail: str
    solution_file: str | None
    provenance: dict[str, Any] = field(default_factory=dict)
    sense: str = ""  # "min" or "max" of the instance (an instance may state its own); "" in records older than the field
    bound: float | None = None  # the solver's proven bound on the optimum, as it claimed it; None if it claimed none
    device: str = "cpu"  # where the solver ran (cpu, cuda, cuda:N); records older than the field ran on the CPU
    defaults: dict[str, Any] = field(default_factory=dict)  # the declared defaults filled into params; {} in older records
    # the objective without the format's rounding, computed by the harness (Problem.unrounded: FrontierCO's unrounded
    # Euclidean lengths); None where the problem has none, and in records older than the field
    unrounded: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # fields of a newer schema, kept and written back as they were

    @property
    def on_file(self) -> bool:
        """A run on a user's own instance file, not on a collection's instance."""
        return self.collection == ON_FILE

    @property
    def row_name(self) -> str:
        """The solver as the leaderboard names its rows: runs with parameters, or on another device than the
        CPU, are rows of their own (``ctc-scip{heuristics=aggressive}``, ``dimes@cuda``); a parameter at its declared
        default is not named (the record holds the full set since defaults are filled at plan time)."""
        chosen = {key: value for key, value in self.params.items() if key not in self.defaults or self.defaults[key] != value}
        settings = ",".join(f"{key}={chosen[key]}" for key in sorted(chosen))
        name = f"{self.solver}{{{settings}}}" if settings else self.solver
        return name if self.device == "cpu" else f"{name}@{self.device}"

    @property
    def libraries(self) -> dict[str, str]:
        """The versions of the solver's libraries by distribution name (older records name them by requirement)."""
        return {package_name(name): str(version) for name, version in self.provenance.get("libraries", {}).items()}

    @property
    def unsandboxed(self) -> bool:
        """Whether the solver ran without a sandbox; records from before the sandbox say nothing (False)."""
        return str(self.provenance.get("sandbox", "")).startswith(UNSANDBOXED)

    def to_json(self) -> str:
        data = asdict(self)
        return json.dumps(data.pop("extra") | data, sort_keys=True)

    @classmethod
    def from_json(cls, line: str) -> RunRecord:
        """A record from one line; ValueError when the line is not one (not JSON, not an object, a required
        field missing or of the wrong shape)."""
        try:
            data = json.loads(line)
        except RecursionError:  # a line nested past the parser's stack: no record (it was a traceback in every command)
            raise ValueError("nested too deeply") from None
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        known = {f.name for f in fields(cls)} - {"extra"}
        missing = {f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING} - set(data)
        if missing:
            raise ValueError(f"missing {', '.join(sorted(missing))}")
        values = {k: v for k, v in data.items() if k in known}
        for name, kinds in _TYPES.items():
            if name in values and not isinstance(values[name], kinds) or isinstance(values.get(name), bool) and bool not in kinds:
                raise ValueError(f"{name} is {type(values[name]).__name__}")
        for name in ("objective", "unrounded", "reference", "bound", "time_to_best", "solve_time", "setup_time"):
            if isinstance(values.get(name), float) and not math.isfinite(values[name]):
                raise ValueError(f"{name} is {values[name]}")
        if not (math.isfinite(values["time_limit"]) and values["time_limit"] > 0):
            raise ValueError(f"time_limit is {values['time_limit']}, not a positive number of seconds")
        values["trace"] = _trace(data["trace"])
        return cls(**values, extra={k: v for k, v in data.items() if k not in known})


def _trace(entries: list[object]) -> list[tuple[float, float]]:
    """A record's trace: [time, value] pairs of finite JSON numbers (float() alone took '1_2', ' 12 ' and true, and
    an entry of no two values was a TypeError); else a ValueError."""
    trace = []
    for entry in entries:
        if not isinstance(entry, list) or len(entry) != 2 or any(isinstance(x, bool) or not isinstance(x, int | float) for x in entry):
            raise ValueError(f"trace holds {entry!r}, not a pair of numbers [time, value]")
        try:
            pair = (float(entry[0]), float(entry[1]))
        except OverflowError:  # an integer past float64
            pair = (math.inf, math.inf)
        if not (math.isfinite(pair[0]) and math.isfinite(pair[1])):
            raise ValueError("trace holds a value that is not finite")
        trace.append(pair)
    return trace


_NUMBER = (int, float)
_TYPES: dict[str, tuple[type, ...]] = {
    **{name: (str,) for name in ("run_id", "solver", "solver_version", "problem", "collection", "instance", "instance_key")},
    **{name: (str,) for name in ("instance_sha256", "status", "reason", "reference_source", "reference_status", "stderr_tail")},
    **{name: (str,) for name in ("sense", "device")},
    **{name: _NUMBER for name in ("time_limit", "solve_time", "setup_time")},
    **{name: (int,) for name in ("seed", "threads", "solutions_received")},
    **{name: (*_NUMBER, type(None)) for name in ("objective", "unrounded", "reference", "time_to_best", "bound")},
    **{name: (int, type(None)) for name in ("exit_code", "exit_signal")},
    "proven": (bool,),
    "params": (dict,),
    "defaults": (dict,),
    "provenance": (dict,),
    "trace": (list,),
    "solution_file": (str, type(None)),
}


def _solution_json(path: Path) -> dict[str, Any]:
    """A stored solution, decompressed within the readers' bound (``text.open_bytes``: 100 times the file) and
    parsed; anything else (not gzip, not JSON, a bomb, nesting past the stack, a device) is one FrontiercoError."""
    from frontierco.problems.common.text import open_bytes

    try:
        with open_bytes(path) as handle:
            data = json.loads(handle.read())
    except (OSError, EOFError, zlib.error, ValueError, RecursionError, FrontiercoError) as exc:  # (BadGzipFile: OSError)
        raise FrontiercoError(f"{path}: not a readable gzip file of JSON ({exc})") from None
    if not isinstance(data, dict):
        raise FrontiercoError(f"{path}: not a readable gzip file of JSON (not an object)")
    return data


CLAIM_EXPIRY = 24 * 3600.0  # seconds after which a claim of a process on another machine no longer holds


def _process_started(pid: int) -> float | None:
    """When the process ``pid`` of this machine started (seconds since the epoch), None when unknown."""
    try:
        ticks = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines() if line.startswith("btime"))
    except (OSError, ValueError, IndexError, StopIteration):
        return None
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def _claim_holds(path: Path) -> bool:
    """Whether the claim file still holds its run: one that is empty or garbled (a full disk) is no claim; one of
    this machine holds while its process runs (the process that wrote it, not a later one given the same pid);
    one of another machine until ``CLAIM_EXPIRY`` after it was written."""
    try:
        text, written = path.read_text(), path.stat().st_mtime
    except (OSError, UnicodeDecodeError):
        return False
    host, _, pid = text.strip().partition(" ")
    if not host or not pid.isdigit():
        return False
    if host != socket.gethostname():
        return time.time() - written < CLAIM_EXPIRY
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    started = _process_started(int(pid))
    return started is None or started <= written + 1.0  # clock ticks and mtime granularity


def line_digest(line: bytes) -> str:
    """The digest of one record line (without its newline) an index holds."""
    return hashlib.sha256(line.strip()).hexdigest()[:16]


def index_path(path: Path) -> Path:
    """The index of admitted records beside a record file."""
    return path.with_suffix(".verified")


def admitted(path: Path) -> set[str]:
    """The digests of a record file's admitted lines (what in the index is not text is no digest: a garbled index
    was a UnicodeDecodeError traceback from verify and the leaderboard)."""
    index = index_path(path)
    return set(index.read_bytes().decode("ascii", errors="replace").split()) if index.is_file() else set()


def read_lines(path: Path) -> Iterator[tuple[bytes, RunRecord | None]]:
    """Each non-empty line of a JSONL file with its record (None for a line that is not one); a store file that is
    no file (a folder in its place) is a StoreError line."""
    if path.exists() and not path.is_file():
        raise StoreError(f"{path}: a record file, not a folder or device")
    with open(path, "rb") as handle:
        for raw in handle:
            if not raw.strip():
                continue
            try:
                yield raw.strip(), RunRecord.from_json(raw.decode())
            except (ValueError, TypeError, KeyError):
                yield raw.strip(), None


def read_records(path: Path, only_admitted: bool = False) -> tuple[list[RunRecord], int]:
    """The records of one JSONL file (only its admitted ones when asked) and how many of its non-empty lines
    are not records."""
    digests = admitted(path) if only_admitted else None
    records, bad = [], 0
    for raw, record in read_lines(path):
        if record is None:
            bad += 1
        elif digests is None or line_digest(raw) in digests:
            records.append(record)
    return records, bad


def _seal(path: Path) -> None:
    """Before appending: give an unterminated last line its newline when it is a complete record, else
    move it to the quarantine file beside the store file (a write cut short by kill -9)."""
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return
    start = data.rfind(b"\n") + 1
    tail = data[start:]
    try:
        RunRecord.from_json(tail.decode())
        keep, add = len(data), b"\n"
    except (ValueError, TypeError, KeyError, UnicodeDecodeError):
        quarantine = path.with_name(path.name + ".quarantine")
        with open(quarantine, "ab") as handle:
            handle.write(tail + b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        log.warning("%s: moved an unterminated last line of %d bytes to %s", path, len(tail), quarantine)
        keep, add = start, b""
    with open(path, "r+b") as handle:
        handle.truncate(keep)
        handle.seek(keep)
        handle.write(add)
        handle.flush()
        os.fsync(handle.fileno())


def latest(records: list[RunRecord]) -> list[RunRecord]:
    """One record per run id and collection, the last appended: a run redone with --force supersedes the
    earlier one. The run id does not name the collection, so the same run in two collections that list one
    file (a library's collection and FrontierCO's set of the same file) is two runs."""
    by_id: dict[tuple[str, str], RunRecord] = {}
    for record in records:
        key = (record.collection, record.run_id)
        by_id.pop(key, None)
        by_id[key] = record
    return list(by_id.values())


class ResultStore:
    """Append-only store of run records under ``root``; solutions over ``solution_limit`` go to ``solution_cache``
    (default: ``default_solution_cache()``), and one named by sha256 is read from there or ``solution_folders``."""

    def __init__(
        self,
        root: Path,
        solution_cache: Path | None = None,
        solution_folders: tuple[Path, ...] = (),
        solution_limit: int | None = None,
    ) -> None:
        self.root = root
        self.solution_cache = solution_cache if solution_cache is not None else default_solution_cache()
        self.solution_folders = tuple(solution_folders)
        self.solution_limit = solution_limit if solution_limit is not None else SOLUTION_LIMIT

    def with_solution_folder(self, folder: Path) -> ResultStore:
        """The same store that also reads solutions by sha256 from ``folder``."""
        return ResultStore(self.root, self.solution_cache, (*self.solution_folders, folder), self.solution_limit)

    def path(self, collection: str, solver: str) -> Path:
        return self.root / check_name(collection, "collection") / f"{check_name(solver, 'solver')}.jsonl"

    def records(self, collection: str | None = None, solver: str | None = None, only_admitted: bool = False) -> Iterator[RunRecord]:
        """Every stored record (optionally of one collection and/or solver; only the admitted ones when asked);
        lines that are not records are skipped, and counted in one warning per file. Never writes."""
        pattern = f"{collection or '*'}/{solver or '*'}.jsonl"
        for path in sorted(self.root.glob(pattern)):
            if not path.is_file():
                log.warning("%s: not a file, skipped", path)
                continue
            records, bad = read_records(path, only_admitted)
            if bad:
                log.warning("%s: %d line(s) that are not run records skipped (left in the file)", path, bad)
            yield from records

    def finished(self, collection: str, solver: str) -> set[str]:
        return {r.run_id for r in self.records(collection, solver)}

    def size(self, collection: str, solver: str) -> int:
        """Bytes in the record file (0 when none): what was recorded before a campaign began."""
        path = self.path(collection, solver)
        return path.stat().st_size if path.is_file() else 0

    def claim(self, collection: str, solver: str, run_id: str, redo: bool = False, redo_from: int = 0) -> bool:
        """Take a run for this process: False when it is finished (with ``redo``: when a record of it begins at or
        after byte ``redo_from`` of the append-only file, i.e. another campaign redid it meanwhile, so that two
        campaigns redoing one run at once run it once) or its claim holds
        (``_claim_holds``). The claim is the file ``<collection>/claims/<run_id>`` naming host and pid, written
        whole or not at all (StoreError); check and claim happen under an exclusive lock on
        ``<root>/.claims.lock``, so two processes never both take one run."""
        claims = self.root / check_name(collection, "collection") / "claims"
        check_name(run_id, "run id")
        claims.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".claims.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if self._recorded(collection, solver, run_id, start=redo_from) if redo else self._recorded(collection, solver, run_id):
                    return False
                path = claims / run_id
                if path.exists() and _claim_holds(path):
                    return False
                _write_atomically(path, f"{socket.gethostname()} {os.getpid()}\n".encode())  # no claim, or a whole one
                return True
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def to_frame(self, collection: str | None = None, solver: str | None = None) -> Any:
        """Every record (optionally of one collection and/or solver) as one pandas DataFrame, a row per record
        in store order; lists and dicts (trace, params, provenance, newer fields) as JSON text. Needs the
        ``analysis`` extra (pandas)."""
        try:
            import pandas as pd
        except ImportError:
            raise StoreError("a table of records needs pandas: pip install 'frontierco[analysis]'") from None
        rows = []
        for record in self.records(collection, solver):
            row = asdict(record)
            extra = row.pop("extra")
            row["trace"] = json.dumps(row["trace"])
            for name in ("params", "defaults", "provenance"):
                row[name] = json.dumps(row[name], sort_keys=True)
            row["extra"] = json.dumps(extra, sort_keys=True)
            rows.append(row)
        return pd.DataFrame(rows, columns=[f.name for f in fields(RunRecord)])

    def _recorded(self, collection: str, solver: str, run_id: str, start: int = 0) -> bool:
        """Whether a record of the run is in the store, on a line that ends after byte ``start``: a byte search for
        its id as records write it (C speed; parsing every record before every run made claiming cost linear time
        in Python)."""
        path = self.path(collection, solver)
        if not path.is_file():
            return False
        data, key = path.read_bytes(), json.dumps({"run_id": run_id})[1:-1].encode()
        at = data.find(key, data.rfind(b"\n", 0, start) + 1)  # from the line holding byte start (a sealed tail is cut)
        while at != -1:  # a line that holds the id counts only if it is a record (not a torn write)
            line, end = data.rfind(b"\n", 0, at) + 1, data.find(b"\n", at)
            try:
                RunRecord.from_json(data[line : None if end == -1 else end].decode())
                return True
            except (ValueError, TypeError, KeyError, UnicodeDecodeError):
                at = data.find(key, at + 1)
        return False

    def release(self, collection: str, run_id: str) -> None:
        (self.root / check_name(collection, "collection") / "claims" / check_name(run_id, "run id")).unlink(missing_ok=True)

    def save_solution(self, collection: str, run_id: str, solution: dict[str, Any]) -> str:
        """Write a best solution (atomically) and return how the record names it: its path relative to the store
        root, whose name carries the content's hash (a run redone with another answer never overwrites the file
        an earlier record of the same run id was checked with); or, when the compressed file is over the limit
        (``solution_limit``), ``sha256:<hex>`` of the file, written into the local solution cache instead."""
        data = json.dumps(solution, sort_keys=True).encode()
        packed = gzip.compress(data, mtime=0)
        if len(packed) > self.solution_limit:
            digest = hashlib.sha256(packed).hexdigest()
            target = self.solution_cache / f"{digest}.json.gz"
            if not target.is_file():
                _write_atomically(target, packed)
            return BY_HASH + digest
        name = f"{check_name(run_id, 'run id')}-{hashlib.sha256(data).hexdigest()[:12]}.json.gz"
        relative = Path(check_name(collection, "collection")) / "solutions" / name
        _write_atomically(self.root / relative, packed)
        return str(relative)

    def load_solution(self, name: str) -> dict[str, Any]:
        """The solution a record names: a file of the store, or by ``sha256:`` from the solution cache or one of
        the solution folders (SolutionUnavailable when none holds a file of that hash)."""
        if not name.startswith(BY_HASH):
            path = inside(self.root, name, "solution file")
            if not path.exists():
                raise FrontiercoError(f"{path}: the solution file is missing")
            return _solution_json(path)
        digest = name[len(BY_HASH) :]
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise StoreError(f"not a solution hash: {digest[:80]!r}")
        for folder in (self.solution_cache, *self.solution_folders):
            path = folder / f"{digest}.json.gz"
            if path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == digest:
                return _solution_json(path)
        raise SolutionUnavailable(digest)

    def append(self, record: RunRecord) -> None:
        """Append one record as one line (written whole, flushed, fsynced), then admit it: the harness judged
        the run itself."""
        path = self.path(record.collection, record.solver)
        line = record.to_json()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():
                _seal(path)
            with open(path, "a") as handle:
                handle.write(line + "\n")
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:  # the line may be cut short: the next writer's seal quarantines it
            raise StoreError(f"could not write {path}: {exc.strerror or exc}") from None
        self.admit(path, [line_digest(line.encode())])

    def admit(self, path: Path, digests: list[str]) -> None:
        """Add record lines' digests to the index of the record file ``path``."""
        index = index_path(path)
        try:
            with open(index, "a") as handle:
                handle.write("".join(f"{digest}\n" for digest in digests))
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise StoreError(f"could not write {index}: {exc.strerror or exc}") from None

    def rename_solutions(self, renamed: dict[str, str]) -> int:
        """Rewrite every record of the store that names a solution in ``renamed`` (old name -> new) to name the new
        one (``rewrite``: for one-time migrations of solution files, ``scripts/``). Returns how many lines changed."""

        def change(data: dict[str, Any]) -> dict[str, Any] | None:
            name = data.get("solution_file")
            return data | {"solution_file": renamed[name]} if isinstance(name, str) and name in renamed else None

        return sum(self.rewrite(path, change) for path in sorted(self.root.glob("*/*.jsonl")))

    def rewrite(self, path: Path, change: Callable[[dict[str, Any]], dict[str, Any] | None]) -> int:
        """Rewrite the record lines of ``path`` that ``change`` returns a new form of (None: the line stays), through a
        temporary file and a rename; a rewritten line stays admitted when its old line was. For one-time migrations
        (``scripts/``): the append-only store otherwise never rewrites a line. Returns how many lines changed."""
        lines = path.read_bytes().splitlines(keepends=True)
        was_admitted, still_admitted, changed = admitted(path), [], 0
        for k, line in enumerate(lines):
            try:
                data = json.loads(line) if line.strip() else None
            except ValueError:
                continue  # not a record: kept as it is
            new = change(data) if isinstance(data, dict) else None
            if new is None:
                continue
            lines[k] = (json.dumps(new, sort_keys=True) + "\n").encode()
            changed += 1
            if line_digest(line) in was_admitted:
                still_admitted.append(line_digest(lines[k]))
        if changed:
            _write_atomically(path, b"".join(lines))
            self.admit(path, still_admitted)
        return changed
