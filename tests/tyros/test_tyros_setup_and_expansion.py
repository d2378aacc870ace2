"""Set-up, the Tyros chip rule, expansion passes, blocked hands, round and game end."""

import numpy as np
import pytest
from tyros_positions import cards, scripted

from tyrsim.games.tyros.actions import Blocked, Keep, Pass, PlayTile
from tyrsim.games.tyros.board import TYROS, load_board
from tyrsim.games.tyros.components import GREEN, ORANGE, VIOLET, YELLOW
from tyrsim.games.tyros.game import ACTIONS, EXPAND, KEEP, OVER, TyrosGame, starting_empires
from tyrsim.games.tyros.rules import Rules

BOARD = load_board()


def test_first_game_setup():
    state = TyrosGame(Rules(setup="first-game"), 4).new_state(np.random.default_rng(1))
    assert [state.chips[s] for s in (7, 13, 23, 26)] == [ORANGE, YELLOW, GREEN, VIOLET]
    assert sum(c >= 0 for c in state.chips) == 4
    tiles = sorted(state.tile_pile + [t for hand in state.tile_hands for t in hand])
    assert tiles == sorted(set(BOARD.tiles) - {7, 13, 23, 26})  # 25 tiles; the start tiles go back in the box
    assert all(len(hand) == 4 for hand in state.tile_hands)
    tyros = BOARD.space_coasts[TYROS][0]
    assert all(ships == [tyros, tyros] for ships in state.ships)
    assert all(sum(hand) == 10 for hand in state.hands)


def test_three_players_are_dealt_twelve_cards():
    state = TyrosGame(Rules(), 3).new_state(np.random.default_rng(1))
    assert [sum(h) for h in state.hands] == [12, 12, 12]
    assert sum(state.deck) == 60 - 36


def test_variable_setup_redraws_adjacent_tiles_and_colours_by_number():
    # 12 and 4 neighbour 8, so they are replaced (and go under the pile); 17, 20 and 30 stand
    starts, rest = starting_empires(BOARD, Rules(), [8, 12, 4, 30, 20, 17, 5, 6])
    assert starts == [30, 20, 17, 8]  # orange highest, then yellow, green, violet
    assert sorted(rest) == [4, 5, 6, 12]




def test_variable_setup_in_many_games_is_pairwise_non_adjacent():
    game = TyrosGame(Rules(setup="variable"), 4)
    for seed in range(30):
        state = game.new_state(np.random.default_rng(seed))
        spaces = [s for s in BOARD.tiles if state.chips[s] >= 0]
        assert len(spaces) == 4
        assert all(not BOARD.land[a] & set(spaces) for a in spaces)
        by_colour = sorted(spaces, key=lambda s: state.chips[s])
        assert by_colour == sorted(spaces, reverse=True)


def test_tyros_chip_at_setup():
    game = TyrosGame(Rules(setup="variable"), 4)
    for seed in range(200):
        state = game.new_state(np.random.default_rng(seed))
        if state.chips[31] >= 0 or state.chips[32] >= 0:
            # the higher tile's empire is placed first (orange first), so it takes Tyros
            assert state.chips[TYROS] == (state.chips[32] if state.chips[32] >= 0 else state.chips[31])
            break
    else:
        pytest.fail("no set-up on 31 or 32 in 200 games")


def expanding(players=4, hands=None, chips=None):
    state = scripted(players, chips=chips)
    state.phase, state.turn, state.expansion_pass, state.round, state.start_player = EXPAND, 0, 0, 1, 0
    if hands is not None:
        state.tile_hands = [list(h) for h in hands]
    return state


def test_a_tile_next_to_two_empires_may_extend_either():
    state = expanding(hands=[[22, 5, 6, 9], [4], [4], [4]], chips={17: ORANGE, 27: GREEN, 23: VIOLET})
    plays = state.legal_actions()
    assert set(plays) == {PlayTile(22, ORANGE), PlayTile(22, GREEN), PlayTile(22, VIOLET)}


def test_playing_a_tile_places_a_chip_and_draws():
    state = expanding(hands=[[22, 5, 6, 9], [4], [4], [4]], chips={17: ORANGE})
    top = state.tile_pile[0]
    state.apply(PlayTile(22, ORANGE))
    assert state.chips[22] == ORANGE
    assert sorted(state.tile_hands[0]) == sorted([5, 6, 9, top])
    assert state.current_player() == 1


def test_tyros_chip_rule_during_play_and_first_colour_stays():
    state = expanding(hands=[[32], [31], [4], [4]], chips={28: YELLOW, 27: VIOLET})
    state.apply(PlayTile(32, YELLOW))
    assert state.chips[TYROS] == YELLOW
    state.apply(PlayTile(31, VIOLET))
    assert state.chips[31] == VIOLET and state.chips[TYROS] == YELLOW


