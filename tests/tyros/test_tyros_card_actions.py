"""Card actions A-E: costs, legality and exceptions in scripted positions."""

from tyros_positions import TYROS, cards, scripted, total_cards

from tyrsim.games.tyros.actions import (
    Accept,
    BankBuy,
    BankSwap,
    BuildCity,
    BuildShip,
    MoveShip,
    Offer,
    Pass,
    Refuse,
    TradeWith,
)
from tyrsim.games.tyros.components import GREEN, ORANGE, VIOLET, WILD, YELLOW
from tyrsim.games.tyros.game import ACTIONS, OFFER, PARTNER
from tyrsim.games.tyros.rules import Rules

FIRST_GAME = {7: ORANGE, 13: YELLOW, 23: GREEN, 26: VIOLET}


def moves(state):
    return {a for a in state.legal_actions() if isinstance(a, MoveShip)}


# ---- A. move a ship ---------------------------------------------------------------
def test_move_costs_one_card_of_the_destination_colour_per_space():
    state = scripted(hands={0: cards(green=4)}, chips=FIRST_GAME, ships={0: ["tyros"]})
    assert MoveShip("tyros", "23") in moves(state)  # 4 spaces round the open sea
    state.apply(MoveShip("tyros", "23"))
    assert state.hands[0] == cards() and state.discard == cards(green=4)
    assert state.ship_spaces(0) == [23]


def test_wild_cards_count_as_any_colour_and_three_cards_are_too_few():
    assert MoveShip("tyros", "23") in moves(scripted(hands={0: cards(green=2, wild=2)}, chips=FIRST_GAME,
                                                      ships={0: ["tyros"]}))
    assert MoveShip("tyros", "23") not in moves(scripted(hands={0: cards(green=3, orange=5)}, chips=FIRST_GAME,
                                                          ships={0: ["tyros"]}))


def test_ships_move_only_to_spaces_with_an_empire_chip():
    state = scripted(hands={0: cards(green=9, orange=9, yellow=9, violet=9)}, chips=FIRST_GAME, ships={0: ["tyros"]})
    ends = {m.end for m in moves(state)}
    assert ends == {"7", "13", "23", "26"}  # Tyros itself has no chip yet


def test_passing_through_unclaimed_spaces_is_a_ruling():
    rules = Rules(setup="first-game", ships_pass_unclaimed=False)
    state = scripted(hands={0: cards(green=4)}, chips=FIRST_GAME, ships={0: ["tyros"]}, rules=rules)
    assert MoveShip("tyros", "23") not in moves(state)
    chips = {**FIRST_GAME, 31: GREEN, TYROS: GREEN, 27: GREEN, 22: GREEN}
    state = scripted(hands={0: cards(green=4)}, chips=chips, ships={0: ["tyros"]}, rules=rules)
    assert MoveShip("tyros", "23") in moves(state)


def test_at_most_two_ships_in_a_space_when_a_move_ends():
    state = scripted(hands={0: cards(green=9)}, chips=FIRST_GAME, ships={0: ["tyros"], 1: ["23"], 2: ["23"]})
    assert MoveShip("tyros", "23") not in moves(state)
    state = scripted(hands={0: cards(green=9)}, chips=FIRST_GAME, ships={0: ["tyros"], 1: ["23"]})
    assert MoveShip("tyros", "23") in moves(state)


def test_each_player_may_have_two_ships_in_tyros_while_it_has_no_city():
    chips = {**FIRST_GAME, 31: ORANGE, TYROS: ORANGE}
    ships = {0: ["tyros", "31"], 1: ["tyros", "tyros"], 2: ["tyros", "tyros"]}
    state = scripted(hands={0: cards(orange=3)}, chips=chips, ships=ships)
    assert MoveShip("31", "tyros") in moves(state)  # five ships end up in Tyros
    state = scripted(hands={0: cards(orange=3)}, chips=chips, ships={0: ["tyros", "tyros", "31"]})
    assert MoveShip("31", "tyros") not in moves(state)  # but not three of one player's
    state = scripted(hands={0: cards(orange=3)}, chips=chips, ships=ships, cities={TYROS: 3})
    assert MoveShip("31", "tyros") not in moves(state)  # with a city there the usual limit applies


