"""Run one RunSpec in its own worker process under a hard time limit and judge what came back.

The parent starts the clock when the worker says ``ready`` (after the untimed setup), timestamps every
message on arrival, evaluates each solution with the problem's own checker (never the solver's number)
and keeps only the best feasible one and the improving trace. At the limit the worker's process group
gets SIGTERM, then SIGKILL after ``GRACE`` seconds; messages arriving after the limit do not count. The
outcome's ``solve_time`` runs from ``ready`` to the worker's last message or end (its stop included), so a
worker that ignored SIGTERM shows a solve time over ``limit + GRACE``; ``setup_time`` from the start to ``ready``.

Statuses: ``optimal`` (proven by the solver and equal to the reference), ``feasible`` (a feasible
solution arrived, even if the worker was stopped at the limit or failed afterwards), ``infeasible`` (only
infeasible solutions; the first reason kept), ``no_solution`` (finished without yielding), ``timeout``
(stopped at the limit without a feasible solution), ``memory`` (MemoryError under the memory limit),
``error`` (the solver raised), ``crash`` (died by a signal or exit code of its own).
"""

from __future__ import annotations

import json
import math
import os
import re
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from frontierco.harness.job import RunSpec
from frontierco.harness.tree import descendants, kill_all, tree_megabytes
from frontierco.harness.worker import THREAD_VARIABLES
from frontierco.harness.zygote import Worker, fork_worker
from frontierco.metrics import refuted_bound, same_value_slack
from frontierco.problems import Instance, get_problem, problem_of
from frontierco.problems.common.checks import finite_number
from frontierco.results import Status

GRACE = 2.0
SETUP_LIMIT = 120.0
MESSAGE_FLOOR = 16 * 1024 * 1024  # bytes any message may have, plus MESSAGE_PER_UNIT per node, vertex or column
MESSAGE_PER_UNIT = 32
WATCH = 0.25  # seconds between two looks at the memory of the run's process tree
STDERR_KEPT = 1 << 20  # bytes of the solver's stderr the harness holds: the latest, read as they come
PASSED_ON = (  # the harness's variables a worker gets, where they are set; docs/architecture.md lists why
    "PATH",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "PYTHONPATH",
    "LD_LIBRARY_PATH",
    "CUDA_VISIBLE_DEVICES",
    *("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE"),
    *("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"),
)


@dataclass
class Outcome:
    """What one run produced, before it becomes a record."""

    status: str = Status.NO_SOLUTION
    reason: str = ""
    objective: float | None = None
    unrounded: float | None = None  # the best solution's objective without the format's rounding (Problem.unrounded)
    best: dict[str, Any] | None = None
    proven: bool = False
    bound: float | None = None  # the solver's best proven bound on the optimum (its claim, not checked)
    trace: list[tuple[float, float]] = field(default_factory=list)
    setup_time: float = 0.0
    solve_time: float = 0.0
    exit_code: int | None = None
    exit_signal: int | None = None
    stderr_tail: str = ""
    solutions_received: int = 0
    sense: str = ""
    sandbox: str = ""  # what the worker applied to itself (harness/sandbox): "landlock ABI N" or "unsandboxed"


