"""Worker processes forked from a warm parent: a *zygote* that has imported the framework (numpy, the
problems, the job loader) once, so that a run's worker no longer pays Python's start-up and those imports
(about 0.25 s a run, most of the harness's overhead).

Each worker is still a fresh process of its own, as isolated as one started from scratch: its own session
and process group (the harness stops it with ``killpg``), its own environment (thread variables, GPU,
temporary folder), stdin and stdout on /dev/null, stderr into the harness's file, and no file descriptor of
the zygote's except the run's message channel. The zygote is started once per (harness process, thread
count), in a session of its own (a Ctrl-C of the campaign does not reach it), with the run's thread
variables already set, so BLAS starts with as many threads as the runs it serves; it exits when its
harness process is gone (its stdin closes, however the harness ended), and its workers die with it
(``PR_SET_PDEATHSIG``). A zygote with no running worker is retired when a zygote for another environment
starts, so a process that changes its environment often does not collect them.

Protocol, on one Unix stream connection per run (from the zygote's parent only, checked with
``SO_PEERCRED``: the socket's abstract name is visible to every local user): the harness sends the request (8-byte
length + JSON: ``job``, ``env`` and the harness's working folder ``cwd``) with two file descriptors (message channel,
stderr); the zygote answers ``pid N`` once the worker leads its own session, then ``exit N`` (``Popen.returncode``'s
convention: -signal) when it ends.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from frontierco.harness.tree import become_subreaper, children, descendants, kill_all

PRELOAD = ("numpy", "frontierco.problems", "frontierco.harness.job", "frontierco.solver", "frontierco.harness.worker")
_LENGTH = struct.Struct("!Q")
STRAYS = 0.25  # seconds between two looks for what an ended worker's solver left


class Worker:
    """The harness's handle on one forked worker: its pid (= its process group) and its exit status, in
    ``subprocess.Popen``'s terms (``wait``, ``returncode``)."""

    def __init__(self, connection: socket.socket, zygote: _Zygote) -> None:
        self._connection, self._buffer, self._zygote = connection, b"", zygote
        self.returncode: int | None = None
        word, value = self._line(None)
        if word != "pid":
            raise OSError(f"the zygote did not start the worker: {word} {value}")
        self.pid = value

    def _line(self, timeout: float | None) -> tuple[str, int]:
        self._connection.settimeout(timeout)
        while b"\n" not in self._buffer:
            try:
                chunk = self._connection.recv(256)
            except TimeoutError:
                raise subprocess.TimeoutExpired("worker", timeout or 0.0) from None
            if not chunk:
                raise OSError("the zygote went away")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        word, value = line.decode().split()
        return word, int(value)

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            word, value = self._line(timeout)
            if word != "exit":
                raise OSError(f"unexpected word from the zygote: {word}")
            self.returncode = value
            self._connection.close()
            with _lock:
                self._zygote.running -= 1
        return self.returncode


class _Zygote:
    def __init__(self, env: dict[str, str]) -> None:
        self.address = f"\0frontierco-zygote-{os.getpid()}-{id(self)}"
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.address)
        listener.listen(64)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "frontierco.harness.zygote", str(listener.fileno())],
            stdin=subprocess.PIPE,  # its end of life: closed when this process is gone
            stdout=subprocess.DEVNULL,
            pass_fds=(listener.fileno(),),
            start_new_session=True,
            env=env,
        )
        listener.close()
        self.running = 0

    def retire(self) -> None:
        """Let the zygote exit (it reads the end of its stdin)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()

    def fork(self, job: dict[str, Any], env: dict[str, str], channel: int, stderr: int) -> Worker:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(self.address)
        request = json.dumps({"job": job, "env": env, "cwd": os.getcwd()}).encode()
        socket.send_fds(connection, [_LENGTH.pack(len(request)) + request], [channel, stderr])
        return Worker(connection, self)


_zygotes: dict[tuple[int, tuple[tuple[str, str], ...]], _Zygote] = {}
_lock = threading.Lock()


def fork_worker(job: dict[str, Any], env: dict[str, str], base: dict[str, str], channel: int, stderr: int) -> Worker:
    """Start a worker for ``job`` with environment ``env``, forked from the zygote of this process that was
    started with environment ``base`` (one per distinct base: the thread variables); ``channel`` becomes the
    worker's message channel and ``stderr`` its standard error."""
    key = (os.getpid(), tuple(sorted(base.items())))
    with _lock:
        zygote = _zygotes.get(key)
        if zygote is None or zygote.process.poll() is not None:
            for other in [k for k, z in _zygotes.items() if z.running == 0 or k[0] != key[0]]:
                if other[0] == key[0]:
                    _zygotes[other].retire()
                del _zygotes[other]  # (a forked copy of this module does not own its parent's zygotes)
            zygote = _zygotes[key] = _Zygote(base)
        zygote.running += 1
    try:
        return zygote.fork(job, env, channel, stderr)
    except BaseException:
        with _lock:
            zygote.running -= 1
        raise


