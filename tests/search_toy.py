"""A small game with hidden information written twice, as a Python State and as compiled functions, to check
the compiled search (`tyrsim.core.compiled.search`) against the Python one (`tyrsim.core.engine.search`).

Draw race: a shuffled deck of the cards 1..8, face down. In turn each player draws the top card (adding
it to their total) or stops for good; a total over LIMIT busts (scores 0, and stops). The game ends when
both have stopped; the higher score wins, a tie is shared. Everyone sees the cards drawn, so what remains
is known, its order is not: a determinization shuffles the rest of the deck.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tyrsim.core.compiled.chance import UNIFORM_FIELDS, shuffle, uniform
from tyrsim.core.compiled.numba_cache import keep_fresh

keep_fresh(__file__)

CARDS, LIMIT, DRAW, STOP = 8, 12, 0, 1


class DrawRace:
    def __init__(self, rng: np.random.Generator):
        self.deck = list(rng.permutation(np.arange(1, CARDS + 1)))  # the top card is the last
        self.totals, self.stopped, self.mover = [0, 0], [False, False], 0

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.mover

    def legal_actions(self) -> list[int]:
        return [DRAW, STOP] if self.deck else [STOP]

    def apply(self, action: int) -> None:
        p = self.mover
        if action == DRAW:
            self.totals[p] += int(self.deck.pop())
            self.stopped[p] = self.totals[p] > LIMIT
        else:
            self.stopped[p] = True
        if not self.stopped[1 - p]:
            self.mover = 1 - p

    def is_terminal(self) -> bool:
        return all(self.stopped)

    def scores(self) -> list[float]:
        return [float(t) if t <= LIMIT else 0.0 for t in self.totals]

    def winners(self) -> list[int]:
        s = self.scores()
        return [p for p in range(2) if s[p] == max(s)]

    def clone(self) -> DrawRace:
        other = object.__new__(DrawRace)
        other.deck, other.totals, other.stopped, other.mover = list(self.deck), list(self.totals), \
            list(self.stopped), self.mover
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> DrawRace:
        world = self.clone()
        rng.shuffle(world.deck)
        return world


# the compiled game: a position is one record
POSITION = np.dtype([("deck", np.int64, (CARDS,)), ("size", np.int64), ("totals", np.int64, (2,)),
                     ("stopped", np.int64, (2,)), ("mover", np.int64)])
WORK = np.dtype([("actions", np.int64, (2,)), *UNIFORM_FIELDS])


def position_of(state: DrawRace) -> np.ndarray:
    pos = np.zeros(1, POSITION).view(np.recarray)
    pos[0]["deck"][:len(state.deck)] = state.deck
    pos[0]["size"], pos[0]["totals"], pos[0]["stopped"], pos[0]["mover"] = (len(state.deck), state.totals,
                                                                               state.stopped, state.mover)
    return pos


def new_position() -> np.recarray:
    return np.zeros(1, POSITION).view(np.recarray)


@njit(cache=True)
def determinize(real, world, rules, observer, bits) -> None:
    world[0] = real[0]
    shuffle(bits, world[0].deck, world[0].size)


@njit(cache=True)
def legal_actions(world, rules, work) -> np.int64:
    if world[0].size:
        work.actions[0], work.actions[1] = DRAW, STOP
        return np.int64(2)
    work.actions[0] = STOP
    return np.int64(1)


@njit(cache=True)
def action_key(work, i) -> np.int64:
    return work.actions[i]


@njit(cache=True)
def apply_action(world, rules, work, i, bits) -> None:
    pos = world[0]
    p = pos.mover
    if work.actions[i] == DRAW:
        pos.size -= 1
        pos.totals[p] += pos.deck[pos.size]
        pos.stopped[p] = pos.totals[p] > LIMIT
    else:
        pos.stopped[p] = 1
    if not pos.stopped[1 - p]:
        pos.mover = 1 - p


@njit(cache=True)
def is_over(world) -> bool:
    return world[0].stopped[0] and world[0].stopped[1]


@njit(cache=True)
def to_move(world) -> np.int64:
    return world[0].mover


@njit(cache=True)
def final_values(world, rules, work, out) -> None:
    s0 = world[0].totals[0] if world[0].totals[0] <= LIMIT else 0
    s1 = world[0].totals[1] if world[0].totals[1] <= LIMIT else 0
    if s0 == s1:
        out[0] = out[1] = 0.5
    else:
        out[0], out[1] = (1.0, 0.0) if s0 > s1 else (0.0, 1.0)


@njit(cache=True)
def even(world, rules, work, out) -> None:
    out[0] = out[1] = 0.5


@njit(cache=True)
def random_rollout(world, rules, bits, work, n) -> np.int64:
    return np.int64(uniform(bits, work) * n)

