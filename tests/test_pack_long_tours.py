"""scripts/pack_long_tours.py: a committed plain tour of PACK_FROM cities or more is re-stored packed, its record
names the new file (still admitted), the old file is gone, and the run re-checks from the packed file."""

from __future__ import annotations

import gzip
from dataclasses import replace

import numpy as np

from frontierco.app.verify import verify_record
from frontierco.problems.common.fingerprint import file_sha256
from frontierco.problems.routing import tourpack
from frontierco.problems.routing.distances import EdgeWeights
from frontierco.problems.routing.tsp import TSPInstance, TSPSolution, evaluate
from frontierco.problems.routing.tsplib import write_routing_instance
from frontierco.registry import Registry
from frontierco.results import ON_FILE, ResultStore
from tests.helpers import load_script, record


def test_a_long_plain_tour_is_stored_packed_and_still_re_checks(tmp_path, monkeypatch):
    monkeypatch.setattr(tourpack, "PACK_FROM", 200)
    rng = np.random.default_rng(1)
    instance = TSPInstance("u300", EdgeWeights("EUC_2D", coords=rng.integers(0, 1000, (300, 2)).astype(np.float64)))
    path = tmp_path / "u300.tsp"
    write_routing_instance(path, instance)
    tour = rng.permutation(300)
    length = evaluate(instance, TSPSolution(tour)).objective
    store = ResultStore(tmp_path / "runs", solution_cache=tmp_path / "cache")
    plain = store.save_solution(ON_FILE, "s-u300-0", {"tour": tour.tolist()})
    run = replace(record("s", "u300", "feasible", length, [(1.0, length)]), collection=ON_FILE, solution_file=plain)
    store.append(replace(run, instance_key=str(path), instance_sha256=file_sha256(str(path))))
    renamed = load_script("pack_long_tours").pack(store.root)
    assert list(renamed) == [plain] and not (store.root / plain).exists()
    (stored,) = store.records(only_admitted=True)
    assert stored.solution_file == renamed[plain]
    assert b"packed_tour" in gzip.decompress((store.root / stored.solution_file).read_bytes())
    assert verify_record(store, stored, Registry()).agrees
    assert load_script("pack_long_tours").pack(store.root) == {}  # done once
