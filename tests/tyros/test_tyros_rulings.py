"""Tyros rulings: every reading the rulebook leaves open is a marked rule, and each alternative plays."""

import numpy as np
import pytest
from tyros_positions import cards, scripted

from tyrsim.core.game import RandomPolicy
from tyrsim.core.runner import play
from tyrsim.games.tyros.actions import MoveShip
from tyrsim.games.tyros.components import ORANGE, YELLOW
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.policies import GreedyPolicy, PlannerPolicy
from tyrsim.games.tyros.rules import Rules

RULINGS = Rules.rulings()
ALTERNATIVES = [(name, value) for name, values in RULINGS.items() for value in values]


def test_every_reading_is_marked_with_its_alternatives():
    assert RULINGS == {
        "board": ("bundled:board_alt.toml", "bundled:board_east.toml"),
        "ships_pass_unclaimed": (False,),
        "ships_change_coast": (False,),
        "tyros_extends_empire": (False,),
        "tyros_counts_for_size": (False,),
        "ship_limit_on_build": (False,),
    }


@pytest.mark.parametrize("name, value", ALTERNATIVES)
@pytest.mark.parametrize("setup", ["first-game", "variable"])
def test_each_alternative_makes_valid_rules_and_plays_a_game_with_every_policy(name, value, setup):
    rules = Rules.from_overrides({name: value, "setup": setup})
    policies = [PlannerPolicy(), GreedyPolicy(), RandomPolicy(), PlannerPolicy()]
    record = play(TyrosGame(rules, 4), policies, np.random.default_rng(3))
    assert record.stats["rounds"] >= 1 and len(record.scores) == 4


# ---- the two coasts of the boot (16) ---------------------------------------------
CHIPS = {16: ORANGE, 17: YELLOW, 11: YELLOW}


def test_a_ship_may_go_round_the_toe_to_the_other_coast_of_16():
    # "The number of cards must equal the number of spaces moved": 16w-17-16e is two spaces
    state = scripted(hands={0: cards(orange=2)}, chips=CHIPS, ships={0: ["16w"]})
    assert MoveShip("16w", "16e") in state.legal_actions()
    state.apply(MoveShip("16w", "16e"))
    assert state.hands[0] == cards() and [state.game.labels[c] for c in state.ships[0]] == ["16e"]


def test_with_the_other_reading_a_move_must_end_in_another_space():
    rules = Rules(setup="first-game", ships_change_coast=False)
    state = scripted(hands={0: cards(orange=2, yellow=3)}, chips=CHIPS, ships={0: ["16w"]}, rules=rules)
    ends = {a.end for a in state.legal_actions() if isinstance(a, MoveShip)}
    assert "16e" not in ends
    assert {"17", "11"} <= ends  # going round the toe on the way elsewhere is still a move (16w-17-16e-11)


def test_changing_coast_respects_the_ship_limit_as_the_space_will_be():
    # three ships on 16 (built while the limit did not bind builds): a ship going round the toe
    # ends in a space with three ships, more than "at most 2 ships in a space"
    rules = Rules(setup="first-game", ship_limit_on_build=False)
    crowded = scripted(hands={0: cards(orange=2)}, chips=CHIPS, ships={0: ["16w"], 1: ["16w", "16e"]}, rules=rules)
    assert MoveShip("16w", "16e") not in crowded.legal_actions()
    # with two there (the mover and one other), the move ends with two: allowed
    pair = scripted(hands={0: cards(orange=2)}, chips=CHIPS, ships={0: ["16w"], 1: ["16e"]}, rules=rules)
    assert MoveShip("16w", "16e") in pair.legal_actions()
