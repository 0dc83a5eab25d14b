"""A test-only solver whose ``mode`` parameter picks a behaviour, good or bad, on the tiny CVRP."""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
from collections.abc import Iterator

import numpy as np

from frontierco.problems import CVRPSolution, MISSolution
from frontierco.solver import Budget, Proven, Solver

GOOD = CVRPSolution((np.array([1, 2]), np.array([3])))  # cost 100 on tests/data/tiny.vrp
WORSE = CVRPSolution((np.array([1]), np.array([2]), np.array([3])))  # cost 20 + 40 + 60 = 120


class Faulty(Solver):
    name = "faulty"
    problems = ("cvrp",)
    version = "1"

    def setup(self) -> None:
        if self.params.get("mode") == "setup-raises":
            raise RuntimeError("no licence file")

    def solve(self, instance, budget: Budget) -> Iterator[object]:
        mode = self.params.get("mode", "good")
        if mode == "good":
            yield WORSE
            time.sleep(0.2)
            yield GOOD
        elif mode == "proven":
            yield Proven(GOOD)
        elif mode == "raises":
            raise RuntimeError("boom")
        elif mode == "aborts":
            os.abort()
        elif mode == "hangs":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                time.sleep(0.05)
        elif mode == "feasible-then-hangs":
            yield GOOD
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                time.sleep(0.05)
        elif mode == "allocates":
            hoard = []
            while True:
                hoard.append(bytearray(50 * 1024 * 1024))
        elif mode == "garbage":
            yield "hello"
        elif mode == "wrong-type":
            yield MISSolution(np.array([0]))
        elif mode == "infeasible":
            yield CVRPSolution((np.array([1, 2, 3]),))
        elif mode == "refused-then-sleeps":  # two refused yields, then nothing until the limit
            yield CVRPSolution((np.array([1, 2, 3]),))
            yield "hello"
            time.sleep(300)
        elif mode == "spams-stdout":
            block = "x" * (1 << 20)
            for _ in range(200):
                sys.stdout.write(block)
            yield GOOD
        elif mode == "forks":  # leaves a child process and a temporary file behind, then sleeps
            import subprocess
            import tempfile

            child = subprocess.Popen(["sleep", "300"])
            litter = os.path.join(tempfile.gettempdir(), "litter.txt")
            with open(litter, "w") as handle:
                handle.write("left behind")
            with open(self.params["pidfile"], "w") as handle:
                handle.write(f"{child.pid} {litter}")
            yield GOOD
            time.sleep(float(self.params.get("seconds", 0.0)))
        elif mode == "inspects":  # reports what the worker process is: session, environment, open files
            import json
            import tempfile

            fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
            report = {
                "pid": os.getpid(),
                "pgid": os.getpgrp(),
                "sid": os.getsid(0),
                "fds": {fd: os.readlink(f"/proc/self/fd/{fd}") for fd in fds if os.path.exists(f"/proc/self/fd/{fd}")},
                "env": dict(os.environ),
                "tempdir": tempfile.gettempdir(),
                "random": float(np.random.random()),
                "cpus": sorted(os.sched_getaffinity(0)),
                "frozen": gc.get_freeze_count(),
            }
            with open(self.params["report"], "w") as handle:
                json.dump(report, handle)
            yield GOOD
        elif mode == "nothing":
            return
        elif mode == "slow":
            time.sleep(float(self.params.get("seconds", 1.0)))
            yield GOOD
        elif mode == "busy":
            deadline = time.monotonic() + float(self.params.get("seconds", 1.0))
            x = 0
            while time.monotonic() < deadline:
                x += 1
            yield GOOD
