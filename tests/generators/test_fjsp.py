import numpy as np
import pytest

from frontierco.errors import RegistryError
from frontierco.problems.generate import generate


def test_sizes_eligible_counts_and_times_follow_the_parameters():
    shop = generate(
        "fjsp-random", "g", 5, {"jobs": 7, "machines": 5, "operations": 4, "low": 10, "high": 20, "min_eligible": 2, "max_eligible": 3}
    ).instance
    counts = np.diff(shop.option_ptr)
    assert (shop.num_jobs, shop.num_machines, shop.num_operations) == (7, 5, 28)
    assert counts.min() >= 2 and counts.max() <= 3 and shop.times.min() >= 10 and shop.times.max() <= 20


def test_operations_default_to_the_number_of_machines():
    assert generate("fjsp-random", "g", 1, {"jobs": 3, "machines": 6}).instance.num_operations == 18


def test_impossible_eligibility_is_refused():
    with pytest.raises(RegistryError, match="min_eligible"):  # the generator's ValueError, one line
        generate("fjsp-random", "g", 1, {"jobs": 3, "machines": 2, "max_eligible": 3})