def test_ending_in_another_players_city_costs_a_card_to_that_player():
    state = scripted(hands={0: cards(green=4, violet=2), 1: cards()}, chips=FIRST_GAME, ships={0: ["tyros"]},
                     cities={23: 1})
    state.apply(MoveShip("tyros", "23", VIOLET))
    assert state.hands[0] == cards(violet=1) and state.hands[1] == cards(violet=1)
    assert state.counters["tolls_paid_p0"] == 1


def test_the_player_chooses_the_toll_card():
    # "he must give that player any one of his commerce cards": any kind left after paying the move
    state = scripted(hands={0: cards(green=4, violet=2, wild=1), 1: cards()}, chips=FIRST_GAME,
                     ships={0: ["tyros"]}, cities={23: 1})
    into_the_city = {m for m in moves(state) if m.end == "23"}
    assert into_the_city == {MoveShip("tyros", "23", VIOLET), MoveShip("tyros", "23", WILD)}
    state.apply(MoveShip("tyros", "23", WILD))
    assert state.hands[0] == cards(violet=2) and state.hands[1] == cards(wild=1)
    # a toll is only owed in another player's city
    free = scripted(hands={0: cards(green=4, violet=2)}, chips=FIRST_GAME, ships={0: ["tyros"]}, cities={23: 0})
    assert {m for m in moves(free) if m.end == "23"} == {MoveShip("tyros", "23")}


def test_a_ship_passes_through_a_crowded_tyros_only_by_the_default_reading():
    # 31-Tyros-32 is two moves; without Tyros the way round is six, more than the two violet cards pay
    chips = {**FIRST_GAME, 31: VIOLET, 32: VIOLET, TYROS: VIOLET}
    crowded = {0: ["31"], 1: ["tyros", "tyros"], 2: ["tyros"]}  # three ships in Tyros, which has no city
    assert MoveShip("31", "32") in moves(scripted(hands={0: cards(violet=2)}, chips=chips, ships=crowded))
    # "A ship may move through a space with 1 or 2 ships already in it", read as a limit
    rules = Rules(setup="first-game", ships_pass_crowded=False)
    assert MoveShip("31", "32") not in moves(scripted(hands={0: cards(violet=2)}, chips=chips, ships=crowded,
                                                      rules=rules))
    two = {0: ["31"], 1: ["tyros", "tyros"]}
    assert MoveShip("31", "32") in moves(scripted(hands={0: cards(violet=2)}, chips=chips, ships=two, rules=rules))
    # a ship leaving Tyros does not pass through it
    assert MoveShip("tyros", "32") in moves(scripted(hands={0: cards(violet=1)}, chips=chips,
                                                     ships={0: ["tyros"], 1: ["tyros", "tyros"]}, rules=rules))


def test_the_boot_of_italy_has_two_coasts():
    chips = {16: ORANGE, 15: ORANGE, 11: ORANGE, 17: YELLOW}
    state = scripted(hands={0: cards(orange=9)}, chips=chips, ships={0: ["15"]})
    options = {m.end: m for m in moves(state)}
    assert "16w" in options and "16e" in options and "11" in options
    state.apply(MoveShip("15", "11"))
    assert state.hands[0] == cards(orange=5)  # 15-16-17-16-11: four moves


# ---- B. build a city ----------------------------------------------------------------
def test_city_needs_exclusive_control_and_five_cards_or_four_with_two_ships():
    state = scripted(hands={0: cards(green=4, wild=1)}, chips=FIRST_GAME, ships={0: ["23"], 1: ["23"]})
    assert BuildCity(23) not in state.legal_actions()
    state = scripted(hands={0: cards(green=4)}, chips=FIRST_GAME, ships={0: ["23"]})
    assert BuildCity(23) not in state.legal_actions()
    state = scripted(hands={0: cards(green=4, wild=1)}, chips=FIRST_GAME, ships={0: ["23"]})
    assert BuildCity(23) in state.legal_actions()
    state = scripted(hands={0: cards(green=4)}, chips=FIRST_GAME, ships={0: ["23", "23"]})
    state.apply(BuildCity(23))
    assert state.cities[23] == 0 and state.ship_spaces(0) == [23] and state.hands[0] == cards()