# ---- the zygote's side ----


def _receive(connection: socket.socket) -> tuple[dict[str, Any], list[int]]:
    data, fds, _, _ = socket.recv_fds(connection, 1 << 16, 2)
    if len(data) < _LENGTH.size:
        raise EOFError
    (length,) = _LENGTH.unpack(data[: _LENGTH.size])
    body = data[_LENGTH.size :]
    while len(body) < length:
        chunk = connection.recv(min(1 << 20, length - len(body)))
        if not chunk:
            raise EOFError
        body += chunk
    return json.loads(body), fds


def _become_worker(request: dict[str, Any], channel: int, stderr: int, keep_open: list[int], ready: int) -> None:
    """In the forked child: a session of its own, the run's environment and standard streams, then the
    worker's job; never returns."""
    os.setsid()
    os.write(ready, b"x")
    os.close(ready)
    for fd in keep_open:
        os.close(fd)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(stderr, 2)
    os.close(devnull)
    os.close(stderr)
    for sig in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])  # the harness's working folder now, not the one the zygote started in
    tempfile.tempdir = None  # the run's own TMPDIR, not the zygote's cached one
    import numpy as np

    np.random.seed()  # the legacy global generator from fresh entropy, as in a fresh process
    from frontierco.harness.worker import serve

    code = 1
    try:
        code = serve(request["job"], channel)
    finally:
        os._exit(code)


def _peer_pid(connection: socket.socket) -> int:
    """The process at the other end of a Unix connection (SO_PEERCRED: pid, uid, gid)."""
    pid, _, _ = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    return int(pid)


def serve_forever(listener: socket.socket) -> None:
    """Fork a worker for each request until stdin closes; report each worker's exit on its connection."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    connections: list[socket.socket] = []
    workers: dict[int, socket.socket] = {}
    strays = False  # a worker ended: what its solver left (adopted here, the zygote being a subreaper) is killed
    while True:
        readable, _, _ = select.select([listener, sys.stdin, wake_read, *connections], [], [], STRAYS if strays else None)
        if sys.stdin in readable and not os.read(sys.stdin.fileno(), 1):
            _end_everything(list(workers))
            return  # the harness is gone: exiting kills the workers (their parent-death signal)
        if wake_read in readable:
            os.read(wake_read, 1024)
        if listener in readable:
            connection = listener.accept()[0]
            if _peer_pid(connection) == os.getppid():  # only its own harness may ask for a worker
                connections.append(connection)
            else:
                connection.close()
        for connection in [c for c in connections if c in readable]:
            connections.remove(connection)
            try:
                request, fds = _receive(connection)
            except (EOFError, OSError, ValueError):
                connection.close()
                continue
            ready_read, ready_write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(ready_read)
                others = [listener.fileno(), wake_read, wake_write]  # (stdin is replaced by /dev/null)
                others += [c.fileno() for c in (*connections, *workers.values())]
                connection.close()
                _become_worker(request, fds[0], fds[1], others, ready_write)
            os.close(ready_write)
            os.read(ready_read, 1)  # the worker leads its own session now: killpg(pid) reaches it
            os.close(ready_read)
            for fd in fds:
                os.close(fd)
            workers[pid] = connection
            connection.sendall(f"pid {pid}\n".encode())
        reaped = False
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            reaped = True
            if pid not in workers:
                continue  # an adopted orphan
            connection = workers.pop(pid)
            try:
                connection.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
            except OSError:
                pass
            connection.close()
        if reaped or strays:
            found = [pid for pid in children(os.getpid()) if pid not in workers]
            kill_all(found)
            strays = bool(found) or reaped


def _end_everything(workers: list[int]) -> None:
    """Kill the workers, give their watchdogs (``worker._guard_the_group``) a moment to remove their runs'
    folders, then kill every process left below the zygote, a few rounds for orphans."""
    kill_all(workers)
    time.sleep(0.5)
    for _ in range(20):
        below = descendants(os.getpid())
        if not below:
            return
        kill_all(below)
        time.sleep(0.05)
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break


def main() -> None:
    import importlib

    become_subreaper()
    listener = socket.socket(fileno=int(sys.argv[1]))
    for module in PRELOAD:
        importlib.import_module(module)
    serve_forever(listener)


if __name__ == "__main__":
    main()
