"""The Ray executor on a real local cluster (a head and one extra worker node on 127.0.0.1) gives the
same records as the local executor. ``.ci/run`` starts the cluster and sets FRONTIERCO_RAY_ADDRESS;
without it the test starts (and stops) its own."""

import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from frontierco.errors import BadSetting
from frontierco.harness.execute import run_plan
from frontierco.harness.executors import LocalExecutor, make_executor
from frontierco.harness.plan import Selection, plan_collection
from frontierco.registry import Registry
from frontierco.results import ResultStore
from frontierco.solver import Budget, get_solver

pytest.importorskip("ray")
PORT = "6391"


def _ray_command() -> str:
    """The ``ray`` of this interpreter's environment (a venv that is not activated is not on PATH), else PATH's."""
    beside = Path(sys.executable).parent / "ray"
    return str(beside) if beside.exists() else shutil.which("ray") or "ray"


def _ray(*args: str) -> None:
    subprocess.run([_ray_command(), *args], check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    address = os.environ.get("FRONTIERCO_RAY_ADDRESS")
    if address:
        yield address
        return
    address = f"127.0.0.1:{PORT}"
    _ray(
        "start",
        "--head",
        "--node-ip-address=127.0.0.1",
        f"--port={PORT}",
        "--num-cpus=1",
        "--include-dashboard=false",
        "--disable-usage-stats",
    )
    try:
        _ray("start", f"--address={address}", "--num-cpus=1", "--disable-usage-stats")
        yield address
    finally:
        import ray

        ray.shutdown()
        _ray("stop", "--force")


def _comparable(records):
    return sorted((r.run_id, r.instance, r.seed, r.status, r.objective, [o for _, o in r.trace], r.reference) for r in records)


@pytest.mark.slow
def test_ray_records_match_local_records(tmp_path, ray_address):
    from frontierco.harness.executors import RayExecutor

    plan = plan_collection(Registry(), get_solver("greedy"), "mis", Selection("mis-rb-small", "dev"), Budget(5.0), seeds=2)
    local = run_plan(plan, ResultStore(tmp_path / "local"), LocalExecutor(2))
    executor = RayExecutor(ray_address)
    assert executor.jobs >= 2  # the head and the extra worker node each give a CPU
    remote = run_plan(plan, ResultStore(tmp_path / "ray"), executor)
    assert len(remote) == len(plan.specs) == 8
    assert _comparable(remote) == _comparable(local)
    assert list(ResultStore(tmp_path / "ray").records())  # streamed to the driver's store


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # free again once closed: nothing listens there


@pytest.mark.parametrize("form", ["{}", "ray://{}"])
def test_an_address_where_nothing_listens_is_one_line_at_once(form):
    """Ray retried such an address for more than two minutes (issue 44's hostile run: ``--address nowhere:1``)."""
    address = form.format(f"127.0.0.1:{_closed_port()}")
    with pytest.raises(BadSetting, match=rf"^no Ray cluster at {re.escape(address)} \(Connection refused; waited at most 10 s\)$"):
        make_executor("ray", 1, address)


def test_an_address_that_is_not_host_and_port_is_one_line():
    with pytest.raises(BadSetting, match=r"^a Ray cluster address is host:port, got 'nowhere'$"):
        make_executor("ray", 1, "nowhere")
