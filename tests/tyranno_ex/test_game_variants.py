"""Tyranno Ex rule parameters and rulings that the rulebook leaves open, in scripted states."""

from __future__ import annotations

import numpy as np
from tyranno_positions import environment_phase, put

from tyrsim.core.engine.runner import play
from tyrsim.games.tyranno_ex.actions import KEEP_FIVE, NO_FIGHT, PASS, Challenge, ChooseSymbol, SetChips, UseFive
from tyrsim.games.tyranno_ex.board import TRACK, BoardCard
from tyrsim.games.tyranno_ex.cards import Card
from tyrsim.games.tyranno_ex.environment import Environment
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.policies import POLICIES
from tyrsim.games.tyranno_ex.rules import Rules

SUN, WATER, LEAF, BONE = range(4)


def scripted(rules: Rules | None = None, players: int = 4):
    state = make_game(rules or Rules(), players).new_state(np.random.default_rng(0))
    state.spots = [None] * len(state.spots)
    state.hands = [[3, 3, 3, 3] for _ in range(players)]
    state.env = Environment([SUN, WATER, LEAF, BONE])
    return state


def test_one_setting_changes_two_spaces():
    state = scripted()
    environment_phase(state)
    state.apply(SetChips(((BONE, 0), (BONE, 0))))  # space 0: 2 bone > 1 sun
    state.player = 0
    state.apply(SetChips(((LEAF, 1), (BONE, 2))))
    assert state.env.current == [BONE, WATER, LEAF, BONE]  # 1 potential chip does not beat 1 current chip
    state.player = 0
    state.apply(SetChips(((LEAF, 1), (BONE, 2))))  # now 2 against 1 on both spaces
    assert state.env.current == [BONE, LEAF, BONE, BONE]
    assert state.counters["changes"] == 3


def test_a_cascade_can_earn_a_strength_die():
    state = scripted()
    environment_phase(state)
    state.env = Environment([SUN, SUN, WATER, SUN], [12, 1, 1, 1])
    state.env.potential[0] = [0, 5, 4, 3]
    card = put(state, 0, (SUN, WATER, BONE), 0)
    state.apply(SetChips(((SUN, 0), (SUN, 0))))  # water 5, then leaf 4, then bone 3 take over
    assert state.env.current[0] == BONE and state.counters["cascades"] == 1
    assert card.die == 2  # bone arrived at the end of the cascade: sun, water and bone are all present


def test_any_change_ruling_rewards_already_complete_cards():
    for gain, expected in (("completed", None), ("any_change", 2)):
        state = scripted(Rules(die_gain=gain))
        environment_phase(state)
        complete = put(state, 0, (SUN, WATER, LEAF), 0)
        state.env.potential[3] = [0, 0, 0, 1]
        state.apply(SetChips(((BONE, 3),)))  # bone stays bone, but the space changed
        assert complete.die == expected


def test_tie_while_using_the_five_marker_returns_to_the_five_queue():
    state = scripted(Rules(majority_tie="chooser"))
    state.phase, state.player, state.start, state.move = "environment", 0, 0, 1
    state.end = 2
    state.limit = state._limit()
    for _ in range(4):
        state.apply(PASS)
    assert state.phase == "five" and state.current_player() == 1
    state.env.potential[0] = [0, 2, 0, 0]
    state.apply(UseFive(((LEAF, 0), (LEAF, 0))))  # water 2, leaf 2: tied
    assert state.phase == "tie" and state.current_player() == 1
    state.apply(ChooseSymbol(0, WATER))
    assert state.phase == "five" and state.current_player() == 2
    assert KEEP_FIVE in state.legal_actions()


def test_five_marker_on_own_turn_with_a_tie_goes_back_to_the_same_turn():
    state = scripted(Rules(five_timing="own_turn", majority_tie="chooser"))
    environment_phase(state)
    state.env.potential[0] = [0, 2, 0, 0]
    state.apply(UseFive(((LEAF, 0), (LEAF, 0))))
    assert state.phase == "tie"
    state.apply(ChooseSymbol(0, LEAF))
    assert state.phase == "environment" and state.current_player() == 0
    assert not any(isinstance(a, UseFive) for a in state.legal_actions())


def test_no_placement_once_end_is_off_the_track_with_after_track_none():
    state = scripted(Rules(after_track="none"))
    state.end = 7
    state.queue = []
    state._begin_environment()
    assert state.phase == "five"  # straight to the "5" marker decisions


