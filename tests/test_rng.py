"""Seeding: a task's stream depends only on (seed, key)."""

import numpy as np
import pytest

from tyrsim.core import rng


def test_task_streams_are_reproducible_and_distinct():
    a = rng.task_rng(5, 0, 1).random(3)
    assert np.array_equal(a, rng.task_rng(5, 0, 1).random(3))
    assert not np.array_equal(a, rng.task_rng(5, 1, 0).random(3))
    assert not np.array_equal(a, rng.task_rng(6, 0, 1).random(3))


@pytest.mark.parametrize("bad", [-1, 2**63, 1.5, "3", True])
def test_bad_seeds_are_rejected(bad):
    with pytest.raises(ValueError, match="seed must be an integer"):
        rng.check_seed(bad)
