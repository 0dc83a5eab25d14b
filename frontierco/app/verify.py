"""Re-verify a stored run: load its instance, check it is the same instance, re-evaluate the stored best
solution with the independent checker, and compare with the recorded objective."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from frontierco.errors import FrontiercoError, UnknownName
from frontierco.filestore import FileSource
from frontierco.manifests import InstanceEntry
from frontierco.problems import Evaluation, Instance, Solution, get_problem
from frontierco.problems.common.fingerprint import content_sha256, file_sha256
from frontierco.problems.files import read_instance
from frontierco.registry import Registry
from frontierco.results import FEASIBLE_STATUSES, ResultStore, RunRecord, admitted, line_digest, read_lines

ROUNDING = 1e-12  # relative: far below any gap the suite reports (SAME_VALUE_TOLERANCE), far above a float's last bits


@dataclass(frozen=True)
class Verification:
    record: RunRecord
    evaluation: Evaluation
    instance: Instance
    solution: Solution

    @property
    def agrees(self) -> bool:
        """Feasible, with the record's objective up to rounding (``ROUNDING`` relative): a dot product of
        floats may differ in its last bits between two evaluations (a facility location run was recorded as
        20631.42743434252 and re-evaluated as 20631.427434342524)."""
        found, recorded = self.evaluation.objective, self.record.objective
        if not self.evaluation.feasible or found is None or recorded is None:
            return False
        return _same(found, recorded) and (self.record.unrounded is None or _same(self.unrounded, self.record.unrounded))

    @property
    def unrounded(self) -> float | None:
        """The stored solution's objective without the format's rounding (``Problem.unrounded``), computed here;
        None where the problem has none or the solution is infeasible."""
        problem = get_problem(self.record.problem)
        if problem.unrounded is None or not self.evaluation.feasible:
            return None
        return problem.unrounded(self.instance, self.solution)


def _same(found: float | None, recorded: float) -> bool:
    return found is not None and abs(found - recorded) <= ROUNDING * max(1.0, abs(recorded))


def find_records(store: ResultStore, run_id: str) -> list[RunRecord]:
    """Every record of one run (a run redone with --force has several, oldest first)."""
    if not run_id:
        raise UnknownName("the empty run id prefix is ambiguous; give a run id or a unique prefix of one")
    run_id = run_id.lower()  # run ids are hexadecimal digits, written in lower case
    matches = [r for r in store.records() if r.run_id.startswith(run_id)]
    if not matches:
        raise UnknownName(f"no run {run_id!r} in {store.root}")
    if len({r.run_id for r in matches}) > 1:
        raise UnknownName(f"run id prefix {run_id!r} is ambiguous")
    return matches


def find_record(store: ResultStore, run_id: str) -> RunRecord:
    """The run's latest record."""
    return find_records(store, run_id)[-1]


def _instance(record: RunRecord, registry: Registry) -> Instance:
    if record.on_file:
        path = Path(record.instance_key)
        if file_sha256(str(path)) != record.instance_sha256:
            raise FrontiercoError(f"{path} has changed since run {record.run_id}")
        return read_instance(path)
    entry = registry.entry(record.instance_key)
    instance = registry.load(entry)
    source = entry.source
    expected = source.sha256 if isinstance(source, FileSource) else content_sha256(instance)
    if expected != record.instance_sha256:
        raise FrontiercoError(f"{record.instance_key} is not the instance of run {record.run_id}")
    return instance


def verify_run(store: ResultStore, run_id: str, registry: Registry) -> Verification:
    """Re-check the run's latest record."""
    return verify_record(store, find_record(store, run_id), registry)


def verify_record(store: ResultStore, record: RunRecord, registry: Registry) -> Verification:
    """Re-check one record against the solution file it names."""
    if record.solution_file is None:
        raise FrontiercoError(f"run {record.run_id} stored no solution ({record.status}: {record.reason})")
    problem = get_problem(record.problem)
    data = store.load_solution(record.solution_file)  # (never a file outside the store)
    instance = _instance(record, registry)
    solution = problem.read_stored(instance, data)
    return Verification(record, problem.evaluate(instance, solution), instance, solution)


def _left_out(registry: Registry, record: RunRecord) -> bool:
    """Whether the boards leave the record out: its collection or instance is gone, or the instance's pinned
    checksum is no longer the record's."""
    try:
        entry = registry.entry(record.instance_key)
    except FrontiercoError:
        return True
    source = entry.source
    pinned = source.sha256 if isinstance(source, FileSource) else source.content_sha256
    return bool(pinned) and pinned != record.instance_sha256


def admission(store: ResultStore, record: RunRecord, path: Path, registry: Registry) -> str:
    """'' when a record of the record file ``path`` may be admitted to the boards, else why not: it belongs
    to that file, its numbers are finite, and a record that claims a solution names a stored solution that
    re-checks to its objective."""
    if (record.collection, record.solver) != (path.parent.name, path.stem):
        return f"a record of {record.collection}/{record.solver} in {path.parent.name}/{path.name}"
    numbers = [record.objective, record.bound, *(x for point in record.trace for x in point)]
    if any(x is not None and not math.isfinite(x) for x in numbers):
        return "a number that is not finite"
    if record.status not in FEASIBLE_STATUSES and record.objective is None and record.solution_file is None:
        return ""  # nothing claimed that could be checked
    if record.status not in FEASIBLE_STATUSES or record.objective is None or record.solution_file is None:
        return f"status {record.status} with objective {record.objective} and solution {record.solution_file}"
    if not record.on_file and _left_out(registry, record):
        return ""  # its instance left the collection or changed: no board scores it (they only count it as left out)
    try:
        check = verify_record(store, record, registry)
    except (FrontiercoError, OSError, ValueError, KeyError, EOFError) as exc:
        return f"not re-checked: {exc}"
    if not check.agrees:
        if record.unrounded is not None and record.objective is not None and _same(check.evaluation.objective, record.objective):
            return f"its solution re-checks to {check.unrounded} unrounded, the record says {record.unrounded}"
        return f"its solution re-checks to {check.evaluation.objective} ({check.evaluation.reason or 'feasible'})"
    return ""