def test_tyros_chip_extends_its_empire_to_the_other_side():
    state = expanding(hands=[[31], [4], [4], [4]], chips={28: YELLOW, 32: YELLOW, TYROS: YELLOW})
    assert state.legal_actions() == [PlayTile(31, YELLOW)]
    ruled = scripted(4, chips={28: YELLOW, 32: YELLOW, TYROS: YELLOW}, rules=Rules(tyros_extends_empire=False))
    ruled.phase, ruled.turn, ruled.expansion_pass, ruled.round = EXPAND, 0, 0, 1
    ruled.tile_hands = [[31], [4], [4], [4]]
    assert ruled.legal_actions() == [Blocked(31)]


def test_blocked_hand_puts_a_tile_under_the_pile_and_draws():
    state = expanding(hands=[[4, 5], [4], [4], [4]], chips={30: ORANGE})
    assert set(state.legal_actions()) == {Blocked(4), Blocked(5)}
    pile = list(state.tile_pile)
    state.apply(Blocked(5))
    assert state.tile_pile == pile[1:] + [5]
    assert sorted(state.tile_hands[0]) == sorted([4, pile[0]])
    assert state.counters["blocked_p0"] == 1 and state.current_player() == 1


def count_tile_turns(players, rounds):
    game = TyrosGame(Rules(setup="first-game"), players)
    state = game.new_state(np.random.default_rng(3))
    turns = []
    for _ in range(rounds):
        n = 0
        while state.phase == EXPAND:
            state.apply(state.legal_actions()[0])
            n += 1
        turns.append(n)
        while state.phase != EXPAND:
            actions = state.legal_actions()
            state.apply(Pass() if Pass() in actions else actions[0])
    return turns


def test_four_players_expand_twice_only_in_the_first_round():
    assert count_tile_turns(4, 3) == [8, 4, 4]


def test_three_players_always_expand_twice():
    assert count_tile_turns(3, 3) == [6, 6, 6]


def test_card_actions_end_when_all_pass_in_a_row_and_the_token_moves():
    state = scripted(4, hands={p: cards(orange=2) for p in range(4)})
    state.apply(Pass())
    state.apply(Pass())
    state.apply(state.legal_actions()[1])  # player 2 acts: the passes start again
    for _ in range(3):
        state.apply(Pass())
    assert state.phase == ACTIONS
    state.apply(Pass())
    assert state.phase == EXPAND and state.round == 2 and state.start_player == 1
    assert state.current_player() == 1


def test_end_of_round_keeps_at_most_three_cards():
    state = scripted(4, hands={0: cards(orange=4, wild=1), 1: cards(green=2)})
    for _ in range(4):
        state.apply(Pass())
    assert state.phase == KEEP and state.current_player() == 0
    assert Keep((0, 0, 4)) in state.legal_actions() and all(len(a.cards) == 3 for a in state.legal_actions())
    state.apply(Keep((0, 0, 4)))
    assert sum(state.hands[0]) == 3 + 10  # the kept cards plus the new deal
    assert state.hands[0][0] >= 2 and state.hands[0][4] >= 1
    assert sum(state.hands[1]) == 2 + 10  # two cards kept without choosing


def test_game_ends_after_the_round_in_which_a_player_runs_out_of_tiles():
    state = scripted(4, hands={p: cards() for p in range(4)})
    state.tile_hands[2] = []
    state.apply(Pass())
    assert state.phase == ACTIONS  # the round is played out
    for _ in range(3):
        state.apply(Pass())
    assert state.phase == OVER and state.is_terminal() and state.current_player() == -1


def test_a_player_without_tiles_is_skipped_in_expansion():
    state = expanding(hands=[[], [22], [22], [22]], chips={17: ORANGE})
    assert state.current_player() == 0  # skipping happens when a turn moves on
    state.skip_empty_hands()
    assert state.current_player() == 1


def test_an_empire_without_chips_left_cannot_grow():
    rules = Rules(setup="first-game", chips_per_empire=2)
    state = TyrosGame(rules, 4).new_state(np.random.default_rng(0))
    state.phase, state.turn, state.expansion_pass = EXPAND, 0, 0
    state.chips[17], state.chips[22] = ORANGE, ORANGE
    state.chips[7] = -1  # orange now has its two chips on 17 and 22
    state.tile_hands = [[12, 4], [21], [21], [21]]
    assert state.chips_left(ORANGE) == 0
    assert state.legal_actions() == [Blocked(12), Blocked(4)]


def test_a_game_whose_tiles_can_never_be_played_ends():
    rules = Rules(setup="first-game", chips_per_empire=1)  # no empire can ever grow
    game = TyrosGame(rules, 4, tiles_only=True)
    state = game.new_state(np.random.default_rng(0))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.round == 1 and all(len(hand) == 4 for hand in state.tile_hands)
    assert sum(c >= 0 for c in state.chips) == 4
