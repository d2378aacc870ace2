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
        "trade_guard": ("no-repeat", "none", "1-a-round", "3-a-round"),
        "tyros_chip": ("latest-replaces",),
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


# ---- Tyros's empire chip ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("reading, colour", [("first-keeps", ORANGE), ("latest-replaces", YELLOW)])
def test_a_later_empire_reaching_tyros_keeps_or_replaces_its_chip(reading, colour):
    # "If an empire chip is placed on space 31 or 32, adjacent to Tyros, then immediately put an empire chip of
    # the same colour on Tyros": orange reached Tyros from 32; yellow now reaches 31
    rules = Rules(setup="first-game", tyros_chip=reading)
    state = scripted(chips={32: ORANGE, TYROS: ORANGE, 27: YELLOW}, rules=rules)
    state.place_chip(31, YELLOW)
    assert state.chips[TYROS] == colour
    assert state.chips.count(ORANGE) == (2 if colour == ORANGE else 1)  # a replaced chip goes back to the box
    state.place_chip(28, ORANGE)  # not next to Tyros: nothing changes
    assert state.chips[TYROS] == colour


# ---- the trade guard (a simulation guard): a round ends only when all pass in a row ---------------------------
def offers(state):
    return [a for a in state.legal_actions() if isinstance(a, Offer)]


def trade(state, offer, partner):
    """The player to act offers `offer` and trades with `partner` (every other player is asked in seat order)."""
    offerer = state.current_player()
    state.apply(offer)
    while state.phase == "offer":
        state.apply(Accept() if state.current_player() == partner else Refuse())
    assert state.current_player() == (offerer + 1) % state.n


NO_REPEAT = Rules(setup="first-game", trade_guard="no-repeat")


def test_the_guard_is_marked_a_simulation_guard_and_binds_only_repetition():
    assert Rules.of_kind("guard") == ["trade_guard"] and Rules().trade_guard == "no-repeated-hands"
    # player 0 has made five trades this round (the old cap of 3 cut its offers) and still offers
    state = scripted(hands={0: cards(orange=2)}, trades={0: 5})
    assert offers(state) and Rules().trade_cap() == 0


def test_a_trade_may_be_made_again_but_not_bring_back_hands_held_since_the_last_other_card_action():
    hands = {0: cards(orange=3, yellow=1), 1: cards(green=3, orange=1), 2: cards(), 3: cards()}
    state = scripted(hands=hands)
    trade(state, Offer((ORANGE,), (GREEN,)), partner=1)
    for _ in range(3):
        state.apply(Pass())  # a pass is no card action: the hands held so far are still remembered
    trade(state, Offer((ORANGE,), (GREEN,)), partner=1)  # the same trade again: new hands, so allowed
    state.apply(Offer((ORANGE,), (GREEN,)))  # player 1 undoing the second trade: the hands after the first
    for _ in range(2):
        state.apply(Refuse())  # players 2 and 3 (no green)
    assert state.current_player() == 0 and state.legal_actions() == [Refuse()]
    assert set(state.legal_actions()) == set(reference_actions(state))
    state.apply(Refuse())
    # round in a circle: 0 gave orange for green twice, gives yellow for orange, and orange for yellow would
    # bring back the hands after the second trade
    for _ in range(3):
        state.apply(Pass())  # players 1 (its offer refused), 2 and 3
    assert state.hands[0] == cards(orange=1, yellow=1, green=2)
    trade(state, Offer((YELLOW,), (ORANGE,)), partner=1)  # new hands
    for _ in range(3):
        state.apply(Pass())
    state.apply(Offer((ORANGE,), (YELLOW,)))
    assert state.current_player() == 1 and state.legal_actions() == [Refuse()]  # back to before: barred
    assert set(state.legal_actions()) == set(reference_actions(state))
    for _ in range(3):
        state.apply(Refuse())
    # a card action other than a trade: the hands before it are forgotten
    state.apply(next(a for a in state.legal_actions() if type(a).__name__ == "BankSwap"))
    assert state.changes_seen == [state.no_change()]


def test_no_trade_repeats_or_undoes_one_the_same_two_players_made_this_round():
    hands = {0: cards(orange=2, green=1), 1: cards(green=2, orange=1), 2: cards(green=1), 3: cards(green=1)}
    state = scripted(hands=hands, rules=NO_REPEAT)
    trade(state, Offer((ORANGE,), (GREEN,)), partner=1)  # 0 gives orange to 1 for green
    for _ in range(3):
        state.apply(Pass())  # players 1-3 pass: back to player 0
    # the same trade again: player 1 may only refuse; the others may still take it
    state.apply(Offer((ORANGE,), (GREEN,)))
    assert state.legal_actions() == [Refuse()]
    state.apply(Refuse())
    assert state.legal_actions() == [Accept(), Refuse()]
    assert set(state.legal_actions()) == set(reference_actions(state))
    state.apply(Accept())
    state.apply(Refuse())
    assert state.hands[2] == cards(orange=1) and state.current_player() == 1
    # player 1 undoing the first trade (giving orange back for green) may not trade it with player 0
    state.apply(Offer((ORANGE,), (GREEN,)))
    assert state.legal_actions() == [Refuse()]  # player 2, who has no green left
    state.apply(Refuse())
    assert state.legal_actions() == [Accept(), Refuse()]  # player 3
    state.apply(Refuse())
    assert state.current_player() == 0 and state.legal_actions() == [Refuse()]  # the undoing trade
    assert set(state.legal_actions()) == set(reference_actions(state))
    # under the rulebook's letter (no guard) player 0 could take it
    state.game = TyrosGame(Rules(setup="first-game", trade_guard="none"), 4)
    assert state.legal_actions() == [Accept(), Refuse()]


