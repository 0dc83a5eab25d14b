"""What every sandbox grants a solver beside its own folders, whichever mechanism applies it (``landlock``,
``bubblewrap``): the system's folders (read), a few device files, the two writable ones, the GPUs."""

from __future__ import annotations

from pathlib import Path

SYSTEM = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys")
DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/shm")  # and the GPUs' /dev/nvidia*
WRITABLE = ("/dev/null", "/dev/shm")


def gpus() -> list[Path]:
    """The NVIDIA device files (a CUDA solver opens them; both mechanisms let it)."""
    return sorted(Path("/dev").glob("nvidia*"))
