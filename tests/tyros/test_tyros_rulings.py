"""Tyros rulings: every reading the rulebook leaves open is a marked rule, and each alternative plays."""

import numpy as np
import pytest
from tyros_positions import cards, scripted
from tyros_reference import reference_actions

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import GameTooLong, play
from tyrsim.games.tyros.actions import Accept, BuildCity, MoveShip, Offer, Pass, Refuse
from tyrsim.games.tyros.board import TYROS, load_board
from tyrsim.games.tyros.components import GREEN, ORANGE, VIOLET, YELLOW
from tyrsim.games.tyros.expansion import _Expansion
from tyrsim.games.tyros.game import ACTIONS, TyrosGame, starting_empires
from tyrsim.games.tyros.policies import GreedyPolicy, IsmctsPolicy, PlannerPolicy
from tyrsim.games.tyros.rules import Rules, variable_setup_can_stall
from tyrsim.games.tyros.scoring import score_game

RULINGS = Rules.rulings()
ALTERNATIVES = [(name, value) for name, values in RULINGS.items() for value in values]


def test_every_reading_is_marked_with_its_alternatives():
    assert RULINGS == {
        "board": ("bundled:board_alt.toml", "bundled:board_east.toml"),
        "ships_pass_unclaimed": (False,),
        "ships_change_coast": (False,),
        "tyros_extends_empire": (False,),
        "tyros_counts_for_size": (False,),
        "ships_pass_crowded": (False,),
        "trade_offers": ("three-for-three",),
        "ship_limit_on_build": (False,),
        "trades_per_round": (0, 1),
        "start_both_beside_tyros": (False,),
        "first_city_bonus": ("each-empire",),
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


# ---- 31 and 32 both starting an empire (variable set-up) -----------------------------
BOARD = load_board()


def test_empires_may_start_on_both_sides_of_tyros_by_the_words():
    # "No two empires may begin on spaces that are adjacent horizontally or vertically": 31 and 32 are not
    starts, rest = starting_empires(BOARD, Rules(), [31, 32, 5, 10, 20, 24])
    assert starts == [32, 31, 10, 5] and sorted(rest) == [20, 24]
    state = TyrosGame(Rules(), 4).new_state(np.random.default_rng(0))
    state.chips = [-1] * BOARD.size
    for empire, space in enumerate(starts):
        state.place_chip(space, empire)
    # orange (the highest tile, 32) is placed first and takes Tyros ("This is also possible when establishing")
    assert state.chips[32] == ORANGE and state.chips[31] == YELLOW and state.chips[TYROS] == ORANGE


def test_with_the_other_reading_31_and_32_may_not_both_start():
    starts, rest = starting_empires(BOARD, Rules(start_both_beside_tyros=False), [31, 32, 5, 10, 20, 24])
    assert starts == [31, 20, 10, 5] and sorted(rest) == [24, 32]


@pytest.mark.parametrize("both", [True, False])
def test_the_kernel_sets_up_as_the_engine_does_beside_tyros(both):
    # the share of set-ups with empires on both 31 and 32: engine and vectorized kernel agree (4 standard
    # errors of the difference), and it is zero exactly when the reading forbids it
    rules = Rules(start_both_beside_tyros=both)
    rng = np.random.default_rng(5)
    engine = np.mean([{31, 32} <= set(starting_empires(BOARD, rules, list(rng.permutation(BOARD.tiles)))[0])
                      for _ in range(20_000)])
    kernel = _Expansion(BOARD, rules, 4, 50_000, np.random.default_rng(6))
    kernel.set_up()
    pair = np.uint64((1 << 31) | (1 << 32))
    share = np.mean(kernel.occupied & pair == pair)
    if both:
        se = np.sqrt(engine * (1 - engine) * (1 / 20_000 + 1 / 50_000))
        assert 0.005 < engine and abs(share - engine) < 4 * se
    else:
        assert engine == share == 0.0
    assert variable_setup_can_stall("", both) is None  # the bundled board never stalls under either reading


# ---- the first-city bonus: one for all four empires, or one per empire ------------------
CHIPS_FOUR = {7: ORANGE, 13: YELLOW, 23: GREEN, 26: VIOLET}


def test_the_first_city_bonus_per_empire_goes_to_each_empires_first_builder():
    # "The first player to build a city in each of the four empires receives 7 points", read per empire
    chips = [-1] * BOARD.size
    cities = [-1] * BOARD.size
    for space, colour in CHIPS_FOUR.items():
        chips[space] = colour
    cities[7], cities[13], cities[23] = 0, 1, 1  # violet has no city
    first = [0, 1, 1, -1]
    each = score_game(Rules(first_city_bonus="each-empire"), 3, chips, cities, [[], [], []], -1, first)
    assert [s.all_empires_bonus for s in each] == [7, 14, 0]
    # the bonus is a point in its empire (for the tie-break "most points in the largest empire")
    assert [s.per_empire for s in each] == [[12 + 7 + 7, 0, 0, 0], [0, 10 + 7 + 7, 9 + 7 + 7, 0], [0, 0, 0, 0]]
    one = score_game(Rules(), 3, chips, cities, [[], [], []], -1, first)
    assert [s.all_empires_bonus for s in one] == [0, 0, 0]


def test_the_engine_records_each_empires_first_city_and_scores_it_by_the_reading():
    for reading, bonus in (("all-four", 0), ("each-empire", 7)):
        rules = Rules(setup="first-game", first_city_bonus=reading)
        state = scripted(hands={0: cards(violet=5)}, chips=CHIPS_FOUR, ships={0: ["26"]}, rules=rules)
        state.apply(BuildCity(26))
        assert state.first_cities == [-1, -1, -1, 0]
        assert [s.all_empires_bonus for s in state.final_scores()] == [bonus, 0, 0, 0]


# ---- trades per round: a round ends only when all pass in a row ---------------------------
def offers(state):
    return [a for a in state.legal_actions() if isinstance(a, Offer)]


def test_a_player_who_has_made_its_trades_this_round_offers_no_more_but_still_answers():
    # default 3: player 0 has made two trades this round, and makes a third
    hands = {0: cards(orange=3), 1: cards(green=2, yellow=1), 2: cards(violet=2), 3: cards(yellow=2)}
    state = scripted(hands=hands, trades={0: 2})
    state.apply(Offer((ORANGE,), (GREEN,)))
    for answer in (Accept(), Refuse(), Refuse()):  # players 1, 2 and 3
        state.apply(answer)
    assert state.trades_this_round == [3, 0, 0, 0] and state.counters["trades_p0"] == 1
    # the others still offer; player 0 still answers (and a trade it accepts is not its own)
    assert state.current_player() == 1 and offers(state)
    state.apply(Offer((YELLOW,), (ORANGE,)))
    for answer in (Refuse(), Refuse(), Accept()):  # players 2, 3 and 0
        state.apply(answer)
    assert state.trades_this_round == [3, 1, 0, 0]
    assert state.current_player() == 2 and offers(state)
    state.apply(Pass())
    state.apply(Pass())
    # back to player 0, with cards of three kinds but no offer left; the reference agrees
    assert state.current_player() == 0 and state.hands[0] == cards(orange=1, yellow=1, green=1)
    actions = state.legal_actions()
    assert Pass() in actions and not offers(state)
    assert set(actions) == set(reference_actions(state))


def test_a_new_round_gives_every_player_its_trades_again():
    state = scripted(hands={0: cards(orange=3)}, trades={0: 3, 2: 1})
    assert not offers(state)
    for _ in range(4):
        state.apply(Pass())  # all pass in a row: the round ends
    while not (state.phase == ACTIONS and state.round == 2):  # keep cards, expand: the first choice each time
        state.apply(state.legal_actions()[0])
    assert state.trades_this_round == [0, 0, 0, 0] and offers(state)


def test_with_no_limit_offers_are_never_cut():
    unlimited = Rules(setup="first-game", trades_per_round=0)
    assert offers(scripted(hands={0: cards(orange=2)}, trades={0: 20}, rules=unlimited))
    one = Rules(setup="first-game", trades_per_round=1)
    assert offers(scripted(hands={0: cards(orange=2)}, rules=one))
    assert not offers(scripted(hands={0: cards(orange=2)}, trades={0: 1}, rules=one))
    assert offers(scripted(hands={0: cards(orange=2)}, trades={1: 1}, rules=one))  # the count is the player's


def test_clones_and_determinizations_keep_the_trades_made_this_round():
    state = scripted(hands={0: cards(orange=2)}, trades={0: 3, 1: 2})
    assert state.clone().trades_this_round == [3, 2, 0, 0]  # public: nothing to sample
    world = state.determinize(0, np.random.default_rng(1))
    assert world.trades_this_round == [3, 2, 0, 0] and not offers(world)
    world.trades_this_round[1] += 1
    assert state.trades_this_round == [3, 2, 0, 0]  # a copy, not the same list


@pytest.mark.exhaustive
def test_four_searching_players_end_the_round_they_swapped_cards_in_forever():
    """Four `ismcts` players (the default 1,000 iterations: 100 to 500 do not fall into it) from seed 3 swap
    violet for yellow back and forth in round 5 without end under the rulebook's letter (0: no limit); under
    the default ruling the game ends in about 340 decisions."""
    searchers = [IsmctsPolicy() for _ in range(4)]
    record = play(TyrosGame(Rules(), 4), searchers, np.random.default_rng(3))
    assert record.actions < 1_000 and record.stats["rounds"] == 5
    with pytest.raises(GameTooLong):
        play(TyrosGame(Rules(trades_per_round=0), 4), searchers, np.random.default_rng(3), max_actions=3_000)
