"""The worker process: loads the instance and the solver, then streams each yielded solution.

Forked for each run by the zygote (``zygote.py``), which hands it the run's job and the file descriptor
of its message channel. Messages are JSON lines written to that channel (stdout is the solver's to spam):
``sandbox`` (what was applied, before the solver is imported),
``ready`` after setup, ``solution`` per yield, ``bound`` per proven bound, ``garbage`` for a yield that is not a solution,
``failed`` with the exception when the solver raises, ``memory`` on MemoryError, ``done`` at the end.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import pickle
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from frontierco.harness.tree import become_subreaper

if TYPE_CHECKING:
    from frontierco.filestore import FileStore
    from frontierco.solver import SolverSpec

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


def _send(channel: IO[str], message: dict[str, Any]) -> None:
    channel.write(json.dumps(message) + "\n")
    channel.flush()


def _limit_memory(megabytes: int | None) -> None:
    """The run's address space: ``megabytes``, or less where the harness was started under a lower hard limit
    (``ulimit -v``, a cluster's job limit), which no process may raise (every run was an error in setup())."""
    if megabytes:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = megabytes * 1024 * 1024 if hard == resource.RLIM_INFINITY else min(megabytes * 1024 * 1024, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _pin_torch_threads(threads: int) -> None:
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)


def numba_cache(cache: Path, folder: Path) -> Path:
    """The folder of numba's compiled code of the solver in ``folder``: ``<cache>/numba/<name>-<key>``, the key
    a digest of the folder's resolved path, so a workspace folder named like a suite solver's (or another
    workspace's) never writes where that solver's compiled code is read from."""
    origin = folder.resolve()
    key = hashlib.sha256(os.fsencode(origin)).hexdigest()[:16]
    return cache.resolve() / "numba" / f"{origin.name}-{key}"


def weights_cache(cache: Path, folder: Path) -> Path:
    """The cache of the published weights of the solver in ``folder`` (its file store's cache, the one place a
    sandboxed download of them lands: ``<cache>/weights/<name>-<key>/checkpoints/<name>/...``), keyed as
    ``numba_cache`` is: a workspace folder named like a suite solver's never writes where that solver's weights are
    read from (``<cache>/checkpoints/<name>``, the cache of every unsandboxed process, is no solver's to write)."""
    origin = folder.resolve()
    key = hashlib.sha256(os.fsencode(origin)).hexdigest()[:16]
    return cache.resolve() / "weights" / f"{origin.name}-{key}"


def _solver_folder(target: str) -> Path | None:
    """The folder of a solver's ``path/solver.py:Class`` target; None for an installed package's."""
    location = target.rpartition(":")[0]
    return Path(location).resolve().parent if location.endswith(".py") else None


def solver_files(job: dict[str, Any], target: str) -> FileStore:
    """The file store a solver gets (``Solver.files``): the job's mirror, and for a solver folder its own keyed
    cache (``weights_cache``) instead of the job's."""
    from frontierco.harness.job import job_files

    files, folder = job_files(job), _solver_folder(target)
    return files if folder is None else replace(files, cache=weights_cache(files.cache, folder))


def _sandbox_paths(job: dict[str, Any], target: str, path_params: tuple[str, ...]) -> tuple[list[Path], list[Path]]:
    """What the solver may read and what it may write (``harness/sandbox`` says which and why); points
    numba's cache at the solver's own writable folder. The job names the file store and the workspace's
    folders (``closed``): the worker never looks for a workspace itself."""
    from frontierco.harness.job import job_files
    from frontierco.harness.sandbox import readable_paths
    from frontierco.workspace import SUITE

    folder = _solver_folder(target)  # None for an installed package: its site-packages
    files = job_files(job)
    cache, mirror = files.cache, files.mirror
    stores = [root.resolve() for root in (cache, mirror) if root is not None]
    weights = [mirror.resolve() / "checkpoints" / folder.name] if folder is not None and mirror is not None else []
    named = [Path(str(job["params"][key])) for key in path_params if key in job.get("params", {})]
    forbidden = [SUITE.resolve(), *stores, *(Path(closed) for closed in job["closed"])]
    writable = [Path(os.environ["TMPDIR"])] if os.environ.get("TMPDIR") else []
    if folder is not None and cache is not None:  # its own weights' downloads, in a cache keyed by its folder
        own = weights_cache(cache, folder)
        own.mkdir(parents=True, exist_ok=True)
        writable.append(own)
    if folder is not None and cache is not None:  # numba caches compiled code only where it may write: a folder per solver
        compiled = numba_cache(cache, folder)
        compiled.mkdir(parents=True, exist_ok=True)
        os.environ["NUMBA_CACHE_DIR"] = str(compiled)
        writable.append(compiled)
    return readable_paths(folder, weights + named, forbidden), writable


def _enter_sandbox(job: dict[str, Any], instance: Any, channel: IO[str], target: str, path_params: tuple[str, ...]) -> str:
    """Confine the solver before it is imported (``harness/sandbox``); what was applied. Landlock restricts
    this process in place; bubblewrap replaces it with a fresh one inside the sandbox (this call then never
    returns: the run goes on in ``harness/confined``)."""
    from frontierco.harness.sandbox import BUBBLEWRAP, LANDLOCK, UNSANDBOXED, choose, restrict

    mechanism = choose(job.get("sandbox", ""))  # the context's setting, carried by the job
    if mechanism == UNSANDBOXED:
        return UNSANDBOXED
    try:
        readable, writable = _sandbox_paths(job, target, path_params)
        if mechanism == LANDLOCK:
            return restrict(readable, writable)
    except OSError as exc:
        return f"{UNSANDBOXED} ({exc})"
    assert mechanism == BUBBLEWRAP
    _exec_bubblewrap(job, instance, channel, readable, writable)
    raise AssertionError("unreachable: exec returned")


def _absolute(target: str) -> str:
    """A solver's target ("path/solver.py:Class" or "package.module:Class") with its path made absolute."""
    location, _, attribute = target.rpartition(":")
    return f"{Path(location).resolve()}:{attribute}" if location.endswith(".py") else target


def _exec_bubblewrap(job: dict[str, Any], instance: Any, channel: IO[str], readable: list[Path], writable: list[Path]) -> None:
    """Hand the job and the loaded instance over (a file in the run's temporary folder, read and removed
    inside) and become ``bwrap`` running ``harness/confined`` on the same message channel."""
    from frontierco.harness import bubblewrap

    scratch = Path(os.environ.get("TMPDIR") or tempfile.mkdtemp(prefix="frontierco-run-"))
    writable = writable if scratch in writable else [scratch, *writable]
    handover = scratch / ".frontierco-handover.pickle"
    job = {**job, "solver": {**job["solver"], "target": _absolute(job["solver"]["target"])}}  # the sandbox has another cwd
    with open(handover, "wb") as handle:
        given = {"job": job, "instance": instance, "applied": bubblewrap.bubblewrap_version()}
        pickle.dump(given, handle, protocol=pickle.HIGHEST_PROTOCOL)
    argv = [sys.executable, "-m", "frontierco.harness.confined", str(handover), str(channel.fileno())]
    line = bubblewrap.command(readable, writable, argv, scratch)
    channel.flush()
    os.set_inheritable(channel.fileno(), True)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(line[0], line)


def granted_path_params(spec: SolverSpec, params: dict[str, Any]) -> tuple[str, ...]:
    """The path parameters whose paths the sandbox grants: those a user gave, never a declared default (a solver
    declaring ``default = "/"`` read everything outside the workspace, a home folder's keys included)."""
    given = spec.chosen(params)
    return tuple(key for key in spec.path_params if key in given)


def run_job(job: dict[str, Any], channel: IO[str]) -> None:
    from frontierco.harness.job import load_job_instance
    from frontierco.solver import SolverSpec

    _limit_memory(job.get("memory_mb"))
    if job.get("cpus"):
        os.sched_setaffinity(0, job["cpus"])
    instance = load_job_instance(job)
    spec = SolverSpec(**job["solver"])
    applied = _enter_sandbox(job, instance, channel, spec.target, granted_path_params(spec, job.get("params", {})))
    solve_job(job, instance, channel, applied)


def solve_job(job: dict[str, Any], instance: Any, channel: IO[str], applied: str) -> None:
    """Say which sandbox the solver runs in, then import it, set it up and stream what it yields."""
    from frontierco.problems import get_problem
    from frontierco.solver import Bound, Budget, Proven, Rejected, SolverSpec

    _send(channel, {"type": "sandbox", "applied": applied})
    problem = get_problem(job["problem"])
    spec = SolverSpec(**job["solver"])
    budget = Budget(**job["budget"])
    solver = spec.load()(**job.get("params", {}))
    solver.files = solver_files(job, spec.target)  # where its published weights are: the job's mirror, its own cache
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
    return report(os.fdopen(channel_fd, "w"), lambda channel: run_job(job, channel))


def report(channel: IO[str], work: Callable[[IO[str]], None]) -> int:
    """Do ``work`` on ``channel``, sending what went wrong as the last message; the exit status (0 done,
    3 MemoryError, 4 any other failure of the solver)."""
    try:
        work(channel)
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