def test_an_offer_nobody_could_take_without_repeating_is_not_made():
    hands = {0: cards(orange=4), 1: cards(green=2), 2: cards(green=2)}
    state = scripted(players=3, hands=hands, rules=NO_REPEAT)
    trade(state, Offer((ORANGE,), (GREEN,)), partner=1)
    state.apply(Pass())
    state.apply(Pass())
    trade(state, Offer((ORANGE,), (GREEN,)), partner=2)
    state.apply(Pass())
    state.apply(Pass())
    listed = offers(state)
    assert Offer((ORANGE,), (GREEN,)) not in listed and Offer((GREEN,), (ORANGE,)) not in listed
    assert Offer((ORANGE, ORANGE), (GREEN,)) in listed and Offer((ORANGE,), (YELLOW,)) in listed  # new trades
    assert set(state.legal_actions()) == set(reference_actions(state))


def test_a_new_round_forgets_the_trades_made():
    hands = {0: cards(orange=2), 1: cards(green=2)}
    state = scripted(hands=hands, trades={0: 3, 2: 1}, rules=NO_REPEAT)
    trade(state, Offer((ORANGE,), (GREEN,)), partner=1)
    assert state.trades_made == {(0, 1, (ORANGE,), (GREEN,)), (1, 0, (GREEN,), (ORANGE,))}
    for _ in range(4):
        state.apply(Pass())  # all pass in a row: the round ends
    while not (state.phase == ACTIONS and state.round == 2):  # keep cards, expand: the first choice each time
        state.apply(state.legal_actions()[0])
    assert state.trades_this_round == [0, 0, 0, 0] and state.trades_made == set() and offers(state)
    assert state.changes_seen == [state.no_change()]


def test_the_caps_and_no_guard_are_the_alternatives():
    unlimited = Rules(setup="first-game", trade_guard="none")
    assert offers(scripted(hands={0: cards(orange=2)}, trades={0: 20}, rules=unlimited))
    one = Rules(setup="first-game", trade_guard="1-a-round")
    assert offers(scripted(hands={0: cards(orange=2)}, rules=one))
    assert not offers(scripted(hands={0: cards(orange=2)}, trades={0: 1}, rules=one))
    assert offers(scripted(hands={0: cards(orange=2)}, trades={1: 1}, rules=one))  # the count is the player's
    three = Rules(setup="first-game", trade_guard="3-a-round")
    assert offers(scripted(hands={0: cards(orange=2)}, trades={0: 2}, rules=three))
    assert not offers(scripted(hands={0: cards(orange=2)}, trades={0: 3}, rules=three))


def test_a_capped_player_offers_no_more_but_still_answers():
    hands = {0: cards(orange=3), 1: cards(green=2, yellow=1), 2: cards(violet=2), 3: cards(yellow=2)}
    state = scripted(hands=hands, trades={0: 2}, rules=Rules(setup="first-game", trade_guard="3-a-round"))
    trade(state, Offer((ORANGE,), (GREEN,)), partner=1)
    assert state.trades_this_round == [3, 0, 0, 0] and state.counters["trades_p0"] == 1
    trade(state, Offer((YELLOW,), (ORANGE,)), partner=0)  # player 0 still answers
    assert state.trades_this_round == [3, 1, 0, 0]
    state.apply(Pass())
    state.apply(Pass())
    assert state.current_player() == 0 and Pass() in state.legal_actions() and not offers(state)
    assert set(state.legal_actions()) == set(reference_actions(state))


def test_clones_and_determinizations_keep_the_trades_made_this_round():
    state = scripted(players=3, hands={0: cards(orange=2), 1: cards(green=2), 2: cards(green=2)})
    trade(state, Offer((ORANGE,), (GREEN,)), partner=1)
    state.apply(Pass())
    state.apply(Pass())
    trade(state, Offer((ORANGE,), (GREEN,)), partner=2)
    made, changes = set(state.trades_made), list(state.changes_seen)
    assert len(changes) == 3 and state.clone().trades_made == made  # public: nothing to sample
    world = state.determinize(1, np.random.default_rng(1))
    assert world.trades_made == made and world.trades_this_round == state.trades_this_round
    assert world.changes_seen == changes  # what the trades moved, not the hidden hands
    world.trades_made.clear()
    world.changes_seen.clear()
    assert state.trades_made == made and state.changes_seen == changes  # copies


@pytest.mark.exhaustive
def test_four_searching_players_end_the_round_they_swapped_cards_in_forever():
    """Four `ismcts` players (the default 1,000 iterations: 100 to 500 do not fall into it) from seed 3 swap
    violet for yellow back and forth in round 5 without end under the rulebook's letter (no guard); under the
    default guard the game ends."""
    searchers = [IsmctsPolicy() for _ in range(4)]
    record = play(TyrosGame(Rules(), 4), searchers, np.random.default_rng(3))
    assert record.actions < 1_000 and record.stats["rounds"] >= 5
    with pytest.raises(GameTooLong):
        play(TyrosGame(Rules(trade_guard="none"), 4), searchers, np.random.default_rng(3), max_actions=3_000)
