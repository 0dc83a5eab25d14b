"""A run's whole process tree, read from ``/proc``: its processes (by parent id, so a child that left the
worker's process group or session is still found), the memory they hold together, and their end.

The worker and the zygote are child subreapers (``PR_SET_CHILD_SUBREAPER``): a process orphaned inside a run
is adopted by its worker, and one orphaned by a worker's end by the zygote, never by init, so every process
a solver started stays in a tree the harness can walk.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

_PAGE = os.sysconf("SC_PAGE_SIZE")
_SUBREAPER = 36  # PR_SET_CHILD_SUBREAPER


def become_subreaper() -> None:
    """Adopt the orphans of this process's descendants (Linux 3.4+; elsewhere nothing happens)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _parents() -> dict[int, int]:
    """Every process's parent id."""
    parents = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()  # after "pid (name) ": state, ppid, ...
        parents[int(entry.name)] = int(fields[1])
    return parents


_LISTED = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists()  # CONFIG_PROC_CHILDREN


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (from its threads' ``children`` lists where the kernel keeps
    them: only the tree is read, not every process of the machine)."""
    if not _LISTED:
        return [pid for pid, of in _parents().items() if of == parent]
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{parent}/task"):
            try:
                found += [int(pid) for pid in Path(f"/proc/{parent}/task/{task}/children").read_text().split()]
            except OSError:
                continue  # a thread that ended meanwhile
    except OSError:
        return []
    return found


def descendants(root: int) -> list[int]:
    """The processes below ``root`` (children, their children, ...), not ``root`` itself."""
    found, frontier = [], [root]
    while frontier:
        below = children(frontier.pop())
        found += below
        frontier += below
    return found


def _megabytes(pid: int) -> float:
    """The memory a process holds: its proportional share of what it maps (Pss: pages shared after a fork
    counted once across the tree), or its resident set where the kernel gives no Pss."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def tree_megabytes(pids: list[int]) -> float:
    """The memory the processes hold together, in MiB."""
    return sum(_megabytes(pid) for pid in pids)


def kill_all(pids: list[int]) -> None:
    """SIGKILL each process (gone ones are skipped)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
