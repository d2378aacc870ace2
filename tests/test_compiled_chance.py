"""The guard to run before widening the numba or numpy range in pyproject.toml: the compiled engines draw their
chance with numpy's own sampling algorithms as numba compiles them (`tyrsim.core.compiled.chance`, reaching into
`numba.np.random`), so a compiled game and an object game from one generator see the same shuffles, dice and
choices only while those algorithms are numpy's. These tests compare every compiled draw with numpy's own on many
generators and sizes; each game's compiled-engine tests compare its own further draws (deals, multivariate
hypergeometric) the same way."""

from __future__ import annotations

import numpy as np
import pytest

from tyrsim.core.compiled import chance
from tyrsim.core.engine.rng import UNIFORM_BLOCK

SEEDS = range(40)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 16, 55, 100, 513])
def test_a_compiled_shuffle_draws_numpys_shuffle(n):
    for seed in SEEDS:
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        items = np.arange(n)
        chance.shuffle(ours.bit_generator, items, n)
        expected = np.arange(n)
        numpys.shuffle(expected)
        assert items.tolist() == expected.tolist(), (n, seed)
        assert ours.random() == numpys.random()  # the generators stand at the same place after


@pytest.mark.parametrize("n", [1, 2, 6, 7, 52, 1000, 2**31 + 11, 2**32 - 1])
def test_a_compiled_whole_number_draws_numpys_integers(n):
    for seed in SEEDS:
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        drawn = [int(chance.integers(ours.bit_generator, n)) for _ in range(25)]
        assert drawn == [int(numpys.integers(n)) for _ in range(25)], (n, seed)
        assert ours.random() == numpys.random()


def test_the_compiled_uniform_block_is_the_generators_own_doubles():
    work = np.zeros(1, chance.UNIFORM_FIELDS).view(np.recarray)[0]
    for seed in SEEDS:
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        work.uniforms_left, work.blocks_drawn = 0, 0
        drawn = [chance.uniform(ours.bit_generator, work) for _ in range(2 * UNIFORM_BLOCK + 3)]
        blocks = np.concatenate([numpys.random(UNIFORM_BLOCK)[::-1] for _ in range(3)])
        assert drawn == blocks[: len(drawn)].tolist()
        assert work.blocks_drawn == 3
