"""The worker's sandbox: Landlock (Linux 5.13+) through its three system calls.

After the worker has loaded the instance, and before it imports the solver, it restricts itself and every
process it will start: reading (and executing) only the installed Python and libraries, the system's
folders, the frontierco package, the solver's own folder, the published weights of its folder
(``checkpoints/<folder>/`` in the file store's cache and mirror) and the paths named by the parameters the
solver declares as paths (``path_params``); writing only its own temporary folder, ``/dev/shm``,
``/dev/null`` and its folder of numba's compiled code (``<cache>/numba/<folder>``, where it could also keep
files from one of its runs to the next). The workspace (manifests with their references, the record store, other solvers' folders)
is neither readable nor writable. From ABI 6 it may neither signal nor connect to an abstract Unix socket
of a process outside the sandbox (the harness, the zygote). Where the kernel has no Landlock the run goes
on unsandboxed and its record says so.

ctypes and the system calls directly: the PyPI ``landlock`` package is a pre-release (1.0.0.dev5), and the
interface is three calls and two structures.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

UNSANDBOXED = "unsandboxed"

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same numbers on every architecture
_VERSION = 1  # LANDLOCK_CREATE_RULESET_VERSION
_PATH_BENEATH = 1
_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1, 2, 4, 8
_MAKE = 16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096  # remove dir/file, make char/dir/reg/sock/fifo/block/sym
REFER, TRUNCATE = 8192, 16384
_FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE  # the rights a rule on a file (not a folder) may carry
_SCOPES = 1 | 2  # abstract Unix sockets, signals (ABI 6)

SYSTEM = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys")
DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/shm")  # and the GPUs' /dev/nvidia*
WRITABLE = ("/dev/null", "/dev/shm")


class _Ruleset(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def abi() -> int:
    """The kernel's Landlock ABI version, 0 where there is none (or it is disabled)."""
    try:
        version = _libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(0, int(version))


def _handled(version: int) -> int:
    rights = EXECUTE | WRITE_FILE | READ_FILE | READ_DIR | _MAKE
    if version >= 2:
        rights |= REFER
    if version >= 3:
        rights |= TRUNCATE
    return rights


def _allow(libc: ctypes.CDLL, ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a path that is not there needs no rule
    try:
        if not os.path.isdir(path):
            rights &= _FILE_ONLY
        rule = _PathBeneath(rights, fd)
        if libc.syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_PATH_BENEATH), ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), f"landlock_add_rule on {path}")
    finally:
        os.close(fd)


def _grants(path: Path, forbidden: list[Path]) -> list[Path]:
    """``path`` as grants that cover none of ``forbidden``: itself when it holds none of them, else its
    entries one by one, recursively (Landlock allows folders, it cannot carve one out: an installed suite's
    ``site-packages/frontierco/_suite`` holds the manifests)."""
    if path in forbidden or not path.exists():
        return []
    if not any(f.is_relative_to(path) for f in forbidden):
        return [path]
    if not path.is_dir():
        return []
    return [grant for entry in sorted(path.iterdir()) for grant in _grants(entry.resolve(), forbidden)]


def readable_paths(solver_folder: Path | None, extra: list[Path], forbidden: list[Path]) -> list[Path]:
    """What the solver may read: the interpreter's prefixes and import path, the system's folders, the
    frontierco package, its own folder and ``extra``; never one of ``forbidden`` (the workspace, the suite's
    manifests and solvers, the file store's roots) nor anything inside one (but its own folder and ``extra``
    when they are)."""
    import frontierco

    candidates = [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, *sys.path, *SYSTEM, *DEVICES) if p]
    candidates += sorted(Path("/dev").glob("nvidia*"))
    candidates.append(Path(frontierco.__file__).resolve().parent)
    if solver_folder is not None:
        candidates.append(solver_folder)
    candidates += extra
    found: list[Path] = []
    for candidate in candidates:
        for grant in _grants(candidate.resolve(), forbidden):
            if grant not in found:
                found.append(grant)
    return found


def restrict(readable: list[Path], writable: list[Path]) -> str:
    """Restrict this process (and all it starts) to reading ``readable`` and writing ``writable``; returns
    what was applied: ``landlock ABI N``, or ``unsandboxed`` where the kernel offers no Landlock."""
    version = abi()
    if version < 1:
        return UNSANDBOXED
    libc = _libc()
    handled = _handled(version)
    attr = _Ruleset(handled, 0, _SCOPES if version >= 6 else 0)
    size = ctypes.sizeof(_Ruleset) if version >= 6 else 8  # ABI 1-3 know only the first field; 4-5 two, both 0 here
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        for path in readable:
            _allow(libc, ruleset, str(path), EXECUTE | READ_FILE | READ_DIR)
        for path in [*writable, *(Path(p) for p in WRITABLE), *sorted(Path("/dev").glob("nvidia*"))]:
            _allow(libc, ruleset, str(path), handled)
        if libc.prctl(_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        if libc.syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return f"landlock ABI {version}"
