"""Every ruling of Zooloretto Duell: marked with its alternatives, each a valid rule set that plays whole games."""

from __future__ import annotations

import numpy as np
import pytest

from tyrsim.core.engine.runner import play
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.game import ZooGame
from tyrsim.games.zooloretto_duell.rules import Rules

ALTERNATIVES = [(name, alt) for name, alts in Rules.rulings().items() for alt in alts]


def test_the_rulings_and_their_alternatives():
    assert Rules.rulings() == {
        "steal_triggers_symbols": (False,),
        "dispose_without_minus": (False,),
        "symbol_once": (True,),
        "one_square_per_turn": (True,),
        "symbol_before_scoring": (True,),
        "discard_pile_open": (True,),
        "discard_pile_memory": ("remember",),
        "symbols_file": ("bundled:symbols_two_each.toml",),
        "stands_file": ("bundled:stands_by_colour.toml",),
        "markers_file": ("bundled:markers_threes.toml",),
        "marker_order": ("printed",),
    }


@pytest.mark.parametrize(("name", "alternative"), ALTERNATIVES, ids=[name for name, _ in ALTERNATIVES])
def test_each_alternative_plays_whole_games_with_every_policy(name, alternative):
    rules = Rules.from_overrides({name: alternative})
    assert getattr(rules, name) == alternative and rules.differences() == {name: alternative}
    game = ZooGame(rules)
    # every policy once; mcts with few playouts to stay short
    names = [p if p != "mcts" else "mcts:playouts=3" for p in SPEC.policies]
    for seat0, seat1 in zip(names, names[1:] + names[:1], strict=True):
        record = play(game, [SPEC.make_policy(seat0), SPEC.make_policy(seat1)], np.random.default_rng(5))
        assert record.winners
