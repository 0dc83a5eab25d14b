"""The worker process: loads the instance and the solver, then streams each yielded solution.

Forked for each run by the zygote (``zygote.py``), which hands it the run's job and the file descriptor
of its message channel. Messages are JSON lines written to that channel (stdout is the solver's to spam):
``sandbox`` (what was applied, before the solver is imported),
``ready`` after setup, ``solution`` per yield, ``bound`` per proven bound, ``garbage`` for a yield that is not a solution,
``failed`` with the exception when the solver raises, ``memory`` on MemoryError, ``done`` at the end.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import shutil
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import IO, Any

from frontierco.harness.tree import become_subreaper

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


def _send(channel: IO[str], message: dict[str, Any]) -> None:
    channel.write(json.dumps(message) + "\n")
    channel.flush()


def _limit_memory(megabytes: int | None) -> None:
    if megabytes:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _pin_torch_threads(threads: int) -> None:
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)


def _enter_sandbox(job: dict[str, Any], target: str, path_params: tuple[str, ...]) -> str:
    """Restrict this worker before the solver is imported (``harness/sandbox``); what was applied.
    ``FRONTIERCO_SANDBOX=0`` in the harness's environment turns it off (the record then says so)."""
    from frontierco.filestore import default_cache, default_mirror
    from frontierco.harness.sandbox import UNSANDBOXED, readable_paths, restrict
    from frontierco.workspace import SUITE, current, layers

    if os.environ.get("FRONTIERCO_SANDBOX") == "0":
        return UNSANDBOXED
    location = target.rpartition(":")[0]
    folder = Path(location).resolve().parent if location.endswith(".py") else None  # an installed package: its site-packages
    cache, mirror = default_cache(), default_mirror()
    stores = [root.resolve() for root in (cache, mirror) if root is not None]
    weights = [root / "checkpoints" / folder.name for root in stores] if folder is not None else []
    named = [Path(str(job["params"][key])) for key in path_params if key in job.get("params", {})]
    workspace = current()
    forbidden = [SUITE.resolve(), *stores, *(p.resolve() for p in layers("instances"))]
    forbidden += [workspace.root.resolve()] if workspace is not None else []
    writable = [Path(os.environ["TMPDIR"])] if os.environ.get("TMPDIR") else []
    writable += [w for w in weights[:1] if w.is_dir() and cache is not None]  # downloads of its own weights into the cache
    if folder is not None and cache is not None:  # numba caches compiled code only where it may write: a folder per solver
        compiled = cache.resolve() / "numba" / folder.name
        compiled.mkdir(parents=True, exist_ok=True)
        os.environ["NUMBA_CACHE_DIR"] = str(compiled)
        writable.append(compiled)
    try:
        return restrict(readable_paths(folder, weights + named, forbidden), writable)
    except OSError as exc:
        return f"{UNSANDBOXED} ({exc})"


def run_job(job: dict[str, Any], channel: IO[str]) -> None:
    from frontierco.harness.job import load_job_instance
    from frontierco.problems import get_problem
    from frontierco.solver import Bound, Budget, Proven, Rejected, SolverSpec

    _limit_memory(job.get("memory_mb"))
    if job.get("cpus"):
        os.sched_setaffinity(0, job["cpus"])
    problem = get_problem(job["problem"])
    instance = load_job_instance(job)
    spec = SolverSpec(**job["solver"])
    _send(channel, {"type": "sandbox", "applied": _enter_sandbox(job, spec.target, tuple(spec.path_params))})
    budget = Budget(**job["budget"])
    solver = spec.load()(**job.get("params", {}))
    solver.setup()
    _pin_torch_threads(budget.threads)
    gc.collect()  # setup's garbage is collected before the clock starts, and what setup keeps (a network,
    gc.freeze()  # a model) is not scanned again by the solve's collections
    _send(channel, {"type": "ready"})
    for item in solver.solve(instance, budget):
        if isinstance(item, Bound):
            _send(channel, {"type": "bound", "value": float(item.value)})
            continue
        if isinstance(item, Rejected):
            _send(channel, {"type": "garbage", "reason": item.reason})
            continue
        proven = isinstance(item, Proven)
        try:
            data = problem.encode(item.solution if proven else item)
        except (TypeError, ValueError) as exc:
            _send(channel, {"type": "garbage", "reason": str(exc)})
            continue
        _send(channel, {"type": "solution", "data": data, "proven": proven})
    _send(channel, {"type": "done"})


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when the harness dies (kill -9 of a campaign leaves no orphan)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


def _guard_the_group() -> None:
    """Fork a watchdog into the worker's process group (its own session, started by the harness) that
    removes the run's temporary folder and kills the whole group once the worker is gone, however it went
    (finished, killed at the limit, or killed with the harness): nothing a run made outlives it."""
    worker = os.getpid()
    if os.fork() != 0:
        return
    os.closerange(3, 1 << 16)  # hold no pipe of the worker's: the harness must see their ends close
    while os.getppid() == worker:
        time.sleep(0.2)
    scratch = os.environ.get("TMPDIR", "")
    if os.path.basename(scratch).startswith("frontierco-run-"):  # the run's own folder, even when the harness died
        shutil.rmtree(scratch, ignore_errors=True)
    os.killpg(os.getpgrp(), signal.SIGKILL)


def serve(job: dict[str, Any], channel_fd: int) -> int:
    """Run ``job`` in this process (a worker forked by the zygote, leading its own session), reporting on
    file descriptor ``channel_fd``; returns the exit status for the caller's ``os._exit``."""
    _die_with_parent()
    become_subreaper()  # what a solver's children orphan stays below this worker (harness/tree)
    if os.getpgrp() == os.getpid():  # the leader of its own group, as the zygote makes it
        _guard_the_group()
    channel = os.fdopen(channel_fd, "w")
    try:
        run_job(job, channel)
        channel.close()
        sys.stdout.flush()
        return 0
    except MemoryError:
        _send(channel, {"type": "memory", "message": "MemoryError"})
        return 3
    except BaseException as exc:  # the solver's failure, reported to the parent, whatever it was
        tail = "".join(traceback.format_exception(exc)[-3:])
        _send(channel, {"type": "failed", "message": f"{type(exc).__name__}: {exc}", "traceback": tail[-2000:]})
        return 4
    finally:
        sys.stderr.flush()
