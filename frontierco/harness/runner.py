"""Run one RunSpec in its own worker process under a hard time limit and judge what came back.

The parent starts the clock when the worker says ``ready`` (after the untimed setup), timestamps every
message on arrival, evaluates each solution with the problem's own checker (never the solver's number)
and keeps only the best feasible one and the improving trace. At the limit the worker's process group
gets SIGTERM, then SIGKILL after ``GRACE`` seconds; messages arriving after the limit do not count.

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
import select
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from frontierco.harness.job import RunSpec
from frontierco.harness.worker import THREAD_VARIABLES
from frontierco.harness.zygote import Worker, fork_worker
from frontierco.metrics import same_value_slack
from frontierco.problems import Instance, get_problem
from frontierco.results import Status

GRACE = 2.0
SETUP_LIMIT = 120.0
MAX_MESSAGE = 512 * 1024 * 1024


@dataclass
class Outcome:
    """What one run produced, before it becomes a record."""

    status: str = Status.NO_SOLUTION
    reason: str = ""
    objective: float | None = None
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


class _Judge:
    """Evaluates each arriving solution and keeps the best feasible one."""

    def __init__(self, spec: RunSpec, instance: Instance) -> None:
        self.problem = get_problem(spec.problem)
        self.sense = self.problem.sense_of(instance)
        self.instance = instance
        self.outcome = Outcome(sense=self.sense)
        self.failure: dict[str, Any] | None = None
        self.first_infeasible = ""
        self.done = False

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
                self.first_infeasible = self.first_infeasible or f"malformed solution: {exc}"
                return
            if not verdict.feasible:
                self.first_infeasible = self.first_infeasible or verdict.reason
                return
            assert verdict.objective is not None
            if self._better(verdict.objective) or (message.get("proven") and verdict.objective == self.outcome.objective):
                self.outcome.objective = verdict.objective
                self.outcome.best = message["data"]
                self.outcome.proven = bool(message.get("proven"))
                self.outcome.trace.append((round(elapsed, 6), verdict.objective))
        elif kind == "bound":
            value = message.get("value")
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                best = self.outcome.bound
                tighter = best is None or (value > best if self.sense == "min" else value < best)
                self.outcome.bound = float(value) if tighter else best
        elif kind == "garbage":
            self.outcome.solutions_received += 1
            self.first_infeasible = self.first_infeasible or str(message.get("reason"))
        elif kind in ("failed", "memory"):
            self.failure = message
        elif kind == "done":
            self.done = True


def _environment(threads: int, gpu: str | None = None, scratch: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.update({name: str(threads) for name in THREAD_VARIABLES})
    env["PYTHONUNBUFFERED"] = "1"
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpu
    if scratch is not None:  # the run's own temporary folder, removed when it ends
        env.update({name: scratch for name in ("TMPDIR", "TEMP", "TMP")})
    return env


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


def execute(spec: RunSpec, instance: Instance, gpu: str | None = None, cpus: list[int] | None = None) -> Outcome:
    """Run the spec's solver on ``instance`` in a worker process (seeing only GPU ``gpu`` and running only on
    cores ``cpus`` when given) and judge the result."""
    judge = _Judge(spec, instance)
    read_fd, write_fd = os.pipe()
    with tempfile.TemporaryFile() as stderr, tempfile.TemporaryDirectory(prefix="frontierco-run-") as scratch:
        env, base = _environment(spec.budget.threads, gpu, scratch), _environment(spec.budget.threads)
        try:
            job = spec.job() if cpus is None else {**spec.job(), "cpus": cpus}
            process = fork_worker(job, env, base, write_fd, stderr.fileno())
        finally:
            os.close(write_fd)
        stopped_at_limit = _pump(process, read_fd, judge, spec.budget.time_limit)
        os.close(read_fd)
        returncode = process.wait()
        _end_group(process.pid)
        stderr.seek(0, os.SEEK_END)
        stderr.seek(max(0, stderr.tell() - 4000))
        judge.outcome.stderr_tail = stderr.read().decode(errors="replace")[-2000:]
    _conclude(judge, returncode, stopped_at_limit, spec)
    return judge.outcome


def _pump(process: Worker, read_fd: int, judge: _Judge, limit: float) -> bool:
    """Read messages until the worker ends or the limit passes; True when it was stopped at the limit."""
    start = time.monotonic()
    ready_at: float | None = None
    pieces: list[bytes] = []  # the message being read, joined once when its newline arrives (a 10M-city tour is
    size = 0  # ~80 MB of JSON in 64 KB pipe reads: growing and re-splitting one buffer per read was quadratic)
    while True:
        now = time.monotonic()
        deadline = (ready_at + limit) if ready_at is not None else (start + SETUP_LIMIT)
        if now >= deadline:
            judge.outcome.solve_time = limit if ready_at is not None else 0.0
            _stop(process)
            return True
        readable, _, _ = select.select([read_fd], [], [], min(deadline - now, 0.5))
        if not readable:
            continue
        chunk = os.read(read_fd, 1 << 20)
        arrived = time.monotonic()
        if not chunk:
            judge.outcome.solve_time = (arrived - ready_at) if ready_at is not None else 0.0
            return False
        lines, at = [], 0
        while (newline := chunk.find(b"\n", at)) >= 0:
            lines.append(b"".join([*pieces, chunk[at:newline]]))
            pieces, size, at = [], 0, newline + 1
        pieces.append(chunk[at:])
        size += len(chunk) - at
        if size > MAX_MESSAGE:
            judge.failure = {"type": "failed", "message": f"a message over {MAX_MESSAGE} bytes"}
            _stop(process)
            return False
        for line in lines:
            message = json.loads(line)
            if message.get("type") == "ready":
                ready_at = arrived
                judge.outcome.setup_time = arrived - start
            elif ready_at is not None and arrived - ready_at <= limit:
                judge.receive(message, arrived - ready_at)


def _conclude(judge: _Judge, returncode: int, stopped_at_limit: bool, spec: RunSpec) -> None:
    outcome = judge.outcome
    outcome.exit_code = returncode if returncode >= 0 else None
    outcome.exit_signal = -returncode if returncode < 0 else None
    if outcome.objective is not None:
        matches = spec.reference is not None and abs(outcome.objective - spec.reference) <= same_value_slack(spec.reference)
        outcome.status = Status.OPTIMAL if outcome.proven and matches else Status.FEASIBLE
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
