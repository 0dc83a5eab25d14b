"""A run on 200,000 cities stores its best tour packed (problems/routing/tourpack.py), small enough for the
committed store, and the stored run re-checks from it."""

import gzip

import numpy as np
import pytest

from frontierco.app.verify import verify_record
from frontierco.harness.execute import run_plan
from frontierco.harness.job import Budget
from frontierco.harness.plan import plan_file
from frontierco.problems.routing import tourpack
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance
from frontierco.problems.routing.tsplib import write_routing_instance
from frontierco.registry import Registry
from frontierco.results import ResultStore
from frontierco.solver import get_solver


@pytest.mark.slow
def test_a_long_tour_is_stored_packed_and_re_checks(tmp_path):
    rng = np.random.default_rng(7)
    coords = rng.integers(0, 10**6, (tourpack.PACK_FROM, 2)).astype(np.float64)
    path = tmp_path / "u200k.tsp"
    write_routing_instance(path, TSPInstance("u200k", EdgeWeights("EUC_2D", coords=coords)))
    store = ResultStore(tmp_path / "runs", solution_cache=tmp_path / "cache")
    (record,) = run_plan(plan_file(get_solver("sfc-2opt"), path, Budget(3.0)), store)
    assert record.status == "feasible" and record.solution_file is not None
    stored = tmp_path / "runs" / record.solution_file
    assert b"packed_tour" in gzip.decompress(stored.read_bytes())
    assert stored.stat().st_size < 1_000_000
    assert verify_record(store, record, Registry()).agrees