class _Judge:
    """Evaluates each arriving solution and keeps the best feasible one."""

    def __init__(self, spec: RunSpec, instance: Instance) -> None:
        self.problem = get_problem(spec.problem)
        self.sense = self.problem.sense_of(instance)
        self.instance = instance
        self.outcome = Outcome(sense=self.sense)
        self.failure: dict[str, Any] | None = None
        self.first_infeasible = ""
        self.last_refused = ""  # the reason of the latest yield that was refused, whatever ends the run
        self.done = False

    def refuse(self, reason: str) -> None:
        self.first_infeasible = self.first_infeasible or reason
        self.last_refused = reason

    def unrounded(self) -> float | None:
        """The best solution's objective without its format's rounding, computed here from the instance (None
        when the problem has no such objective, or there is no solution)."""
        if self.problem.unrounded is None or self.outcome.best is None:
            return None
        value = self.problem.unrounded(self.instance, self.problem.decode(self.outcome.best))
        return value if value is not None and math.isfinite(value) else None

    def _better(self, value: float) -> bool:
        best = self.outcome.objective
        return best is None or (value < best if self.sense == "min" else value > best)

    def receive(self, message: dict[str, Any], elapsed: float) -> None:
        kind = message.get("type")
        if kind == "solution":
            self.outcome.solutions_received += 1
            try:
                verdict = self.problem.evaluate(self.instance, self.problem.decode(message["data"]))
            except (ValueError, KeyError) as exc:
                self.refuse(f"malformed solution: {exc}")
                return
            except Exception as exc:  # noqa: BLE001  the data is the solver's: a checker it trips refuses it, the campaign goes on
                self.refuse(f"malformed solution: the checker could not read it ({type(exc).__name__}: {exc})")
                return
            if not verdict.feasible:
                self.refuse(verdict.reason)
                return
            assert verdict.objective is not None
            if not math.isfinite(verdict.objective):
                self.refuse(f"objective {verdict.objective} is not finite")
                return
            proven = message.get("proven") is True  # JSON's true only: the text "false" is no claim
            if self._better(verdict.objective) or (proven and verdict.objective == self.outcome.objective):
                self.outcome.objective = verdict.objective
                self.outcome.best = message["data"]
                self.outcome.proven = proven
                self.outcome.trace.append((round(elapsed, 6), verdict.objective))
        elif kind == "bound":
            value = finite_number(message.get("value"))
            if value is not None:
                best = self.outcome.bound
                tighter = best is None or (value > best if self.sense == "min" else value < best)
                self.outcome.bound = value if tighter else best
        elif kind == "garbage":
            self.outcome.solutions_received += 1
            self.refuse(str(message.get("reason")))
        elif kind in ("failed", "memory"):
            self.failure = message
        elif kind == "done":
            self.done = True


