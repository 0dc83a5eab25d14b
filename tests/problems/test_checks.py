"""problems/common/checks.py: the small checks every checker shares (indices, ranges, repeats)."""

import numpy as np
import pytest

from frontierco.problems.common.checks import as_index_array, first_out_of_range, first_repeated, times


@pytest.mark.parametrize("values", [[3, 1, 2], np.array([3, 1, 2], dtype=np.int32), [3.0, 1.0, 2.0], np.array([3, 1, 2], dtype=np.uint8)])
def test_whole_numbers_of_any_type_become_int64_indices(values):
    array, reason = as_index_array(values, "tour")
    assert reason == "" and array is not None and array.dtype == np.int64 and array.tolist() == [3, 1, 2]


def test_an_int64_array_is_taken_as_it_is():
    values = np.array([0, 1], dtype=np.int64)
    array, _ = as_index_array(values, "tour")
    assert array is values  # callers only read it: no copy of a 10M-node tour


def test_an_empty_list_is_an_empty_index_array():
    array, reason = as_index_array([], "vertices")
    assert reason == "" and array is not None and array.dtype == np.int64 and array.size == 0


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ([1.5, 2.0], "vertices contains entries that are not integers"),
        ([1.0, float("nan")], "vertices contains entries that are not integers"),
        ([float("inf")], "vertices contains entries that are not integers"),
        (["a", "b"], "vertices contains entries that are not integers"),
        ([[1, 2], [3, 4]], "vertices must be a flat list of indices"),
    ],
)
def test_what_is_not_a_flat_list_of_whole_numbers_is_refused_with_a_reason(values, reason):
    assert as_index_array(values, "vertices") == (None, reason)


def test_the_first_index_out_of_range_and_the_first_repeat():
    indices = np.array([2, 0, 7, -1, 3])
    assert first_out_of_range(indices, 0, 4) == 7
    assert first_out_of_range(indices, -1, 7) is None
    assert first_repeated(np.array([4, 1, 4, 1, 1]), 5) == (1, 3)  # the smallest repeated value, with its count
    assert first_repeated(np.array([0, 1, 2]), 3) is None


@pytest.mark.parametrize(("count", "text"), [(2, "twice"), (3, "3 times"), (10, "10 times")])
def test_times(count, text):
    assert times(count) == text