def test_one_city_per_space_and_the_first_city_in_all_four_empires():
    state = scripted(hands={0: cards(violet=5)}, chips=FIRST_GAME, ships={0: ["26"]}, cities={26: 0})
    assert BuildCity(26) not in state.legal_actions()
    state = scripted(hands={0: cards(violet=5)}, chips=FIRST_GAME, ships={0: ["26"]})
    state.city_colours[0] = {ORANGE, YELLOW, GREEN}
    state.apply(BuildCity(26))
    assert state.all_empires_first == 0


def test_city_markers_run_out():
    state = scripted(hands={0: cards(violet=5)}, chips=FIRST_GAME, ships={0: ["26"]},
                     rules=Rules(setup="first-game", cities_per_player=1), cities={7: 0})
    assert BuildCity(26) not in state.legal_actions()


# ---- C. build a ship ----------------------------------------------------------------
def test_ship_in_own_city_costs_one_card_or_two_with_one_matching():
    state = scripted(hands={0: cards(violet=1)}, chips=FIRST_GAME, ships={0: []}, cities={26: 0})
    assert BuildShip(26) in state.legal_actions()
    state.apply(BuildShip(26))
    assert state.ship_spaces(0) == [26] and state.hands[0] == cards()
    state = scripted(hands={0: cards(violet=1, orange=1)}, chips=FIRST_GAME, ships={1: ["26"]}, cities={26: 0})
    builds = [a for a in state.legal_actions() if isinstance(a, BuildShip) and a.space == 26]
    assert builds == [BuildShip(26, (ORANGE,))]
    state = scripted(hands={0: cards(orange=2)}, chips=FIRST_GAME, ships={1: ["26"]}, cities={26: 0})
    assert not [a for a in state.legal_actions() if isinstance(a, BuildShip) and a.space == 26]


def test_no_ship_in_another_players_city():
    state = scripted(hands={0: cards(violet=3)}, chips=FIRST_GAME, ships={0: []}, cities={26: 1})
    assert not [a for a in state.legal_actions() if isinstance(a, BuildShip) and a.space == 26]


def test_ships_built_on_the_boot_start_on_the_west_coast():
    state = scripted(hands={0: cards(orange=1)}, chips={16: ORANGE}, ships={0: []}, cities={16: 0})
    state.apply(BuildShip(16))
    assert state.game.labels[state.ships[0][0]] == "16w"


def test_ship_in_tyros_costs_the_ships_there_plus_one_in_any_colours():
    ships = {0: ["tyros"], 1: ["tyros", "tyros"]}
    state = scripted(hands={0: cards(orange=2, yellow=1, wild=1)}, chips=FIRST_GAME, ships=ships)
    assert BuildShip(TYROS, (ORANGE, ORANGE, YELLOW, WILD)) in state.legal_actions()
    state.apply(BuildShip(TYROS, (ORANGE, ORANGE, YELLOW, WILD)))
    assert sum(state.hands[0]) == 0 and state.ships_at(TYROS)[0] == 2
    poor = scripted(hands={0: cards(orange=3)}, chips=FIRST_GAME, ships=ships)
    assert not [a for a in poor.legal_actions() if isinstance(a, BuildShip)]


def test_the_player_chooses_the_cards_for_a_ship_in_tyros():
    # "The cards may be of any colour(s)": every choice of two cards (one ship there, plus one)
    state = scripted(hands={0: cards(orange=3, yellow=1, wild=1)}, chips=FIRST_GAME, ships={0: ["tyros"]})
    builds = {a for a in state.legal_actions() if isinstance(a, BuildShip)}
    assert builds == {BuildShip(TYROS, paid) for paid in
                      ((ORANGE, ORANGE), (ORANGE, YELLOW), (ORANGE, WILD), (YELLOW, WILD))}
    state.apply(BuildShip(TYROS, (YELLOW, WILD)))
    assert state.hands[0] == cards(orange=3) and state.discard == cards(yellow=1, wild=1)


def test_after_a_city_in_tyros_only_its_owner_builds_there():
    chips = {**FIRST_GAME, 31: ORANGE, TYROS: ORANGE}
    other = scripted(hands={0: cards(orange=5)}, chips=chips, ships={0: []}, cities={TYROS: 1})
    assert not [a for a in other.legal_actions() if isinstance(a, BuildShip)]
    owner = scripted(hands={0: cards(orange=1)}, chips=chips, ships={0: []}, cities={TYROS: 0})
    assert BuildShip(TYROS) in owner.legal_actions()


