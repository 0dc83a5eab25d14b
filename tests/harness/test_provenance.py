"""harness/provenance.py: what a record says about where it came from."""

import datetime
import importlib.metadata
import platform

import pytest

from frontierco.harness.provenance import provenance
from frontierco.results import package_name


@pytest.mark.parametrize(
    ("requirement", "name"),
    [("pyscipopt>=5.0", "pyscipopt"), ("torch-geometric>=2.5", "torch-geometric"), ("numpy", "numpy"), ("ray[default]>=2", "ray")],
)
def test_a_requirement_s_package_name(requirement, name):
    assert package_name(requirement) == name


def test_provenance_names_versions_machine_jobs_and_time():
    found = provenance({"numpy": "numpy>=1.26", "nothing_here": "no-such-package-xyz>=1"}, jobs=3)
    assert found["libraries"] == {"numpy": importlib.metadata.version("numpy"), "no-such-package-xyz": "not installed"}
    assert found["frontierco"] == importlib.metadata.version("frontierco")
    assert found["python"] == platform.python_version() and found["jobs"] == 3
    assert isinstance(found["cpu"], str) and found["cpu"]
    commit = str(found["git_commit"])
    assert commit == "unknown" or (len(commit) == 40 and int(commit, 16) >= 0)
    finished = datetime.datetime.fromisoformat(str(found["finished_at"]))
    assert finished.tzinfo is not None and finished.microsecond == 0
