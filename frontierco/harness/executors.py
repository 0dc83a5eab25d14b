"""Executors: where the worker processes of a campaign run. Both call the same ``execute_spec``, so a
cluster run gives the same records as a laptop run (provenance aside).

- ``LocalExecutor(jobs, gpus)``: ``jobs`` runs at once on this machine (threads that each wait on a worker);
  a run on ``cuda`` (its ``Budget.device``) gets its slot's GPU when several are visible (``gpus``, default the
  visible ones: CUDA_VISIBLE_DEVICES round robin over the slots); with more than one slot, each slot's worker is
  pinned to cores of its own (``devices.slot_cpus``) where there are enough.
- ``RayExecutor(address)``: one Ray task per run on a cluster, asking for the run's threads as CPUs and a
  GPU when it runs on CUDA (Ray then sets the task's CUDA_VISIBLE_DEVICES); each task still starts its own
  worker process, which enforces the time and memory limits. Results stream back as tasks finish.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from queue import Queue
from threading import Event, Lock
from typing import Protocol

from frontierco.errors import BadSetting
from frontierco.harness.devices import ray_resources, slot_cpus, visible_gpus, worker_gpus
from frontierco.harness.job import RunSpec, load_job_instance
from frontierco.harness.runner import Outcome, execute, stop_running
from frontierco.solver import SolverUnavailable

STOP_PASSES, STOP_PASS_SECONDS = 120, 0.5  # how long a campaign left early kills its workers again (at most a minute)


def execute_spec(spec: RunSpec, gpu: str | None = None, cpus: list[int] | None = None) -> Outcome:
    """Load the spec's instance and run it in a worker process (what every executor calls); ``gpu``, when
    given, is the only GPU the worker sees, ``cpus`` the only cores it runs on."""
    return execute(spec, load_job_instance(spec.job()), gpu, cpus)


Admit = Callable[[RunSpec], bool]


class Executor(Protocol):
    jobs: int

    def run(self, specs: Sequence[RunSpec], admit: Admit | None = None) -> Generator[tuple[RunSpec, Outcome | None], None, None]:
        """Yield (spec, outcome) for every spec, in the order they finish; a spec that ``admit`` refuses
        (another process took it) is not run and comes back with None."""
        ...


class LocalExecutor:
    def __init__(self, jobs: int = 1, gpus: list[str] | None = None) -> None:
        self.jobs = jobs
        self.gpus = gpus  # None: the visible ones, looked up when a run on cuda comes

    def run(self, specs: Sequence[RunSpec], admit: Admit | None = None) -> Generator[tuple[RunSpec, Outcome | None], None, None]:
        """Each run is admitted when a slot frees up for it, so that concurrent campaigns share the work."""
        on_cuda = any(spec.budget.device == "cuda" for spec in specs)
        gpus = worker_gpus("cuda", self.jobs, (visible_gpus() if self.gpus is None else self.gpus) if on_cuda else [])
        slots: Queue[tuple[int, str | None]] = Queue()
        for slot, gpu in enumerate(gpus):
            slots.put((slot, gpu))

        lock, stopping, active = Lock(), Event(), [0]  # runs started and not ended (a run never starts once stopping)

        def in_a_slot(spec: RunSpec) -> Outcome | None:
            with lock:
                if stopping.is_set():
                    return None
                active[0] += 1
            slot, gpu = slots.get()
            try:
                if admit is not None and not admit(spec):
                    return None
                mine = gpu if spec.budget.device == "cuda" else None  # cuda:N and cpu keep the environment as it is
                return execute_spec(spec, mine, slot_cpus(slot, self.jobs, spec.budget.threads))
            finally:
                slots.put((slot, gpu))
                with lock:
                    active[0] -= 1

        pool = ThreadPoolExecutor(max_workers=self.jobs)
        try:
            futures: dict[Future[Outcome | None], RunSpec] = {pool.submit(in_a_slot, spec): spec for spec in specs}
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            with lock:
                stopping.set()
            pool.shutdown(wait=False, cancel_futures=True)
            # left early (Ctrl-C, or the caller stopped reading): the running workers go too, pass after pass until
            # every started run has ended: a worker forked just before a pass, its group not yet registered, is caught
            # by a later one (a loaded machine showed it: the campaign then waited an hour at exit for that run)
            for _ in range(STOP_PASSES):
                with lock:
                    if active[0] == 0:
                        break
                stop_running()
                time.sleep(STOP_PASS_SECONDS)


RAY_CONNECT_TIMEOUT = 10.0  # seconds for a cluster's address to accept a connection (Ray itself retries for minutes)


def check_ray_address(address: str | None, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """Refuse, in one line and within ``timeout`` seconds, a cluster address (``host:port`` or ``ray://host:port``)
    that accepts no connection: ``ray.init`` would retry it for more than two minutes. ``None``, ``auto`` and
    ``local`` (Ray finds or starts a cluster itself) are left to Ray."""
    if address is None or address in ("auto", "local"):
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise BadSetting("address", f"a Ray cluster address is host:port, got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else exc.strerror or exc.__class__.__name__
        raise BadSetting("address", f"no Ray cluster at {address} ({reason}; waited at most {timeout:g} s)") from None


class RayExecutor:
    def __init__(self, address: str | None = None) -> None:
        import ray

        check_ray_address(address)
        self._ray = ray
        try:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, include_dashboard=False)
        except ConnectionError as exc:  # something answers there, but no Ray cluster (Ray gives up after ~20 s)
            raise BadSetting("address", f"no Ray cluster at {address}: {str(exc).splitlines()[0]}") from None
        self.jobs = int(ray.cluster_resources().get("CPU", 1))
        self._task = ray.remote(execute_spec)

    def run(self, specs: Sequence[RunSpec], admit: Admit | None = None) -> Generator[tuple[RunSpec, Outcome | None], None, None]:
        """Runs are admitted when they are submitted (all at once: the cluster schedules them)."""
        ray = self._ray
        specs = [spec for spec in specs if admit is None or admit(spec)]
        pending = {self._task.options(**ray_resources(spec.budget.threads, spec.budget.device)).remote(spec): spec for spec in specs}
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                spec = pending.pop(done[0])
                yield spec, ray.get(done[0])
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


def make_executor(kind: str, jobs: int = 1, address: str | None = None) -> Executor:
    """The executor a user asked for by name; a bad name or missing Ray is a one-line error. (The device of the
    runs travels in their budgets: local workers on ``cuda`` share the visible GPUs round robin.)"""
    if jobs < 1:
        raise BadSetting("jobs", f"the number of runs at once must be at least 1, got {jobs}")
    if kind == "local":
        return LocalExecutor(jobs)
    if kind != "ray":
        raise BadSetting("executor", f"unknown executor {kind!r}; use local or ray")
    try:
        from frontierco.harness.executors import RayExecutor

        return RayExecutor(address)
    except ImportError:
        raise SolverUnavailable("the ray executor needs Ray: pip install 'frontierco[ray]'") from None
