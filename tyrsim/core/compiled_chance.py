"""Chance in compiled engines, drawn as numpy draws it, so a compiled game and an object game from
the same generator see the same shuffles, dice and random choices.

Compiled code takes the generator's bit generator (`rng.bit_generator`: numba reads its draws
directly, a fifth cheaper a game than going through the Generator) and draws with numpy's own
algorithms as numba compiles them:
- `shuffle`: `Generator.shuffle` and `permutation`, from the top down, place i swapping with
  place `random_interval(i)`;
- `uniform`: `tyrsim.core.rng.uniform`, the doubles `rng.random(UNIFORM_BLOCK)` gives, handed
  out from the end of the block; the block lives in the engine's work record, as the fields
  `uniforms` (UNIFORM_BLOCK float64) and `uniforms_left` (int64).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.np.random.generator_core import next_double  # the bit generator's own doubles
from numba.np.random.random_methods import random_interval  # numpy's random_interval, compiled

from tyrsim.core.numba_cache import keep_fresh
from tyrsim.core.rng import UNIFORM_BLOCK

keep_fresh(__file__)

# the work record's fields that hold the uniform block (`uniform`)
UNIFORM_FIELDS = [("uniforms", np.float64, (UNIFORM_BLOCK,)), ("uniforms_left", np.int64)]


@njit(cache=True)
def shuffle(bits, items, n) -> None:
    """Shuffle items[:n] as `Generator.shuffle` does (for an array or a list: the same draws)."""
    for i in range(n - 1, 0, -1):
        j = np.intp(random_interval(bits, i))
        items[i], items[j] = items[j], items[i]


@njit(cache=True)
def uniform(bits, work) -> float:
    """The next double of `tyrsim.core.rng.uniform`'s block for this generator; a new block of
    UNIFORM_BLOCK (`rng.random(UNIFORM_BLOCK)`: the bit generator's next doubles) when it is used up."""
    if work.uniforms_left == 0:
        for k in range(UNIFORM_BLOCK):
            work.uniforms[k] = next_double(bits)
        work.uniforms_left = UNIFORM_BLOCK
    work.uniforms_left -= 1
    return work.uniforms[work.uniforms_left]

