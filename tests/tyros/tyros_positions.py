"""Scripted Tyros positions for rule tests."""

import numpy as np

from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.components import CARD_KINDS
from tyrsim.games.tyros.game import ACTIONS, TyrosGame
from tyrsim.games.tyros.rules import Rules


def cards(**counts) -> list[int]:
    names = ("orange", "yellow", "green", "violet", "wild")
    return [counts.get(name, 0) for name in names]


def scripted(players=4, chips=None, ships=None, hands=None, cities=None, rules=None, seed=0):
    """A first-game state in the card-action phase with player 0 to act.

    chips: {space: colour} (replaces the board's chips); ships: {player: [coast labels]};
    hands: {player: card counts}; cities: {space: owner}.
    """
    game = TyrosGame(rules or Rules(setup="first-game"), players)
    state = game.new_state(np.random.default_rng(seed))
    state.phase, state.actor, state.passes_in_row, state.offered = ACTIONS, 0, 0, False
    if chips is not None:
        state.chips = [-1] * game.board.size
        for space, colour in chips.items():
            state.chips[space] = colour
    if ships is not None:
        state.ships = [[game.coast_ids[label] for label in ships.get(p, [])] for p in range(players)]
    if hands is not None:
        for p in range(players):
            hand = hands.get(p, [0] * CARD_KINDS)
            for kind in range(CARD_KINDS):
                state.deck[kind] += state.hands[p][kind] - hand[kind]
            state.hands[p] = list(hand)
    if cities is not None:
        for space, owner in cities.items():
            state.cities[space] = owner
    return state


def total_cards(state) -> int:
    return sum(state.deck) + sum(state.discard) + sum(sum(h) for h in state.hands)


__all__ = ["TYROS", "cards", "scripted", "total_cards"]
