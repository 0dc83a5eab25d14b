"""Landlock through ``landlockpy``: one ruleset that allows reading some paths and writing others, then
enforced on this process and everything it starts (``harness/sandbox`` says which paths). It handles no
network right: the network stays as it is, as under bubblewrap (``landlockpy`` would otherwise refuse TCP
connects and listeners from ABI 4 and UDP from the ABI that adds it, so a run's network would depend on the
kernel and differ between the two mechanisms)."""

from __future__ import annotations

from pathlib import Path

from landlockpy import AccessFS, AccessNet, Ruleset, Scope, fs_for_abi

READ = AccessFS.EXECUTE | AccessFS.READ_FILE | AccessFS.READ_DIR
_FILE_ONLY = AccessFS.EXECUTE | AccessFS.WRITE_FILE | AccessFS.READ_FILE | AccessFS.TRUNCATE  # what a rule on a file may carry
_HANDLED_UP_TO = 3  # read, write, execute, make, remove, refer, truncate; device ioctls and Unix sockets (5, 9) stay as they were
SCOPES = Scope.ABSTRACT_UNIX_SOCKET | Scope.SIGNAL  # ABI 6+; dropped on older kernels


def handled(version: int) -> AccessFS:
    """The file system rights the ruleset takes over on a kernel of Landlock ABI ``version``."""
    return fs_for_abi(min(version, _HANDLED_UP_TO))


def _allow(ruleset: Ruleset, path: Path, rights: AccessFS) -> None:
    if not path.exists():
        return  # a path that is not there needs no rule
    ruleset.allow_path(path, rights if path.is_dir() else rights & _FILE_ONLY)


def confine(version: int, readable: list[Path], writable: list[Path]) -> None:
    """Allow reading ``readable`` and everything on ``writable``, deny the rest of the handled rights, and
    enforce it (with ``no_new_privs``); an OSError when the kernel refuses."""
    rights = handled(version)
    with Ruleset(handled_fs=rights, handled_net=AccessNet.NONE, scoped=SCOPES) as ruleset:
        for path in readable:
            _allow(ruleset, path, READ)
        for path in writable:
            _allow(ruleset, path, rights)
        ruleset.restrict()
