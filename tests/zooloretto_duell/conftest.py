"""Scripted Zooloretto Duell positions: an empty table and a picker of named cards."""

from __future__ import annotations

import numpy as np
import pytest

from tyrsim.games.zooloretto_duell.cards import ANIMAL_SYMBOLS, COLOURS, SPECIES, STAND, STAND_SYMBOLS, Card
from tyrsim.games.zooloretto_duell.game import ZooGame, ZooState
from tyrsim.games.zooloretto_duell.rules import Rules


class Picker:
    """Hands out distinct physical cards by name: pick("bear", "heart"), pick("red", "drink")."""

    def __init__(self, game: ZooGame) -> None:
        self.free = [c for c in game.cards if not c.offspring and c.species >= STAND]

    def __call__(self, name: str, symbol: str = "") -> Card:
        for c in self.free:
            if c.species == STAND:
                match = name in COLOURS and COLOURS[c.colour] == name and STAND_SYMBOLS[c.symbol] == symbol
            else:
                match = SPECIES[c.species] == name and ANIMAL_SYMBOLS[c.symbol] == symbol
            if match:
                self.free.remove(c)
                return c
        raise LookupError(f"no free card {name} {symbol}")


def blank_state(game: ZooGame) -> ZooState:
    """Round 1, seat 0 to move, nothing on the table: empty draw pile, discard pile and zoos."""
    state = game.new_state(np.random.default_rng(0))
    state.pile = []
    state.discard = []
    state.final_card_aside = False
    return state


@pytest.fixture
def game() -> ZooGame:
    return ZooGame(Rules())


@pytest.fixture
def pick(game: ZooGame) -> Picker:
    return Picker(game)


@pytest.fixture
def state(game: ZooGame) -> ZooState:
    return blank_state(game)


@pytest.fixture
def table():
    """A factory: (blank state, card picker) for a game under other rules."""

    def make(rules: Rules) -> tuple[ZooState, Picker]:
        game = ZooGame(rules)
        return blank_state(game), Picker(game)

    return make
