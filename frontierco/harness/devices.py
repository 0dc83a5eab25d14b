"""Where runs execute: the ``--device`` a user asks for (cpu, cuda, cuda:N), checked before any run starts,
the GPU each local worker gets when several are visible (round robin through ``CUDA_VISIBLE_DEVICES``, so
that a worker's ``cuda`` is its own GPU), and the cores each local slot's worker is pinned to when several
run at once."""

from __future__ import annotations

import os
import re

from frontierco.errors import UsageError

DEVICE = re.compile(r"^(cpu|cuda(?::(\d+))?)$")


def cuda_device_count() -> int:
    """CUDA devices PyTorch sees here (0 without PyTorch or without CUDA)."""
    try:
        import torch
    except ImportError:
        return 0
    return int(torch.cuda.device_count()) if torch.cuda.is_available() else 0


def check_device(device: str, count: int | None = None) -> None:
    """A one-line usage error unless ``device`` is cpu, or a CUDA device that is here."""
    match = DEVICE.match(device)
    if match is None:
        raise UsageError(f"unknown device {device!r}; use cpu, cuda or cuda:N")
    if device == "cpu":
        return
    count = cuda_device_count() if count is None else count
    if count == 0:
        raise UsageError(f"device {device} was asked for, but no CUDA device is available on this machine")
    if match.group(2) is not None and int(match.group(2)) >= count:
        raise UsageError(f"device {device} was asked for, but this machine has {count} CUDA device(s): cuda:0..cuda:{count - 1}")


def visible_gpus() -> list[str]:
    """The GPUs workers may be given: the entries of CUDA_VISIBLE_DEVICES when it is set, else 0..count-1."""
    listed = os.environ.get("CUDA_VISIBLE_DEVICES")
    if listed is not None:
        return [gpu.strip() for gpu in listed.split(",") if gpu.strip()]
    return [str(i) for i in range(cuda_device_count())]


def worker_gpus(device: str, jobs: int, gpus: list[str]) -> list[str | None]:
    """One entry per local worker slot: for ``cuda`` without an index and several GPUs, slot k gets GPU
    k mod len(gpus) (the worker then sees only it, as cuda:0); otherwise None (the environment unchanged)."""
    if device != "cuda" or len(gpus) < 2:
        return [None] * jobs
    return [gpus[k % len(gpus)] for k in range(jobs)]


def slot_cpus(slot: int, jobs: int, threads: int, available: list[int] | None = None) -> list[int] | None:
    """The cores the worker of local slot ``slot`` (of ``jobs``) is pinned to: its own ``threads`` of the
    cores this process may use, when runs share the machine (``jobs`` > 1) and each can have its own; else
    None (the scheduler places it). Unpinned, two single-threaded workers on two cores were seen sharing one
    core for seconds after a start (the workers fork from a sleeping parent)."""
    if available is None:
        available = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if jobs < 2 or jobs * threads > len(available):
        return None
    return available[slot * threads : (slot + 1) * threads]


def ray_resources(threads: int, device: str) -> dict[str, float]:
    """What a Ray task of one run asks for: its threads as CPUs, and one GPU when it runs on CUDA."""
    return {"num_cpus": threads, "num_gpus": 0 if device == "cpu" else 1}
