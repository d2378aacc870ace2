"""Seeding: one seed per run, one independent stream per task.

A task's stream is `SeedSequence(seed, spawn_key=key)`, where the key names the
task (sweep point, chunk of trials, ...). Results therefore never depend on how
many workers ran the tasks, in which order, or on which backend. Nothing in
tyrsim uses numpy's or Python's global random state. A search's copies of a game
get their chance from `new_generator` (a determinization: drawn from the search's
generator) or `copy_generator` (a clone: the original's position), both cheaper
than seeding or deep-copying a generator.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable

import numpy as np
from numpy.random.bit_generator import ISeedSequence

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


# the spawn-key word that marks a trial's own stream (`trial_rng`) apart from the tasks' (point, chunk) streams
_TRIAL = 0x7472_6961  # "tria"


def trial_rng(task: np.random.Generator, *key: int) -> np.random.Generator:
    """A generator for the single trial named by `key`, the same in every task of the sweep point that
    the task generator `task` (made by `task_rng(seed, point, chunk)`) belongs to, whatever its chunk.

    Analyses that compare variants on common random numbers (the same games played under
    different rules) play trial k of every variant on `trial_rng(task, k)`: the variants then
    see the same deals and dice until a rule makes them differ, and the comparison can be paired.
    """
    seq = task.bit_generator.seed_seq
    if not isinstance(seq, np.random.SeedSequence) or len(seq.spawn_key) < 1:
        raise ValueError("trial_rng needs a task generator made by task_rng(seed, point, ...)")
    return np.random.default_rng(np.random.SeedSequence(seq.entropy, spawn_key=(seq.spawn_key[0], _TRIAL, *key)))


def game_streams(task: np.random.Generator, paired: bool) -> Callable[[int], np.random.Generator] | None:
    """Where games are `paired`, game g's own generator `trial_rng(task, g)` (the same game under any rules, and
    whatever task holds it); else None: the games draw one after another from `task`."""
    return (lambda g: trial_rng(task, g)) if paired else None


class _GivenWords(ISeedSequence):
    """A seed that hands a bit generator these state words as they are. Seeding through a SeedSequence
    hashes the seed (20-40 us a generator); a search makes a generator for every determinization, and
    its words come from a generator already."""

    __slots__ = ("words",)

    def __init__(self, words: np.ndarray) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: type = np.uint32) -> np.ndarray:
        if len(self.words) != n_words or self.words.dtype != dtype:  # PCG64 asks for 4 uint64 words
            raise ValueError(f"these seed words are {len(self.words)} {self.words.dtype}, not {n_words} {dtype}")
        return self.words


def new_generator(rng: np.random.Generator) -> np.random.Generator:
    """A new PCG64 generator whose state is drawn from `rng` (four 64-bit words): a determinization's own
    chance, cheaper than seeding one through a SeedSequence."""
    return np.random.Generator(np.random.PCG64(_GivenWords(rng.bit_generator.random_raw(4))))


def copy_generator(rng: np.random.Generator) -> np.random.Generator:
    """A generator at the same position as `rng` that draws independently of it from now on (a clone's),
    cheaper than `copy.deepcopy` for PCG64."""
    bits = rng.bit_generator
    if type(bits) is not np.random.PCG64:
        return copy.deepcopy(rng)
    new = np.random.PCG64(_GivenWords(np.zeros(4, np.uint64)))  # a placeholder state, replaced at once
    new.state = bits.state
    return np.random.Generator(new)


# how many uniform doubles `uniform` draws from a generator at once
UNIFORM_BLOCK = 128


class _Block(threading.local):
    """This thread's doubles drawn ahead from one generator: (generator, doubles)."""

    current: tuple[np.random.Generator | None, list[float] | tuple] = (None, ())


_block = _Block()


def uniform(rng: np.random.Generator) -> float:
    """One uniform double in [0, 1) from `rng`, like `rng.random()` but cheaper inside a loop.

    The doubles are drawn `UNIFORM_BLOCK` at a time: one numpy call per draw costs several
    times the Python around it in a game loop, one call per block a small part of it. A
    block belongs to one thread and one generator; whenever another generator asks, a new
    block is drawn from it. A chunk of games draws from its own generator in one thread,
    so the same seed gives the same games whatever the jobs, backend or threads (taking
    turns between generators in one thread stays reproducible but wastes the rest of each
    block). Draws through `uniform` run ahead of the generator's own position: code that
    also calls the generator directly gets other numbers than without blocks, as
    reproducibly.
    """
    owner, values = _block.current  # one read of the thread's block: each costs a dictionary lookup
    if owner is not rng or not values:
        values = rng.random(UNIFORM_BLOCK).tolist()
        _block.current = (rng, values)  # the generator is kept alive here: no other can take its identity
    return values.pop()


def held_doubles(rng: np.random.Generator) -> list[float]:
    """The doubles `uniform` holds for `rng`, drawn and not yet handed out (the next is the last), so that a
    compiled engine playing on from `rng` hands out the same ones."""
    owner, values = _block.current
    return list(values) if owner is rng else []


def hold_doubles(rng: np.random.Generator, values: list[float]) -> None:
    """Make `values` the doubles `uniform` holds for `rng` (what a compiled engine left of its block)."""
    _block.current = (rng, list(values))