def test_end_marker_moving_down():
    state = scripted(Rules(end_direction="down"))
    state.queue = []
    state.spots[0] = BoardCard(Card("A", (SUN, SUN, SUN)), 0, 0)
    state._end_of_round()
    assert state.end == 2


def test_two_fights_per_player():
    state = scripted(Rules(fights_per_player=2))
    for p in range(4):
        put(state, p * 4, (SUN, WATER, LEAF), p)
    state._begin_combat()
    seen = []
    while state.phase == "combat":
        seen.append(state.current_player())
        state.apply(NO_FIGHT)
    assert seen == [0, 1, 2, 3] * 2


def test_cards_on_the_special_spaces_may_be_kept_out_of_fights_and_survival():
    state = scripted(Rules(track_cards_fight=False, track_cards_need_survival=False))
    put(state, 0, (SUN, WATER, LEAF), 0)
    put(state, TRACK, (SUN, WATER, LEAF), 1)
    put(state, 4, (SUN, WATER, LEAF), 1)
    assert state._challenges(0, -1) == [Challenge(0, 4)]
    state.env = Environment([SUN, SUN, SUN, SUN])
    on_track = put(state, TRACK + 1, (BONE, BONE, BONE), 2)
    state.phase = "survival"
    state._begin_combat = lambda: None
    state._survival()
    assert state.spots[TRACK + 1] is on_track


def test_a_shorter_special_track():
    state = scripted(Rules(special_spaces=(13, 10)))
    assert len(state.spots) == TRACK + 3  # space 13 holds one card, space 10 up to two
    a = put(state, 3, (SUN, SUN, SUN), 0)
    for _ in range(3):
        state._shift()
    assert a.card in state.out


def test_no_double_shift_when_switched_off():
    state = scripted(Rules(double_shift=False))
    a = put(state, 0, (SUN, SUN, SUN), 0)
    state.piles[0] = []
    state.queue = []
    state._end_of_round()
    assert state.spots[1] is a and not state.double_last


def test_empty_space_bonus_can_be_changed():
    state = scripted(Rules(empty_space_bonus=0))
    put(state, 3, (SUN, SUN, SUN), 0)
    state._score()
    assert state.scores()[0] == 9


def test_three_player_game_runs_to_the_end_with_cards_set_aside():
    state = make_game(Rules(), 3).new_state(np.random.default_rng(8))
    rng = np.random.default_rng(9)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[int(rng.integers(len(actions)))])
    assert all(bc is None for c in range(3, 4) for bc in state.spots[c * 4:(c + 1) * 4])  # column 3 unused
    assert len(state.set_aside) == 4


def test_two_players_on_one_column_each_leave_two_columns_out():
    state = make_game(Rules(two_player_columns=1), 2).new_state(np.random.default_rng(0))
    assert state.column_owner == [0, 1, None, None] and state.used_columns == [0, 1]
    placed = []
    while state.phase == "place":
        action = state.legal_actions()[0]
        placed.append((state.current_player(), action.column))
        state.apply(action)
    assert placed == [(0, 0), (1, 1)] * 2  # the first round: two cards in each player's one column
    state = scripted(Rules(two_player_columns=1), players=2)
    for column in (0, 1):
        put(state, column * 4, (SUN, WATER, LEAF), column)
    assert state.empty_spaces(0) == 0  # the columns left out have no "empty spaces" ...
    state._begin_combat()
    seen = []
    while state.phase == "combat":
        seen.append(state.current_player())
        state.apply(NO_FIGHT)
    assert seen == [0, 1]  # one battle each
    state = scripted(Rules(two_player_columns=1, unused_column_empty=True), players=2)
    put(state, 0, (SUN, WATER, LEAF), 0)
    assert state.empty_spaces(0) == 3  # ... unless that ruling says so


def test_every_ruling_alternative_plays_whole_games_with_every_policy():
    policies = [POLICIES[name]() for name in ("greedy", "aggressive", "builder", "random")]
    rulings = Rules.rulings()
    assert {"special_space_holds", "majority_tie", "two_player_columns", "unused_column_empty"} <= set(rulings)
    for name, alternatives in rulings.items():
        for value in alternatives:
            rules = Rules.from_overrides({name: value})
            for players in (4, 3, 2):
                record = play(make_game(rules, players), policies[:players], np.random.default_rng(1))
                assert record.actions > 0 and len(record.scores) == players, (name, value, players)