class _Remembering(Registry):
    """A registry that keeps the instances of one record file loaded (its runs share a few instances)."""

    def __init__(self, registry: Registry) -> None:
        super().__init__(registry.directory, registry.store)
        self.loaded: dict[str, Instance] = {}

    def load(self, entry: InstanceEntry) -> Instance:
        if entry.key not in self.loaded:
            self.loaded[entry.key] = super().load(entry)
        return self.loaded[entry.key]


def admit_store(store: ResultStore, refused: Callable[[RunRecord, str], None], registry: Registry) -> int:
    """Re-check every record of the store not yet admitted (made by older code, or appended by someone else
    than the harness) against ``registry`` (a context's: ``Registry.of``) and admit those that hold; ``refused`` hears
    of the others. Returns how many were admitted."""
    count, registry = 0, _Remembering(registry)
    for path in sorted(store.root.glob("*/*.jsonl")):
        registry.loaded.clear()
        known, new = admitted(path), []
        for raw, record in read_lines(path):
            digest = line_digest(raw)
            if record is None or digest in known:
                continue
            reason = admission(store, record, path, registry)
            if reason:
                refused(record, reason)
                continue
            known.add(digest)
            new.append(digest)
        if new:
            store.admit(path, new)
            count += len(new)
    return count


def added_records(store: ResultStore, since: str) -> list[tuple[Path, RunRecord]]:
    """The records that git sees brought within the boards' reach since commit ``since`` (what a pull request
    adds), each with its file: those on lines added to the store's record files, and those whose digest was added to
    an index (``<solver>.verified``) though their line is older (a refused record admitted by a digest written
    by hand: the index is unkeyed, so only this re-check stands between such an entry and the boards)."""
    import subprocess

    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=store.root, capture_output=True, text=True, check=True)
        diff = subprocess.run(
            ["git", "diff", "--unified=0", "--no-color", "--no-ext-diff", since, "--", "."],
            cwd=store.root,
            capture_output=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise FrontiercoError(f"git could not list the records added since {since}: {exc}") from None
    added: dict[Path, list[bytes]] = {}  # per record file, its added lines
    digests: dict[Path, set[str]] = {}  # per record file, the digests added to its index
    current = None
    for line in diff.stdout.splitlines():
        if line.startswith(b"+++ "):
            name = line[4:].decode(errors="replace")
            kept = name.startswith("b/") and name.endswith((".jsonl", ".verified"))
            current = Path(top.stdout.strip()) / name[2:] if kept else None
        elif current is not None and line.startswith(b"+") and line[1:].strip():
            if current.suffix == ".verified":
                digests.setdefault(current.with_suffix(".jsonl"), set()).add(line[1:].strip().decode(errors="replace"))
            else:
                added.setdefault(current, []).append(line[1:].strip())
    found = []
    for path, lines in added.items():
        for raw in lines:
            try:
                found.append((path, RunRecord.from_json(raw.decode())))
            except (ValueError, TypeError, KeyError):
                continue  # not a record: the store skips it too
    for path, wanted in sorted(digests.items()):
        wanted -= {line_digest(raw) for raw in added.get(path, [])}  # (re-checked above)
        if wanted and path.is_file():
            found += [(path, record) for raw, record in read_lines(path) if record is not None and line_digest(raw) in wanted]
    return found


def _git(store: ResultStore, *args: str) -> bytes:
    import subprocess

    try:
        return subprocess.run(["git", *args], cwd=store.root, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise FrontiercoError(f"git {args[0]} failed: {exc}") from None


def deleted_solutions(store: ResultStore, since: str, into: Path) -> int:
    """Write the solution files git sees deleted from the store since commit ``since`` into ``into``, each named
    by its sha256 as a store's solution folder holds them. A commit that moves solutions out of the
    store by hash (scripts/move_large_solutions.py) rewrites their records and removes the files: the rewritten
    records are then re-checked from the files as ``since`` had them. Returns how many were written."""
    import hashlib

    listing = _git(store, "diff", "--name-only", "--diff-filter=D", "--no-renames", "-z", since, "--", ".")
    count = 0
    for name in listing.decode(errors="replace").split("\0"):
        if name.endswith(".json.gz") and "/solutions/" in f"/{name}":
            data = _git(store, "cat-file", "blob", f"{since}:{name}")
            (into / f"{hashlib.sha256(data).hexdigest()}.json.gz").write_bytes(data)
            count += 1
    return count


@contextmanager
def solutions_deleted_since(store: ResultStore, since: str) -> Iterator[tuple[int, ResultStore]]:
    """While open, the solution files git sees deleted from the store since ``since`` are readable by their
    sha256 from the store it yields (``store`` with a temporary solution folder added), with how many there are."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="frontierco-deleted-solutions-") as folder:
        count = deleted_solutions(store, since, Path(folder))
        yield count, store.with_solution_folder(Path(folder))
