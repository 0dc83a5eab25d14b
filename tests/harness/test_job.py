"""harness/job.py: a run's id (what makes two runs the same) and the job the worker reads."""

from dataclasses import replace

import pytest

from frontierco.harness.job import RunSpec, load_job_instance
from frontierco.harness.plan import Selection, plan_collection, plan_file
from frontierco.problems import CVRPInstance
from frontierco.registry import Registry
from frontierco.solver import Budget
from tests.helpers import DATA


@pytest.fixture
def spec(faulty) -> RunSpec:
    (planned,) = plan_file(faulty, DATA / "tiny.vrp", 60.0, params={"mode": "good"}).specs
    return planned


def test_the_run_id_is_stable_and_a_time_limit_of_60_is_the_same_as_60_0(spec):
    assert spec.run_id == replace(spec).run_id and len(spec.run_id) == 16
    assert replace(spec, budget=Budget(60, 0, 1, "cpu")).run_id == spec.run_id


@pytest.mark.parametrize(
    "change",
    [
        {"params": {"mode": "slow"}},
        {"solver_version": "2"},
        {"instance_sha256": "0" * 64},
        {"budget": Budget(30.0)},
        {"budget": Budget(60.0, seed=1)},
        {"budget": Budget(60.0, threads=2)},
        {"budget": Budget(60.0, device="cuda:0")},
    ],
)
def test_what_the_run_depends_on_changes_its_id(spec, change):
    assert replace(spec, **change).run_id != spec.run_id


def test_the_reference_and_where_the_records_go_are_not_part_of_the_run(spec):
    other = replace(spec, reference=1.0, reference_source="hand", reference_status="optimal", collection="elsewhere", memory_mb=64)
    assert other.run_id == spec.run_id


def test_the_job_carries_what_the_worker_needs_and_never_the_reference(spec):
    job = replace(spec, reference=123.0, reference_source="secret").job()
    assert set(job) == {"solver", "params", "problem", "instance_key", "entry", "budget", "memory_mb", "files", "closed", "sandbox"}
    assert job["entry"] is None  # a file given by path: the worker reads it by its format
    assert "123" not in str(job) and "secret" not in str(job)
    assert job["solver"]["name"] == "faulty" and "parameters" not in job["solver"]
    assert job["budget"] == {"time_limit": 60.0, "seed": 0, "threads": 1, "device": "cpu"}
    assert spec.instance_name == "tiny.vrp"


def test_the_worker_loads_a_file_instance_or_a_collection_s_by_its_entry_without_the_reference(spec):
    instance = load_job_instance(spec.job())
    assert isinstance(instance, CVRPInstance) and instance.n == 4
    greedy = plan_collection(Registry(), _greedy(), "mis", Selection("mis-rb-small", "test", limit=1), 5.0).specs[0]
    job = greedy.job()
    assert greedy.reference is not None and "manifest" not in job  # the worker never reads the manifest
    assert job["entry"]["name"] == greedy.instance_name and "reference" not in job["entry"]
    assert load_job_instance(job).name == greedy.instance_name


def test_the_workspace_and_the_file_store_travel_in_the_job(tmp_path):
    """The worker never looks for a workspace: the run path puts the context's folders into the job (closed to the
    solver), and the file store the instance comes from."""
    from frontierco.filestore import FileStore
    from frontierco.harness.job import job_files
    from frontierco.harness.request import RunRequest, plan_request
    from frontierco.solver import Budget
    from frontierco.workspace import Context, init

    made = init(tmp_path / "ws")
    files = FileStore(tmp_path / "cache", tmp_path / "mirror", offline=True)
    context = Context(root=made.root, files=files)
    request = RunRequest("greedy", Selection("mis-rb-small", "test", limit=1), Budget(5.0, seed=3), "mis", seeds=2)
    specs = plan_request(context, request).specs
    assert [spec.budget.seed for spec in specs] == [3, 4]  # the seeds count up from the budget's
    job = specs[0].job()
    assert str(made.root) in job["closed"] and job_files(job) == files


def _greedy():
    from frontierco.solver import get_solver

    return get_solver("greedy")
