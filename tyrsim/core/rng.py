"""Seeding: one seed per run, one independent stream per task.

A task's stream is `SeedSequence(seed, spawn_key=key)`, where the key names the
task (sweep point, chunk of trials, ...). Results therefore never depend on how
many workers ran the tasks, in which order, or on which backend. Nothing in
tyrsim uses numpy's or Python's global random state.
"""

from __future__ import annotations

import numpy as np

MAX_SEED = 2**63 - 1


def check_seed(seed: int) -> int:
    """Return `seed` if it is a usable run seed, else raise ValueError."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an integer from 0 to {MAX_SEED}, got {seed!r}")
    return int(seed)


def task_seed(seed: int, *key: int) -> np.random.SeedSequence:
    """The seed sequence of the task named by `key` within the run `seed`."""
    return np.random.SeedSequence(check_seed(seed), spawn_key=tuple(int(k) for k in key))


def task_rng(seed: int, *key: int) -> np.random.Generator:
    """A generator for the task named by `key` within the run `seed`."""
    return np.random.default_rng(task_seed(seed, *key))