def _environment(
    threads: int, gpu: str | None = None, scratch: str | None = None, harness: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """A worker's whole environment: the ``PASSED_ON`` variables of the ``harness``'s that are set, the thread
    counts, the GPU it may see and, for a run, its temporary folder as TMPDIR and HOME; nothing else of the
    harness's (its tokens and keys stay with it)."""
    env = {name: harness[name] for name in PASSED_ON if name in harness}
    env.update({name: str(threads) for name in THREAD_VARIABLES})
    env["PYTHONUNBUFFERED"] = "1"
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpu
    if scratch is not None:  # the run's own temporary folder, removed when it ends
        env.update({name: scratch for name in ("TMPDIR", "TEMP", "TMP", "HOME")})
    return env


class _Tail:
    """The read end of the worker's stderr, holding only the latest ``STDERR_KEPT`` bytes of what arrived (a
    solver that writes gigabytes to stderr costs the harness neither memory nor disk)."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fd: int | None = fd
        self.kept = bytearray()

    def read(self) -> None:
        """Take what the pipe holds now; at its end (every writer gone) close it."""
        while self.fd is not None:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                os.close(self.fd)
                self.fd = None
                return
            self.kept += chunk
            del self.kept[:-STDERR_KEPT]

    def close(self) -> None:
        self.read()
        if self.fd is not None:  # a process the run left behind still holds it: what it writes later is not kept
            os.close(self.fd)
            self.fd = None

    def text(self) -> str:
        return printable(bytes(self.kept[-4000:]).decode(errors="replace"))[-2000:]


_TERMINAL = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-_]?)|[\x00-\x08\x0b-\x1f\x7f]")


def printable(text: str) -> str:
    """A solver's stderr as a record keeps it: terminal escape sequences, NUL and other control characters
    (but tabs and line breaks) removed."""
    return _TERMINAL.sub("", text)


def _stop(process: Worker) -> None:
    """SIGTERM to the worker's process group, SIGKILL after the grace."""
    for sig, wait in ((signal.SIGTERM, GRACE), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _end_group(group: int) -> None:
    """Kill whatever is left of the worker's process group (what a solver forked)."""
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


_RUNNING: set[int] = set()  # process groups of the workers running now (each run's thread adds and removes its own)


def stop_running() -> None:
    """Kill every worker running now (their runs end as crashes): what Ctrl-C of a campaign must do, since the
    workers lead sessions of their own and the terminal's SIGINT never reaches them."""
    for group in list(_RUNNING):
        _end_group(group)


def execute(spec: RunSpec, instance: Instance, gpu: str | None = None, cpus: list[int] | None = None) -> Outcome:
    """Run the spec's solver on ``instance`` in a worker process (seeing only GPU ``gpu`` and running only on
    cores ``cpus`` when given) and judge the result."""
    judge = _Judge(spec, instance)
    read_fd, write_fd = os.pipe()
    stderr_fd, stderr_write = os.pipe()
    stderr = _Tail(stderr_fd)
    with tempfile.TemporaryDirectory(prefix="frontierco-run-") as scratch:
        env, base = _environment(spec.budget.threads, gpu, scratch), _environment(spec.budget.threads)
        try:
            job = spec.job() if cpus is None else {**spec.job(), "cpus": cpus}
            process = fork_worker(job, env, base, write_fd, stderr_write)
        finally:
            os.close(write_fd)
            os.close(stderr_write)
        _RUNNING.add(process.pid)
        try:
            bound = message_bound(instance)
            stopped_at_limit = _pump(process, read_fd, judge, spec.budget.time_limit, bound, spec.memory_mb, stderr)
        finally:
            _RUNNING.discard(process.pid)
        os.close(read_fd)
        returncode = _wait(process, stderr)
        _end_group(process.pid)
        stderr.close()
        judge.outcome.stderr_tail = stderr.text()
    _conclude(judge, returncode, stopped_at_limit, spec)
    return judge.outcome


def _wait(process: Worker, stderr: _Tail) -> int:
    """The worker's exit status, its stderr read meanwhile (a worker blocked on a full stderr pipe never ends)."""
    while True:
        try:
            return process.wait(timeout=WATCH)
        except subprocess.TimeoutExpired:
            stderr.read()


def message_bound(instance: Instance) -> int:
    """The most bytes one message of a run on ``instance`` may have: a floor, plus a share per node, vertex or
    column (a tour of 10M cities is ~80 MB of JSON, a column's value ~26 bytes)."""
    return MESSAGE_FLOOR + MESSAGE_PER_UNIT * problem_of(instance).size(instance)


TEXT_FIELDS = ("reason", "applied", "message", "traceback")  # what the harness turns into text (in a record's reason)


def _parse(line: bytes | None, bound: int) -> dict[str, Any]:
    """A message from one line; what is not a JSON object is the solver's garbage, never the harness's error. A
    field the harness reads as text that is not a string is replaced (a nested list there could be too deep
    to print), and one that is loses its terminal escapes and control characters (``printable``), as stderr does:
    a solver's exception text reaches records and terminals inert."""
    if line is None:
        return {"type": "garbage", "reason": f"a message over {bound} bytes (refused unread)"}
    try:
        message = json.loads(line)
    except ValueError:  # (UnicodeDecodeError included)
        return {"type": "garbage", "reason": "a message that is not JSON"}
    except RecursionError:
        return {"type": "garbage", "reason": "a message nested too deeply to parse"}
    if not isinstance(message, dict):
        return {"type": "garbage", "reason": "a message that is not a JSON object"}
    return message | {
        key: printable(message[key]) if isinstance(message[key], str) else "(not text)" for key in TEXT_FIELDS if key in message
    }


def _watch_tree(process: Worker, judge: _Judge, memory_mb: int | None) -> bool:
    """Sum the memory of the worker and every process below it (wherever its group or session); at the
    limit kill them all and say so. True when the run was stopped."""
    pids = [process.pid, *descendants(process.pid)]
    if not memory_mb or (held := tree_megabytes(pids)) <= memory_mb:
        return False
    judge.failure = {"type": "memory", "message": f"the run's {len(pids)} processes held {held:.0f} MB > {memory_mb} MB"}
    kill_all(pids)
    _stop(process)
    return True


def _pump(
    process: Worker,
    read_fd: int,
    judge: _Judge,
    limit: float,
    bound: int = MESSAGE_FLOOR,
    memory_mb: int | None = None,
    stderr: _Tail | None = None,
) -> bool:
    """Read messages (and the worker's ``stderr``, when given) until the worker ends or the limit passes; True
    when it was stopped at the limit. A message over ``bound`` bytes is dropped as it streams in (never held
    whole); every ``WATCH`` seconds the run's process tree is held to ``memory_mb``."""
    start = time.monotonic()
    ready_at: float | None = None
    watched = start
    pieces: list[bytes] = []  # the message being read, joined once when its newline arrives (a 10M-city tour is
    size = 0  # ~80 MB of JSON in 64 KB pipe reads: growing and re-splitting one buffer per read was quadratic)
    skipping = False  # inside a message over the bound: its bytes are dropped up to its newline
    while True:
        now = time.monotonic()
        deadline = (ready_at + limit) if ready_at is not None else (start + SETUP_LIMIT)
        if now >= deadline:
            _stop(process)  # the solve time runs on to the worker's end: a stop that needed SIGKILL shows as over limit + GRACE
            judge.outcome.solve_time = (time.monotonic() - ready_at) if ready_at is not None else 0.0
            return True
        if now - watched >= WATCH:
            watched = now
            if _watch_tree(process, judge, memory_mb):
                judge.outcome.solve_time = (now - ready_at) if ready_at is not None else 0.0
                return False
        streams = [read_fd] if stderr is None or stderr.fd is None else [read_fd, stderr.fd]
        readable, _, _ = select.select(streams, [], [], min(deadline - now, WATCH))
        if stderr is not None and stderr.fd in readable:
            stderr.read()
        if read_fd not in readable:
            continue
        chunk = os.read(read_fd, 1 << 20)
        arrived = time.monotonic()
        if not chunk:
            judge.outcome.solve_time = (arrived - ready_at) if ready_at is not None else 0.0
            return False
        lines: list[bytes | None] = []  # None: a message over the bound
        at = 0
        while (newline := chunk.find(b"\n", at)) >= 0:
            if skipping:
                skipping = False
            elif size + newline - at > bound:
                lines.append(None)
            else:
                lines.append(b"".join([*pieces, chunk[at:newline]]))
            pieces, size, at = [], 0, newline + 1
        if not skipping and at < len(chunk):
            size += len(chunk) - at
            if size > bound:
                lines.append(None)
                pieces, size, skipping = [], 0, True
            else:
                pieces.append(chunk[at:])
        for line in lines:
            message = _parse(line, bound)
            if message.get("type") == "sandbox" and ready_at is None and not judge.outcome.sandbox:
                judge.outcome.sandbox = str(message.get("applied", ""))  # the first one, sent before the solver ran
            elif message.get("type") == "ready" and ready_at is None:
                ready_at = arrived
                judge.outcome.setup_time = arrived - start
            elif ready_at is not None and arrived - ready_at <= limit:
                judge.receive(message, arrived - ready_at)
            elif ready_at is None and message.get("type") in ("failed", "memory"):  # setup() raised: keep its message
                judge.receive({**message, "message": f"in setup(): {message.get('message', '')}"}, 0.0)


def _signal_through_bubblewrap(returncode: int, sandbox: str) -> int:
    """``returncode`` in Popen's terms: bwrap reports a solver killed by signal N as exit code 128 + N."""
    return 128 - returncode if sandbox.startswith("bubblewrap") and 128 < returncode < 128 + 65 else returncode


def _conclude(judge: _Judge, returncode: int, stopped_at_limit: bool, spec: RunSpec) -> None:
    outcome = judge.outcome
    returncode = _signal_through_bubblewrap(returncode, outcome.sandbox)
    outcome.exit_code = returncode if returncode >= 0 else None
    outcome.exit_signal = -returncode if returncode < 0 else None
    if outcome.objective is not None:
        outcome.unrounded = judge.unrounded()
        assert outcome.best is not None
        outcome.best = judge.problem.stored_form(judge.instance, outcome.best)
        matches = spec.reference is not None and abs(outcome.objective - spec.reference) <= same_value_slack(spec.reference)
        outcome.status = Status.OPTIMAL if outcome.proven and matches else Status.FEASIBLE
        if outcome.bound is not None and (refuted := refuted_bound(outcome.sense, outcome.bound, outcome.objective)):
            outcome.bound = None  # a claim its own solution refutes: the solution is kept, the bound is not
            outcome.reason = f"bound dropped: {refuted}"
        return
    if judge.failure is not None:
        outcome.status = Status.MEMORY if judge.failure["type"] == "memory" else Status.ERROR
        outcome.reason = str(judge.failure.get("message", ""))
    elif stopped_at_limit:
        outcome.status = Status.TIMEOUT
        outcome.reason = f"no feasible solution within {spec.budget.time_limit:g} s" if outcome.setup_time else "setup did not finish"
    elif judge.first_infeasible:
        outcome.status = Status.INFEASIBLE
        outcome.reason = judge.first_infeasible
    elif not judge.done:
        outcome.status = Status.CRASH
        how = f"signal {outcome.exit_signal}" if outcome.exit_signal else f"exit code {outcome.exit_code}"
        outcome.reason = (
            f"worker died ({how}): {outcome.stderr_tail.strip().splitlines()[-1] if outcome.stderr_tail.strip() else 'no stderr'}"
        )
    else:
        outcome.status = Status.NO_SOLUTION
        outcome.reason = "the solver finished without yielding a solution"
    if judge.last_refused and outcome.status != Status.INFEASIBLE:  # (an infeasible run's reason is its first refusal)
        outcome.reason += f"; the last refused yield: {judge.last_refused}"