def test_ship_supply_runs_out():
    state = scripted(hands={0: cards(orange=5)}, chips=FIRST_GAME, ships={0: ["tyros"] * 2},
                     rules=Rules(setup="first-game", ships_per_player=2))
    assert not [a for a in state.legal_actions() if isinstance(a, BuildShip)]


# ---- D. trade with the bank -------------------------------------------------------------
def test_bank_swap_draws_as_many_cards_as_discarded():
    state = scripted(hands={0: cards(orange=3)})
    before = total_cards(state)
    state.apply(BankSwap((ORANGE, ORANGE, ORANGE)))
    assert sum(state.hands[0]) == 3 and state.discard == cards(orange=3) and total_cards(state) == before


def test_bank_swap_needs_the_draw_pile_and_is_never_reshuffled():
    state = scripted(hands={0: cards(orange=3)})
    state.discard = [a + b for a, b in zip(state.discard, state.deck, strict=True)]
    state.deck = [0, 0, 0, 0, 1]
    swaps = [a for a in state.legal_actions() if isinstance(a, BankSwap)]
    assert swaps == [BankSwap((ORANGE,))]


def test_bank_buy_takes_a_card_of_choice_from_the_discard_pile():
    state = scripted(hands={0: cards(orange=3)})
    assert not [a for a in state.legal_actions() if isinstance(a, BankBuy)]  # the discard pile is empty
    state.discard = cards(wild=1)
    state.deck[WILD] -= 1
    assert [a for a in state.legal_actions() if isinstance(a, BankBuy)] == [BankBuy((0, 0, 0), WILD)]
    state.apply(BankBuy((0, 0, 0), WILD))
    assert state.hands[0] == cards(wild=1) and state.discard == cards(orange=3)


# ---- E. trade with another player -------------------------------------------------------
def test_an_accepted_offer_trades_and_ends_the_turn():
    state = scripted(hands={0: cards(orange=2), 1: cards(), 2: cards(green=1)})
    state.apply(Offer((ORANGE, ORANGE), (GREEN,)))
    assert state.phase == OFFER and state.current_player() == 1
    assert state.legal_actions() == [Refuse()]  # player 1 has no green
    state.apply(Refuse())
    assert state.current_player() == 2 and Accept() in state.legal_actions()
    state.apply(Accept())
    assert state.current_player() == 3  # "Any number of players may be asked": the last one too
    state.apply(Refuse())
    assert state.hands[0] == cards(green=1) and state.hands[2] == cards(orange=2)
    assert state.phase == ACTIONS and state.current_player() == 1


def test_the_offering_player_chooses_among_those_who_accept():
    # "Any number of players may be asked, but only one player may be traded with"
    state = scripted(hands={0: cards(orange=2), 1: cards(green=1), 2: cards(), 3: cards(green=2)})
    state.apply(Offer((ORANGE,), (GREEN,)))
    state.apply(Accept())
    state.apply(Refuse())
    state.apply(Accept())
    assert state.phase == PARTNER and state.current_player() == 0
    assert state.legal_actions() == [TradeWith(1), TradeWith(3)]
    state.apply(TradeWith(3))
    assert state.hands[0] == cards(orange=1, green=1) and state.hands[3] == cards(orange=1, green=1)
    assert state.hands[1] == cards(green=1) and state.phase == ACTIONS and state.current_player() == 1


def test_wider_offers_are_a_ruling():
    # "any number of cards may be traded, even unequal numbers": one to three of a kind for one to three
    state = scripted(hands={0: cards(orange=3)})
    offered = {a for a in state.legal_actions() if isinstance(a, Offer)}
    assert offered == {Offer((ORANGE,) * n, (kind,)) for n in (1, 2) for kind in (YELLOW, GREEN, VIOLET, WILD)}
    wide = scripted(hands={0: cards(orange=3)}, rules=Rules(setup="first-game", trade_offers="three-for-three"))
    offered = {a for a in wide.legal_actions() if isinstance(a, Offer)}
    assert offered == {Offer((ORANGE,) * n, (kind,) * m) for n in (1, 2, 3) for m in (1, 2, 3)
                       for kind in (YELLOW, GREEN, VIOLET, WILD)}


