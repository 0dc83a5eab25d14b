"""A test-only solver that attacks the harness; its ``mode`` parameter picks the attack (tiny CVRP)."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Iterator

import numpy as np

from frontierco.problems import CVRPSolution
from frontierco.solver import Budget, Solver

GOOD = CVRPSolution((np.array([1, 2]), np.array([3])))  # cost 100 on tests/data/tiny.vrp


def _try(action) -> str:
    try:
        action()
    except OSError as exc:
        return f"refused: {exc.strerror}"
    return "done"


def _read(path: str) -> None:
    with open(path, "rb") as handle:
        handle.read(1)


def _peek(pid: int) -> None:
    """Read the first readable page of another process's memory (the harness holds every reference)."""
    with open(f"/proc/{pid}/maps") as maps:
        start = next(int(line.split("-")[0], 16) for line in maps if line.split()[1].startswith("r"))
    with open(f"/proc/{pid}/mem", "rb", 0) as mem:
        mem.seek(start)
        mem.read(4096)


def _append(path: str) -> None:
    with open(path, "a") as handle:
        handle.write("forged\n")


def _scan(pattern: re.Pattern[bytes]) -> list[str]:
    """The matches of ``pattern`` in this process's writable memory (read through /proc/self/mem)."""
    found: list[str] = []
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
        for line in maps:
            span, permissions = line.split()[:2]
            if not permissions.startswith("rw"):
                continue
            start, end = (int(x, 16) for x in span.split("-"))
            try:
                mem.seek(start)
                region = mem.read(end - start)
            except (OSError, OverflowError, ValueError):
                continue
            found += [m.group().decode(errors="replace") for m in pattern.finditer(region)]
    return found


class Hostile(Solver):
    name = "hostile"
    problems = ("cvrp",)
    version = "1"

    def solve(self, instance, budget: Budget) -> Iterator[object]:
        mode = self.params["mode"]
        if mode == "good":
            yield GOOD
        elif mode == "probe":  # each path parameter tried; what happened goes into the error the record keeps
            report = {
                "read": _try(lambda: _read(self.params["read"])),
                "write": _try(lambda: _append(self.params["write"])),
                "append": _try(lambda: _append(self.params["store"])),
                "scratch": _try(lambda: _append(os.path.join(os.environ["TMPDIR"], "mine.txt"))),
                "peek": _try(lambda: _peek(int(self.params["harness"]))) if "harness" in self.params else "not tried",
            }
            raise RuntimeError(json.dumps(report, sort_keys=True))
        elif mode == "channel-garbage":  # a line that is not JSON, written to every descriptor the worker holds
            for fd in range(3, 64):
                try:
                    os.write(fd, b"this is not json\n")
                except OSError:
                    pass
            yield GOOD
        elif mode == "channel-flood":  # one message far over any bound, then a good solution
            block = b"x" * (1 << 20)
            for fd in range(3, 64):
                try:
                    os.write(fd, b'{"type": "solution", "data": "')
                    for _ in range(int(self.params.get("megabytes", 64))):
                        os.write(fd, block)
                    os.write(fd, b'"}\n')
                except OSError:
                    pass
            yield GOOD
        elif mode == "channel-many":  # many messages each under the bound, one after the other, then a good solution
            message = b'{"type": "solution", "data": "' + b"x" * (int(self.params.get("megabytes", 8)) << 20) + b'"}\n'
            for fd in range(3, 64):
                try:
                    for _ in range(int(self.params.get("count", 12))):
                        os.write(fd, message)
                except OSError:
                    pass
            yield GOOD
        elif mode == "fork-hoard":  # children that each hold memory below the limit, together above it
            for _ in range(int(self.params.get("children", 3))):
                if os.fork() == 0:
                    hoard = bytearray(int(self.params.get("megabytes", 600)) * 1024 * 1024)
                    hoard[::4096] = b"x" * len(hoard[::4096])  # touched: resident, not only reserved
                    time.sleep(60)
                    os._exit(0)
            time.sleep(10)
            yield GOOD
        elif mode == "escape":  # a grandchild in a session of its own, orphaned at once; its pid on stderr
            read, write = os.pipe()
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    os.write(write, f"{os.getpid()}\n".encode())
                    time.sleep(300)
                    os._exit(0)
                os._exit(0)
            pid = os.read(read, 64).decode().strip()
            sys.stderr.write(f"grandchild {pid}\n")
            sys.stderr.flush()
            if "pidfile" in self.params:  # (a test without the sandbox reads it while the campaign runs)
                with open(self.params["pidfile"], "w") as handle:
                    handle.write(pid)
            yield GOOD
            time.sleep(float(self.params.get("seconds", 0.0)))
        elif mode == "scan":  # search this process's memory for text matching a pattern (a manifest's reference line)
            raise RuntimeError(json.dumps({"found": _scan(re.compile(self.params["pattern"].encode("latin-1")))}))
        elif mode == "channel-nested":  # JSON nested deeper than any parser's stack, then nested where text is read
            deep = b"[" * 100_000 + b"]" * 100_000
            shallow = b"[" * 900 + b"]" * 900
            for fd in range(3, 64):
                try:
                    os.write(fd, b'{"type": "solution", "data": ' + deep + b"}\n")
                    os.write(fd, b'{"type": "garbage", "reason": ' + shallow + b"}\n")
                    os.write(fd, b'{"type": "solution", "data": {"routes": ' + shallow + b"}}\n")
                except OSError:
                    pass
            yield GOOD
        elif mode == "environ":  # what of the harness's environment reaches the solver, by any of three ways
            report = {"keys": sorted(os.environ), "home": os.environ.get("HOME"), "tmpdir": os.environ.get("TMPDIR")}
            for name, path in (("initial", "/proc/self/environ"), ("parent", f"/proc/{os.getppid()}/environ")):
                try:
                    with open(path, "rb") as handle:
                        report[name] = sorted(entry.split(b"=")[0].decode() for entry in handle.read().split(b"\0") if entry)
                except OSError as exc:
                    report[name] = f"refused: {exc.strerror}"
            raise RuntimeError(json.dumps(report))
        elif mode == "stderr-flood":  # megabytes of stderr, a last line, then how much of it the file behind fd 2 holds
            block = b"e" * (1 << 20)
            for _ in range(int(self.params.get("megabytes", 64))):
                os.write(2, block)
            os.write(2, b"\nthe last line\n")
            raise RuntimeError(json.dumps({"held": os.fstat(2).st_size}))
        elif mode == "abort":
            os.abort()
        elif mode == "ansi":
            sys.stderr.write("\x1b[31mred\x1b[0m and a \x00 nul\n")
            sys.stderr.flush()
            os._exit(7)
