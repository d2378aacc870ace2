"""Policies read only what their player may see: other hands, the draw pile and the tile pile stay hidden."""

import numpy as np
import pytest

from tyrsim.core.game import RandomPolicy
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.policies import GreedyPolicy, PlannerPolicy
from tyrsim.games.tyros.rules import Rules


def scrambled(state, player, rng):
    """A copy that differs from `state` only in what `player` cannot see (sizes of hands and piles kept)."""
    other = state.clone()
    pool = [k for p in range(other.n) if p != player for k in range(5) for _ in range(other.hands[p][k])]
    pool += [k for k in range(5) for _ in range(other.deck[k])]
    pool = list(rng.permutation(pool))
    for p in range(other.n):
        if p != player:
            size = sum(other.hands[p])
            other.hands[p] = [0] * 5
            for k in pool[:size]:
                other.hands[p][k] += 1
            pool = pool[size:]
    other.deck = [pool.count(k) for k in range(5)]
    tiles = other.tile_pile + [t for p in range(other.n) if p != player for t in other.tile_hands[p]]
    tiles = [int(t) for t in rng.permutation(tiles)]
    for p in range(other.n):
        if p != player:
            size = len(other.tile_hands[p])
            other.tile_hands[p], tiles = sorted(tiles[:size]), tiles[size:]
    other.tile_pile = tiles
    return other


# random: the legal actions themselves must not depend on what the player cannot see
@pytest.mark.parametrize("policy", [RandomPolicy(), GreedyPolicy(), PlannerPolicy()], ids=lambda p: p.name)
def test_policies_choose_the_same_whatever_the_hidden_cards_and_tiles(policy):
    game = TyrosGame(Rules(), 4)
    checked = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        while not state.is_terminal() and checked < 150 * (seed + 1):
            player = state.current_player()
            hidden = scrambled(state, player, np.random.default_rng(checked))
            assert hidden.view(player) == state.view(player)
            a = policy.choose(state, np.random.default_rng(checked))
            b = policy.choose(hidden, np.random.default_rng(checked))
            assert a == b, (state, a, b)
            checked += 1
            mover = policy if player == 0 else RandomPolicy()
            state.apply(mover.choose(state, rng))
    assert checked >= 300