def test_a_refused_offer_lets_the_player_act_otherwise_but_not_offer_again():
    state = scripted(hands={0: cards(orange=2), 1: cards(green=1)})
    state.apply(Offer((ORANGE,), (GREEN,)))
    for _ in range(3):
        state.apply(Refuse())
    assert state.phase == ACTIONS and state.current_player() == 0
    actions = state.legal_actions()
    assert Pass() in actions and not [a for a in actions if isinstance(a, Offer)]
    state.apply(Pass())
    assert state.current_player() == 1 and [a for a in state.legal_actions() if isinstance(a, Offer)]


def test_without_the_build_limit_a_ship_costs_one_card_more_per_ship_there():
    rules = Rules(setup="first-game", ship_limit_on_build=False)
    state = scripted(hands={0: cards(violet=1, orange=2)}, chips=FIRST_GAME, ships={0: ["26"], 1: ["26"]},
                     cities={26: 0}, rules=rules)
    builds = [a for a in state.legal_actions() if isinstance(a, BuildShip) and a.space == 26]
    assert builds == [BuildShip(26, (ORANGE, ORANGE))]  # the rule summary: plus one card per ship there
    choice = scripted(hands={0: cards(violet=1, orange=2, yellow=1)}, chips=FIRST_GAME, ships={0: ["26"], 1: ["26"]},
                      cities={26: 0}, rules=rules)
    builds = {a for a in choice.legal_actions() if isinstance(a, BuildShip) and a.space == 26}
    assert builds == {BuildShip(26, (ORANGE, ORANGE)), BuildShip(26, (ORANGE, YELLOW))}  # the player's choice
    limited = scripted(hands={0: cards(violet=1, orange=2)}, chips=FIRST_GAME, ships={0: ["26"], 1: ["26"]},
                       cities={26: 0})
    assert not [a for a in limited.legal_actions() if isinstance(a, BuildShip) and a.space == 26]


def test_a_city_on_the_boot_sends_the_east_coast_ship_home():
    state = scripted(hands={0: cards(orange=4)}, chips={16: ORANGE}, ships={0: ["16w", "16e"]})
    state.apply(BuildCity(16))
    assert [state.game.labels[c] for c in state.ships[0]] == ["16w"]


def test_moving_between_the_coasts_of_the_boot_costs_two_cards():
    state = scripted(hands={0: cards(orange=2)}, chips={16: ORANGE, 17: YELLOW}, ships={0: ["16w"]})
    assert MoveShip("16w", "16e") in moves(state)
    state.apply(MoveShip("16w", "16e"))
    assert state.hands[0] == cards()


def test_no_toll_when_the_hand_is_empty_after_the_move():
    state = scripted(hands={0: cards(green=4), 1: cards()}, chips=FIRST_GAME, ships={0: ["tyros"]}, cities={23: 1})
    state.apply(MoveShip("tyros", "23"))
    assert state.hands[1] == cards() and state.counters["tolls_paid_p0"] == 0


def test_a_pass_does_not_stop_a_later_action():
    state = scripted(hands={0: cards(green=4), 3: cards(orange=1)}, chips=FIRST_GAME, ships={0: ["tyros"]})
    for _ in range(3):
        state.apply(Pass())  # players 0, 1 and 2 pass
    state.apply(BankSwap((ORANGE,)))  # player 3 acts, so the passes no longer run in a row
    assert state.current_player() == 0 and MoveShip("tyros", "23") in moves(state)
    state.apply(MoveShip("tyros", "23"))
    assert state.ship_spaces(0) == [23]


def test_a_third_ship_of_ones_own_cannot_be_built_in_tyros():
    ships = {0: ["tyros", "tyros"], 1: ["tyros"]}
    state = scripted(hands={0: cards(orange=5)}, chips=FIRST_GAME, ships=ships)
    assert not [a for a in state.legal_actions() if isinstance(a, BuildShip)]  # the Tyros exception: two each
    state = scripted(hands={0: cards(orange=5)}, chips=FIRST_GAME, ships={0: ["tyros"], 1: ["tyros", "tyros"]})
    assert BuildShip(TYROS, (ORANGE,) * 4) in state.legal_actions()  # others' ships there only raise the cost
    unlimited = scripted(hands={0: cards(orange=5)}, chips=FIRST_GAME, ships=ships,
                         rules=Rules(setup="first-game", ship_limit_on_build=False))
    unlimited.apply(BuildShip(TYROS, (ORANGE,) * 4))
    assert unlimited.ships_at(TYROS)[0] == 3 and sum(unlimited.hands[0]) == 1  # four cards for the fourth ship
