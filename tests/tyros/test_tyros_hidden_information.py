"""Policies read only what their player may see: other hands, the draw pile and the tile pile stay hidden."""

import numpy as np
import pytest
from tyros_positions import scrambled

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.policies import GreedyPolicy, PlannerPolicy
from tyrsim.games.tyros.rules import Rules


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
