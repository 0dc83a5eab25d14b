import numpy as np
import pytest

from frontierco.problems import TSPSolution, evaluate
from frontierco.problems.routing.distances import EdgeWeights, coordinate_distances
from frontierco.problems.routing.tsplib import read_routing_instance


def _d(a, b, rule):
    return coordinate_distances(np.array([a], dtype=float), np.array([b], dtype=float), rule)[0]


def test_euc_2d_rounds_to_nearest():
    assert _d((0, 0), (3, 4), "EUC_2D") == 5
    assert _d((0, 0), (1, 1), "EUC_2D") == 1  # 1.414 -> 1
    assert _d((0, 0), (1.5, 1.5), "EUC_2D") == 2  # 2.121 -> 2
    assert _d((0, 0), (0, 2.5), "EUC_2D") == 3  # nint(2.5) = floor(3.0)


def test_ceil_and_exact():
    assert _d((0, 0), (1, 1), "CEIL_2D") == 2
    assert _d((0, 0), (1, 1), "EXACT_2D") == pytest.approx(2**0.5)


def test_att_pseudo_euclidean():
    # r = sqrt(100/10) = 3.162..., nint = 3 < r, so 4
    assert _d((0, 0), (10, 0), "ATT") == 4
    # r = sqrt(1000/10) = 10 exactly
    assert _d((0, 0), (10, 30), "ATT") == 10


def test_man_max():
    assert _d((0, 0), (1.2, 2.4), "MAN_2D") == 4
    assert _d((0, 0), (1.2, 2.4), "MAX_2D") == 2


def test_explicit_is_directed():
    w = EdgeWeights("EXPLICIT", matrix=np.array([[0, 1], [7, 0]]))
    assert w.between(np.array([0, 1]), np.array([1, 0])).tolist() == [1, 7]
    assert w.path_length(np.array([0, 1, 0])) == 8


def test_unknown_rule_rejected():
    with pytest.raises(ValueError):
        EdgeWeights("SPHERE", coords=np.zeros((2, 2)))


@pytest.mark.parametrize(
    "name, canonical",
    # lengths of the tour 1, 2, ..., n given in the TSPLIB95 documentation to check distance codes
    [("pcb442", 221440), ("gr666", 423710), ("att532", 309636)],
)
def test_tsplib_canonical_tour_lengths(mirror, name, canonical):
    instance = read_routing_instance(mirror / "tsplib" / f"{name}.tsp")
    assert evaluate(instance, TSPSolution(np.arange(instance.n))).objective == canonical
