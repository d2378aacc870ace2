"""Chance in compiled engines, drawn as numpy draws it, so a compiled game and an object game from
the same generator see the same shuffles, dice and random choices.

Compiled code takes the generator's bit generator (`rng.bit_generator`: numba reads its draws
directly, a fifth cheaper a game than going through the Generator) and draws with numpy's own
algorithms as numba compiles them:
- `shuffle`: `Generator.shuffle` and `permutation`, from the top down, place i swapping with
  place `random_interval(i)`;
- `uniform`: `tyrsim.core.engine.rng.uniform`, the doubles `rng.random(UNIFORM_BLOCK)` gives, handed
  out from the end of the block; the block lives in the engine's work record, as the fields
  `uniforms` (UNIFORM_BLOCK float64) and `uniforms_left` (int64);
- `integers`: `Generator.integers(n)`, numpy's bounded draw (none when n is 1);
- `uniform_block`: one compiled call continuing the uniform block Python holds for a generator;
- `turn_loop_calls`: how a chunk's games are drawn, one after another from the task's generator
  or each from its own (paired games: the rulings and tune studies' common random numbers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from numba import njit
from numba.np.random.generator_core import next_double  # the bit generator's own doubles
from numba.np.random.random_methods import (  # numpy's own draws, compiled
    buffered_bounded_lemire_uint32,
    random_interval,
)

from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.engine.rng import UNIFORM_BLOCK, held_doubles, hold_doubles

keep_fresh(__file__)

# the work record's fields that hold the uniform block (`uniform`), and how many blocks it drew
UNIFORM_FIELDS = [("uniforms", np.float64, (UNIFORM_BLOCK,)), ("uniforms_left", np.int64), ("blocks_drawn", np.int64)]


@njit(cache=True)
def shuffle(bits, items, n) -> None:
    """Shuffle items[:n] as `Generator.shuffle` does (for an array or a list: the same draws)."""
    for i in range(n - 1, 0, -1):
        j = np.intp(random_interval(bits, i))
        items[i], items[j] = items[j], items[i]


@njit(cache=True)
def integers(bits, n) -> np.int64:
    """A whole number from 0 to n - 1 as `Generator.integers(n)` draws it (1 <= n < 2**32): numpy's buffered
    Lemire draw on the bit generator, and no draw at all when n is 1, as numpy returns at once."""
    if n == 1:
        return np.int64(0)
    return np.int64(buffered_bounded_lemire_uint32(bits, np.uint32(n - 1)))


@njit(cache=True)
def uniform(bits, work) -> float:
    """The next double of `tyrsim.core.engine.rng.uniform`'s block for this generator; a new block of
    UNIFORM_BLOCK (`rng.random(UNIFORM_BLOCK)`: the bit generator's next doubles) when it is used up."""
    if work.uniforms_left == 0:
        for k in range(UNIFORM_BLOCK):
            work.uniforms[k] = next_double(bits)
        work.uniforms_left = UNIFORM_BLOCK
        work.blocks_drawn += 1
    work.uniforms_left -= 1
    return work.uniforms[work.uniforms_left]



@contextmanager
def uniform_block(rng: np.random.Generator, work) -> Iterator[None]:
    """Around one compiled call drawing from `rng.bit_generator` with `work`'s uniform block (a work record with
    UNIFORM_FIELDS): the block continues the one `tyrsim.core.engine.rng.uniform` holds for `rng`, and what is left of
    it is handed back after, so that Python and compiled code drawing in turn from `rng` draw what Python alone
    would (a search called from the object engine, say)."""
    held = held_doubles(rng)
    for k, value in enumerate(held):
        work.uniforms[k] = value
    work.uniforms_left, work.blocks_drawn = len(held), 0
    yield
    if held or work.blocks_drawn:
        hold_doubles(rng, work.uniforms[:work.uniforms_left].tolist())


def turn_loop_calls(first: int, count: int, rng: np.random.Generator,
                    game_rng: Callable[[int], np.random.Generator] | None, workspace: np.ndarray):
    """The calls a chunk's compiled turn loop makes, as (first game, games, bit generator, rows of the chunk's
    records): one call for games drawing one after another from `rng`, the uniform block of `workspace` (a
    one-element work record array) continuing the one `tyrsim.core.engine.rng.uniform` holds for `rng` and handed back
    to it after (so that the next chunk from `rng`, compiled or not, draws what the object engine's would); or,
    for paired games (`game_rng`, as in `tyrsim.core.engine.runner.play_chunk`), one call per game g drawing from its
    own generator `game_rng(g)`, the block begun afresh, as `uniform` begins one for a new generator (and left,
    as `uniform` leaves it, with the last generator that drew one)."""
    if game_rng is None:
        with uniform_block(rng, workspace[0]):
            yield first, count, rng.bit_generator, slice(0, count)
        return
    work, last = workspace[0], None
    for g in range(count):
        work.uniforms_left, work.blocks_drawn = 0, 0
        own = game_rng(first + g)
        yield first + g, 1, own.bit_generator, slice(g, g + 1)
        if work.blocks_drawn:
            last = own, work.uniforms[:work.uniforms_left].tolist()
    if last is not None:
        hold_doubles(*last)
