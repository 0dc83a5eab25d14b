"""The --device option: checked before anything runs, GPUs handed to local workers round robin, a GPU per Ray
task, the device on the record."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from frontierco.errors import UsageError
from frontierco.harness import executors
from frontierco.harness.devices import check_device, cuda_device_count, ray_resources, slot_cpus, worker_gpus
from frontierco.harness.runner import _environment


def test_cpu_and_present_cuda_devices_pass_the_check() -> None:
    check_device("cpu", count=0)
    check_device("cuda", count=1)
    check_device("cuda:1", count=2)


@pytest.mark.parametrize(
    "device, count, message",
    [
        ("gpu", 2, "unknown device 'gpu'"),
        ("cuda:", 2, "unknown device"),
        ("cuda", 0, "no CUDA device is available"),
        ("cuda:2", 2, "has 2 CUDA device"),
    ],
)
def test_a_device_that_is_not_there_is_a_one_line_usage_error(device: str, count: int, message: str) -> None:
    with pytest.raises(UsageError, match=message) as caught:
        check_device(device, count=count)
    assert "\n" not in str(caught.value)


def test_local_workers_on_cuda_get_the_visible_gpus_round_robin() -> None:
    assert worker_gpus("cuda", 4, ["3", "5"]) == ["3", "5", "3", "5"]
    assert worker_gpus("cuda", 2, ["0"]) == [None, None]  # one GPU: everyone sees it as it is
    assert worker_gpus("cuda:1", 2, ["0", "1"]) == [None, None]  # an explicit index is kept
    assert worker_gpus("cpu", 3, ["0", "1"]) == [None, None, None]
    assert _environment(1, "5")["CUDA_VISIBLE_DEVICES"] == "5"


def test_each_local_slot_hands_its_worker_one_gpu_and_its_own_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str | None, tuple[int, ...]]] = []
    monkeypatch.setattr(executors, "execute_spec", lambda spec, gpu=None, cpus=None: seen.append((gpu, tuple(cpus or ()))) or spec)
    monkeypatch.setattr(executors, "slot_cpus", lambda slot, jobs, threads: slot_cpus(slot, jobs, threads, [10, 11]))
    specs = [SimpleNamespace(budget=SimpleNamespace(threads=1, device="cuda")) for _ in range(6)]
    finished = list(executors.LocalExecutor(2, ["0", "1"]).run(specs))  # type: ignore[arg-type]
    assert len(finished) == 6 and len(seen) == 6
    assert set(seen) <= {("0", (10,)), ("1", (11,))}  # every run got one of the two slots, its GPU and its core
    seen.clear()  # a run on the cpu or on a GPU it names keeps the environment as it is: the device travels in the budget
    specs = [SimpleNamespace(budget=SimpleNamespace(threads=1, device=device)) for device in ("cpu", "cuda:1", "cuda", "cpu")]
    assert len(list(executors.LocalExecutor(2, ["0", "1"]).run(specs))) == 4  # type: ignore[arg-type]
    assert sorted(gpu or "" for gpu, _ in seen)[:3] == ["", "", ""] and {gpu for gpu, _ in seen} - {None} <= {"0", "1"}


def test_a_ray_task_asks_for_a_gpu_only_on_cuda() -> None:
    assert ray_resources(2, "cpu") == {"num_cpus": 2, "num_gpus": 0}
    assert ray_resources(1, "cuda:0") == {"num_cpus": 1, "num_gpus": 1}


@pytest.mark.skipif(cuda_device_count() > 0, reason="this machine has a CUDA device")
def test_run_on_a_missing_gpu_stops_before_recording_anything(tmp_path: object) -> None:
    import subprocess
    import sys

    store = tmp_path / "runs"  # type: ignore[operator]
    command = [sys.executable, "-m", "frontierco", "run", "--solver", "greedy", "--problem", "mis", "--device", "cuda"]
    command += ["--results", str(store)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "no CUDA device is available" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not store.exists()
