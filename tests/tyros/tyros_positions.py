"""Scripted Tyros positions for rule tests."""

import numpy as np

from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.components import CARD_KINDS
from tyrsim.games.tyros.game import ACTIONS, TyrosGame
from tyrsim.games.tyros.rules import Rules


def cards(**counts) -> list[int]:
    names = ("orange", "yellow", "green", "violet", "wild")
    return [counts.get(name, 0) for name in names]


def scripted(players=4, chips=None, ships=None, hands=None, cities=None, rules=None, seed=0, trades=None):
    """A first-game state in the card-action phase with player 0 to act.

    chips: {space: colour} (replaces the board's chips); ships: {player: [coast labels]};
    hands: {player: card counts}; cities: {space: owner}; trades: {player: trades made this round as the
    offering player} (none by default).
    """
    game = TyrosGame(rules or Rules(setup="first-game"), players)
    state = game.new_state(np.random.default_rng(seed))
    state.phase, state.actor, state.passes_in_row, state.offered = ACTIONS, 0, 0, False
    state.trades_this_round = [(trades or {}).get(p, 0) for p in range(players)]
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


def scrambled(state, player, rng):
    """A copy that differs from `state` only in what `player` cannot see: the other players' cards and the
    draw pile re-dealt, their tiles and the tile pile re-dealt and reordered, and a new chance generator.

    Hand and pile sizes stay, and so do the cards of a trade offer on the table (the offerer shows them, and
    those who accepted it show the cards asked for).
    """
    other = state.copy_with_chance(int(rng.integers(2**63)))
    shown = [[0] * CARD_KINDS for _ in range(other.n)]
    if state.offer is not None:
        accepted = [(p, state.offer.get) for p in state.offer.accepted]
        for holder, cards_shown in [(state.actor, state.offer.give), *accepted]:
            if holder != player:
                for k in cards_shown:
                    shown[holder][k] += 1
    pool = [k for p in range(other.n) if p != player for k in range(CARD_KINDS)
            for _ in range(other.hands[p][k] - shown[p][k])]
    pool += [k for k in range(CARD_KINDS) for _ in range(other.deck[k])]
    pool = list(rng.permutation(pool))
    for p in range(other.n):
        if p != player:
            size = sum(other.hands[p]) - sum(shown[p])
            other.hands[p] = shown[p]
            for k in pool[:size]:
                other.hands[p][k] += 1
            pool = pool[size:]
    other.deck = [pool.count(k) for k in range(CARD_KINDS)]
    tiles = other.tile_pile + [t for p in range(other.n) if p != player for t in other.tile_hands[p]]
    tiles = [int(t) for t in rng.permutation(tiles)]
    for p in range(other.n):
        if p != player:
            size = len(other.tile_hands[p])
            other.tile_hands[p], tiles = sorted(tiles[:size]), tiles[size:]
    other.tile_pile = tiles
    return other


def total_cards(state) -> int:
    return sum(state.deck) + sum(state.discard) + sum(sum(h) for h in state.hands)


__all__ = ["TYROS", "cards", "scrambled", "scripted", "total_cards"]
