"""Each Zooloretto Duell rule in a scripted position."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from tyrsim.games.zooloretto_duell.actions import (
    DISPOSE,
    DRAW,
    QUIT_EMPTY,
    Connect,
    DiscardDrawn,
    DisposeMinus,
    Donate,
    Steal,
    TakeTruck,
)
from tyrsim.games.zooloretto_duell.cards import FINAL_ROUND, SPECIES
from tyrsim.games.zooloretto_duell.game import COUNTERS, DONATION, OVER, PLACE
from tyrsim.games.zooloretto_duell.rules import Rules

BEAR, TIGER, HYENA = SPECIES.index("bear"), SPECIES.index("tiger"), SPECIES.index("hyena")
GORILLA, BISON, ANTELOPE = SPECIES.index("gorilla"), SPECIES.index("bison"), SPECIES.index("antelope")


def take(state, truck):
    """Take `truck` with its cards in the order they lie."""
    state.apply(TakeTruck(truck, tuple(state.trucks[truck])))


# --- set-up ------------------------------------------------------------------------------------


def test_set_up(game):
    state = game.new_state(np.random.default_rng(3))
    assert len(state.discard) == 1 and state.discard[0].species != FINAL_ROUND
    assert len(state.pile) == 57 - 1 + 1  # animals and stands, one turned up, plus the final-round card
    assert state.pile[5] is game.final_card  # above the last 5 cards (the bottom is index 0)
    assert state.coins == [1, 1] and state.minus == [0, 0]
    assert [len(t) for t in state.trucks] == [0, 0, 0] and state.capacities == (1, 2, 2)
    assert [m.points for m in state.markers[:4]] == [4, 3, 3, 2] and not state.final_marker_aside
    assert state.current_player() == 0 and state.legal_actions() == [DRAW]


# --- action A: trucks --------------------------------------------------------------------------


def test_truck_capacity(state, pick):
    state.pile = [pick("gorilla"), pick("bison")]
    state.trucks = [[pick("bear")], [pick("tiger"), pick("hyena")], [pick("antelope")]]
    state.apply(DRAW)
    assert state.phase == PLACE
    # the small truck and the first big truck are full: only truck 3 takes the card
    assert state.legal_actions() == [Connect(state.drawn, 2)]
    state.apply(state.legal_actions()[0])
    assert len(state.trucks[2]) == 2
    # every truck full: drawing is not allowed, taking a truck is
    actions = state.legal_actions()
    assert DRAW not in actions and all(isinstance(a, TakeTruck) for a in actions)


def test_empty_trucks_of_one_size_are_one_choice(state, pick):
    state.pile = [pick("gorilla")]
    state.apply(DRAW)
    assert [a.truck for a in state.legal_actions()] == [0, 1]


def test_cannot_take_an_empty_truck(state, pick):
    state.pile = [pick("gorilla")]
    state.trucks[1] = [pick("bear")]
    takes = [a for a in state.legal_actions() if isinstance(a, TakeTruck)]
    assert [a.truck for a in takes] == [1]


# --- action B: quitting, round end, who starts ---------------------------------------------------


def test_quitting_and_round_end(state, pick):
    state.pile = [pick("gorilla"), pick("gorilla"), pick("gorilla")]
    state.trucks = [[pick("bear")], [pick("tiger")], [pick("hyena", "lightning")]]
    take(state, 0)  # seat 0 quits
    assert len(state.pens[0][BEAR]) == 1 and state.to_move == 1
    state.apply(DRAW)
    state.apply(Connect(state.drawn, 1))
    assert state.to_move == 1  # seat 1 keeps acting alone
    state.apply(DRAW)
    state.apply(Connect(state.drawn, 2))
    take(state, 1)  # seat 1 quits: the round ends
    assert len(state.pens[1][TIGER]) == 1 and len(state.pens[1][GORILLA]) == 1
    assert state.rounds == 2
    assert [SPECIES[c.species] for c in state.discard] == ["hyena", "gorilla"]  # the third truck's cards
    assert all(not t for t in state.trucks)
    assert state.to_move == 1  # the player who took a truck last begins
    assert state.taken == [None, None]


def test_a_taken_truck_leaves_the_middle_until_the_round_ends(state, pick):
    """The rulebook: take a truck "and put it in front of you"; it returns to the middle at the round's end."""
    state.pile = [pick("gorilla"), pick("gorilla"), pick("gorilla")]
    state.trucks = [[pick("bear")], [pick("tiger"), pick("tiger", "lightning")], [pick("hyena")]]
    take(state, 0)  # seat 0 puts the small truck in front of them
    assert state.to_move == 1
    assert all(a.truck != 0 for a in state.legal_actions() if isinstance(a, TakeTruck))
    state.apply(DRAW)
    assert [a.truck for a in state.legal_actions()] == [2]  # truck 1 is gone, truck 2 is full
    state.apply(Connect(state.drawn, 2))
    # the two trucks in the middle are full: seat 1 can no longer draw, only take one
    actions = state.legal_actions()
    assert DRAW not in actions and {a.truck for a in actions} == {1, 2}
    take(state, 2)  # the round ends; every truck is back in the middle
    assert state.rounds == 2 and state.to_move == 1
    state.apply(DRAW)
    assert [a.truck for a in state.legal_actions()] == [0, 1]


def test_truck_cards_in_any_order(state, pick):
    state.pile = [pick("gorilla")]
    state.trucks[1] = [pick("bear"), pick("red", "drink")]
    orders = [a.cards for a in state.legal_actions() if isinstance(a, TakeTruck)]
    assert len(orders) == 2 and orders[0] == tuple(reversed(orders[1]))
    state.trucks[2] = [pick("hyena"), pick("hyena")]  # interchangeable cards: one order
    assert sum(1 for a in state.legal_actions() if isinstance(a, TakeTruck) and a.truck == 2) == 1


def test_a_bigger_truck_offers_every_distinct_order(table):
    """A designer's 3-place truck: "You may play these cards in any order" gives all 3! orders of 3 different
    cards (the order they came first), and one order per distinct sequence when two are interchangeable."""
    state, pick = table(Rules(truck_places=(1, 2, 3)))
    state.pile = [pick("gorilla")]
    cards = (pick("bear"), pick("red", "drink"), pick("tiger", "square"))
    state.trucks[2] = list(cards)
    orders = [a.cards for a in state.legal_actions() if isinstance(a, TakeTruck)]
    assert orders[0] == cards and len(orders) == 6 and set(orders) == set(permutations(cards))
    state.trucks[2] = [pick("hyena"), pick("bear"), pick("hyena")]  # two interchangeable hyenas: 3 orders
    kinds = [tuple(c.kind for c in a.cards) for a in state.legal_actions() if isinstance(a, TakeTruck)]
    assert len(kinds) == len(set(kinds)) == 3
    assert {k.index(state.trucks[2][1].kind) for k in kinds} == {0, 1, 2}  # the bear first, second or last


# --- action C: money -----------------------------------------------------------------------------


def test_steal_costs_two_coins_and_never_takes_a_stand(state, pick):
    state.pile = [pick("gorilla")]
    state.trucks[0] = [pick("gorilla")]
    state.pens[1][BEAR] = [pick("bear")]
    state.stands[1] = [pick("red", "drink")]
    assert not any(isinstance(a, Steal) for a in state.legal_actions())  # 1 coin only
    state.coins[0] = 2
    steals = [a for a in state.legal_actions() if isinstance(a, Steal)]
    assert [SPECIES[a.card.species] for a in steals] == ["bear"]
    state.apply(steals[0])
    assert state.coins[0] == 0 and len(state.pens[0][BEAR]) == 1 and not state.pens[1][BEAR]
    assert state.to_move == 1


def test_dispose_of_minus_points(state, pick):
    state.pile = [pick("gorilla")]
    state.coins[0] = 1
    state.minus[0] = 3
    assert DISPOSE not in state.legal_actions()  # "If you have less than 2 coins ... you cannot choose this action"
    state.coins[0] = 3
    assert DISPOSE in state.legal_actions()
    state.apply(DisposeMinus())
    assert state.minus[0] == 0 and state.coins[0] == 1 and state.to_move == 1


def test_money_action_two_asks_only_for_the_coins_by_default(state, pick):
    """Rule `dispose_without_minus`, default the letter: the 2 coins are the action's only precondition, so a
    player holding no minus point may still pay for it (the game's only paid pass)."""
    assert Rules().dispose_without_minus is True
    state.pile = [pick("gorilla")]
    state.coins[0] = 2
    assert state.minus[0] == 0 and DISPOSE in state.legal_actions()


@pytest.mark.parametrize("offered", [False, True])
def test_disposing_with_no_minus_points_only_when_ruled_so(table, offered):
    """Rule `dispose_without_minus`: with none to return, money action II is a paid pass or not offered."""
    state, pick = table(Rules(dispose_without_minus=offered))
    state.pile = [pick("gorilla")]
    state.coins[0] = 3
    assert (DISPOSE in state.legal_actions()) is offered
    if offered:
        state.apply(DISPOSE)
        assert state.minus[0] == 0 and state.coins[0] == 1 and state.to_move == 1
        assert state.counts[0][COUNTERS.index("disposals")] == 1
        assert state.counts[0][COUNTERS.index("minus_disposed")] == 0


# --- symbols -------------------------------------------------------------------------------------


def test_lightning(state, pick):
    state.trucks[1] = [pick("bison", "lightning"), pick("bison", "lightning")]
    take(state, 1)
    assert state.minus[0] == 1 and len(state.pens[0][BISON]) == 2


def test_heart_takes_the_offspring_once(state, pick, game):
    state.trucks[1] = [pick("bear", "heart"), pick("bear", "heart")]
    take(state, 1)
    assert game.offspring[BEAR] in state.pens[0][BEAR] and state.offspring[BEAR] is None
    assert len(state.pens[0][BEAR]) == 3  # the offspring counts as a normal bear
    state.offspring[TIGER] = None  # the tiger offspring is already gone
    state.trucks[2] = [pick("tiger", "heart"), pick("tiger", "heart")]
    take(state, 2)
    assert len(state.pens[1][TIGER]) == 2 and state.counts[1][COUNTERS.index("heart_wasted")] == 1


def test_square_takes_a_card_from_the_discard_pile(state, pick):
    gorilla, stand = pick("gorilla"), pick("blue", "pretzel")
    state.discard = [gorilla, stand]
    state.trucks[1] = [pick("antelope", "square"), pick("antelope", "square")]
    take(state, 1)
    assert state.to_move == 0 and set(state.legal_actions()) == {Donate(gorilla), Donate(stand)}
    state.apply(Donate(stand))
    assert state.stands[0] == [stand] and state.discard == [gorilla] and state.to_move == 1


def test_square_with_an_empty_discard_pile_is_wasted(state, pick):
    state.trucks[1] = [pick("antelope", "square"), pick("antelope", "square")]
    take(state, 1)
    assert state.to_move == 1 and len(state.pens[0][ANTELOPE]) == 2


def test_square_chain_wastes_a_further_square(state, pick):
    tiger = pick("tiger", "square")
    state.discard = [tiger]
    state.pens[0][TIGER] = [pick("tiger", "square")]
    state.trucks[1] = [pick("hyena", "square"), pick("hyena", "square")]
    take(state, 1)
    state.apply(Donate(tiger))  # a second square tiger: its square goes to waste
    assert state.to_move == 1 and state.counts[0][COUNTERS.index("square_wasted")] == 1


def test_square_chain_carries_out_a_different_symbol(state, pick, game):
    hearted = pick("tiger", "heart")
    state.discard = [hearted, pick("gorilla")]
    state.pens[0][TIGER] = [pick("tiger", "heart")]
    state.trucks[1] = [pick("hyena", "square"), pick("hyena", "square")]
    take(state, 1)
    state.apply(Donate(hearted))
    assert game.offspring[TIGER] in state.pens[0][TIGER]


def test_a_second_square_of_the_truck_fires_unless_one_square_per_turn(table):
    for one_per_turn in (False, True):
        state, pick = table(Rules(one_square_per_turn=one_per_turn))
        state.pens[0][ANTELOPE], state.pens[0][TIGER] = [pick("antelope", "square")], [pick("tiger", "square")]
        gorilla = pick("gorilla")
        state.discard = [gorilla, pick("bison")]
        state.trucks[1] = [pick("antelope", "square"), pick("tiger", "square")]
        take(state, 1)
        assert state.phase == DONATION  # the truck's first square
        state.apply(Donate(gorilla))
        # the truck's second square: a donation by the ruling, wasted under the other reading
        assert (state.phase == DONATION) is not one_per_turn
        assert state.counts[0][COUNTERS.index("square_wasted")] == one_per_turn
        assert state.square_fired is not one_per_turn  # the turn is over once wasted


def test_square_before_the_rest_of_the_truck(state, pick):
    square_b, other = pick("antelope", "square"), pick("bear")
    state.pens[0][ANTELOPE] = [pick("antelope", "square")]
    state.discard = [pick("gorilla")]
    state.trucks[1] = [square_b, other]
    state.apply(TakeTruck(1, (square_b, other)))
    assert state.phase == DONATION and state.to_move == 0 and state.queue == [other]
    state.apply(state.legal_actions()[0])
    assert other in state.pens[0][BEAR] and state.to_move == 1


def test_third_symbol_is_discarded_for_a_minus_point(tmp_path, table):
    # the bundled data has 2 cards per symbol and species; a designer's file with 3 lightning hyenas
    symbols = tmp_path / "symbols.toml"
    symbols.write_text("[gorilla]\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\nlightning = 3\n")
    state, pick = table(Rules(symbols_file=str(symbols)))
    third = pick("hyena", "lightning")
    state.pens[0][HYENA] = [pick("hyena", "lightning"), pick("hyena", "lightning")]
    state.trucks[0] = [third]
    take(state, 0)
    assert state.discard == [third] and state.minus[0] == 1 and len(state.pens[0][HYENA]) == 2


def test_vending_stand_symbols(state, pick):
    state.trucks[1] = [pick("red", "drink"), pick("green", "drink")]
    take(state, 1)
    assert state.coins[0] == 2  # the second stand with the drink symbol: 1 coin
    third = pick("blue", "drink")
    state.trucks[0] = [third]
    take(state, 0)  # seat 1's first drink: nothing
    assert state.stands[1] == [third] and state.coins[1] == 1
    state.trucks[2] = [pick("yellow", "drink")]  # round 2, seat 1 begins
    state.stands[0].append(pick("yellow", "ice cream"))
    state.to_move = 0
    extra = state.trucks[2][0]
    take(state, 2)  # a third drink stand in seat 0's area: discarded, 1 minus point
    assert extra in state.discard and state.minus[0] == 1 and state.coins[0] == 2


# --- stealing triggers symbols (ruling) -------------------------------------------------------------


def test_stealing_triggers_the_thiefs_symbol(state, pick):
    state.pile = [pick("gorilla")]
    state.coins[0] = 2
    state.pens[0][BISON] = [pick("bison", "lightning")]
    loot = pick("bison", "lightning")
    state.pens[1][BISON] = [loot]
    state.apply(Steal(loot))
    assert state.minus[0] == 1 and loot in state.pens[0][BISON]


def test_stealing_without_symbols_when_ruled_so(table):
    state, pick = table(Rules(steal_triggers_symbols=False))
    state.pile = [pick("gorilla")]
    state.coins[0] = 2
    mine, loot = pick("bison", "lightning"), pick("bison", "lightning")
    state.pens[0][BISON], state.pens[1][BISON] = [mine], [loot]
    state.apply(Steal(loot))
    assert state.minus[0] == 0 and state.pens[0][BISON] == [mine, loot]


@pytest.mark.parametrize("once", [False, True])
def test_a_pair_broken_by_a_steal_triggers_again_unless_symbols_act_once(table, once):
    """Rule `symbol_once`: seat 0's lightning pair, broken by seat 1's steal and made again, costs a second
    minus point, or (once) nothing; either way the third lightning bear now in the enclosure is discarded."""
    state, pick = table(Rules(symbol_once=once))
    bears = [pick("bear", "lightning") for _ in range(3)]
    state.pile = [pick("gorilla")]
    state.trucks[1] = bears[:2]
    take(state, 1)
    assert state.minus[0] == 1
    state.taken, state.to_move, state.coins[1] = [None, None], 1, 2  # a new round, seat 1 to move
    state.apply(Steal(bears[0]))
    assert state.pens[0][BEAR] == [bears[1]] and state.minus[1] == 0
    state.trucks[2] = [bears[2]]
    take(state, 2)
    assert state.minus[0] == (1 if once else 2)
    assert state.counts[0][COUNTERS.index("lightning")] == (1 if once else 2)
    state.taken, state.to_move, state.coins[0] = [None, None], 0, 2
    state.apply(Steal(bears[0]))  # stolen back: the third lightning bear
    assert bears[0] in state.discard and state.minus[0] == (2 if once else 3)


# --- interim scoring --------------------------------------------------------------------------------


def test_interim_scoring_of_a_species(state, pick):
    state.pens[1][BISON] = [pick("bison")]
    state.pens[0][BISON] = [pick("bison"), pick("bison")]
    state.trucks[0] = [pick("bison")]  # 3 + 1 = 4, the bison's target value
    take(state, 0)
    assert state.scored[BISON] and [m.points for m in state.won[0]] == [4] and state.coins[0] == 1
    state.pens[1][BISON].append(pick("bison", "lightning"))
    state.trucks[1] = [pick("bison", "lightning")]  # seat 1 now holds more bisons: no second scoring
    take(state, 1)
    assert len(state.pens[1][BISON]) == 3 and not state.won[1]


def test_rulebook_interim_scoring_example(state, pick):
    """Player 1: 1 bison; player 2: 3 bisons - player 2 wins the interim scoring."""
    state.pens[0][BISON] = [pick("bison")]
    state.pens[1][BISON] = [pick("bison"), pick("bison")]
    state.trucks[0] = [pick("bison")]
    state.to_move = 1
    take(state, 0)  # the fourth bison reaches the target value 4
    assert state.scored[BISON] and len(state.won[1]) == 1 and not state.won[0]


def test_interim_scoring_waits_on_a_tie(state, pick):
    state.pile = [pick("gorilla")]
    state.pens[0][BEAR] = [pick("bear"), pick("bear", "lightning")]
    state.pens[1][BEAR] = [pick("bear", "heart"), pick("bear", "heart"), pick("bear", "lightning")]
    state.trucks[0] = [pick("bear")]
    take(state, 0)  # 3 : 3, total 6 = the bear's target value: a tie, no scoring yet
    assert not state.scored[BEAR] and not state.won[0] and not state.won[1]
    state.trucks[1] = [pick("bear")]
    take(state, 1)  # 3 : 4 in round 1 still: seat 1 now has strictly more
    assert state.scored[BEAR] and len(state.won[1]) == 1 and not state.won[0]


def test_tie_at_the_target_waits_until_broken_by_a_steal(state, pick):
    state.pile = [pick("gorilla")]
    bears0 = [pick("bear"), pick("bear", "lightning")]
    bears1 = [pick("bear"), pick("bear", "lightning"), pick("bear", "heart")]
    state.pens[0][BEAR], state.pens[1][BEAR] = bears0, bears1
    state.trucks[0] = [pick("bear")]
    take(state, 0)  # 3 : 3, total 6 = target: a tie, no scoring yet
    assert not state.scored[BEAR]
    state.coins[1] = 2
    state.apply(Steal(bears0[0]))  # seat 1 steals a plain bear: 2 : 4
    assert state.scored[BEAR] and len(state.won[1]) == 1 and not state.won[0]


def test_tie_at_the_target_broken_by_a_steal_that_discards_a_third_symbol(tmp_path, table):
    """After a tie at the target, the scoring waits until one player "clearly has more", here through a
    steal whose card is discarded as a third lightning: the total falls below the target, the tie is broken."""
    symbols = tmp_path / "symbols.toml"
    symbols.write_text("[gorilla]\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\nlightning = 3\n")
    state, pick = table(Rules(symbols_file=str(symbols)))
    state.pens[0][HYENA] = [pick("hyena", "lightning"), pick("hyena", "lightning"), pick("hyena"), pick("hyena")]
    loot = pick("hyena", "lightning")
    state.pens[1][HYENA] = [loot, pick("hyena"), pick("hyena")]
    state.trucks[0] = [pick("hyena")]
    state.to_move = 1
    take(state, 0)  # 4 : 4, the hyena's target value 8: a tie, no scoring yet
    assert not state.scored[HYENA] and state.to_move == 0
    state.coins[0] = 2
    state.apply(Steal(loot))  # seat 0's third lightning hyena is discarded: 4 : 3
    assert loot in state.discard and state.minus[0] == 1
    assert state.scored[HYENA] and len(state.won[0]) == 1 and not state.won[1]


def test_vending_scoring_once(state, pick):
    state.stands[0] = [pick("red", "drink"), pick("green", "pretzel"), pick("blue", "ice cream")]
    state.stands[1] = [pick("red", "pretzel"), pick("green", "ice cream"), pick("blue", "drink")]
    state.trucks[0] = [pick("yellow", "pretzel")]
    take(state, 0)
    assert state.vending_scored and [m.points for m in state.won[0]] == [4]
    state.trucks[1] = [pick("yellow", "drink")]
    take(state, 1)  # seat 1 completes the colours too: no second vending scoring
    assert not state.won[1]


# --- end of the game -------------------------------------------------------------------------------


def test_final_round_card_ends_the_game(state, pick, game):
    state.pile = [pick("gorilla"), pick("gorilla"), game.final_card, pick("bison")]
    state.apply(DRAW)  # the final-round card surfaces and is put aside
    assert state.final_card_aside and game.final_card not in state.pile and not state.final_round
    state.apply(Connect(state.drawn, 0))
    state.apply(DRAW)  # the next card: this round is the last
    assert state.final_round and state.end_trigger == "card"
    state.apply(Connect(state.drawn, 1))
    take(state, 0)
    assert not state.is_terminal()
    take(state, 1)
    assert state.is_terminal() and state.current_player() == -1 and state.phase == OVER


def test_final_round_marker_ends_the_game(state, pick):
    state.pile = [pick("antelope") for _ in range(3)]
    state.markers = state.markers[3:]  # the 2 + coin marker on top, then the final-round marker
    state.pens[0][GORILLA] = [pick("gorilla"), pick("gorilla")]
    state.trucks[0] = [pick("gorilla")]
    take(state, 0)  # gorillas 3 : 0 reach the target
    assert state.final_marker_aside and not state.final_round and state.coins[0] == 2
    state.pens[1][BISON] = [pick("bison"), pick("bison"), pick("bison")]
    state.trucks[1] = [pick("bison")]
    take(state, 1)  # the next marker is awarded: this round is the last
    assert state.final_round and state.end_trigger == "marker" and state.is_terminal()


def test_draw_pile_running_out_ends_the_game(state, pick):
    state.pile = [pick("gorilla")]
    state.apply(DRAW)
    assert state.final_round and state.end_trigger == "pile"
    state.apply(Connect(state.drawn, 0))
    take(state, 0)
    assert state.legal_actions() == [QUIT_EMPTY]  # nothing to draw, nothing to take
    state.apply(QUIT_EMPTY)
    assert state.is_terminal()


# --- expert variant -------------------------------------------------------------------------------


def test_expert_discard(table):
    state, pick = table(Rules(expert=True))
    card = pick("hyena", "lightning")
    state.pile = [pick("gorilla"), card]
    state.apply(DRAW)
    assert DiscardDrawn(card) in state.legal_actions()
    state.apply(DiscardDrawn(card))
    assert state.discard == [card] and state.coins[0] == 0 and state.to_move == 1
    state.apply(DRAW)  # seat 1 draws the last card, which starts the final round
    assert state.final_round
    assert not any(isinstance(a, DiscardDrawn) for a in state.legal_actions())


def test_expert_discard_banned_once_the_final_round_card_has_surfaced_and_the_next_card_is_drawn(table):
    state, pick = table(Rules(expert=True))
    state.coins = [2, 2]
    state.pile = [pick("gorilla"), pick("bison"), state.game.final_card, pick("bear")]
    state.apply(DRAW)  # the final-round card surfaces and is put aside; this round is not the final one yet
    assert state.final_card_aside and not state.final_round
    assert any(isinstance(a, DiscardDrawn) for a in state.legal_actions())
    state.apply(state.legal_actions()[0])
    state.apply(DRAW)  # the next card: the final round, so this very card cannot be discarded
    assert state.final_round and state.end_trigger == "card" and state.pile
    assert not any(isinstance(a, DiscardDrawn) for a in state.legal_actions())


def test_expert_discard_needs_a_coin_and_the_variant(table, state, pick):
    expert_state, expert_pick = table(Rules(expert=True))
    expert_state.pile = [expert_pick("gorilla"), expert_pick("bison")]
    expert_state.coins[0] = 0
    expert_state.apply(DRAW)
    assert not any(isinstance(a, DiscardDrawn) for a in expert_state.legal_actions())
    state.pile = [pick("gorilla"), pick("bison")]
    state.apply(DRAW)
    assert not any(isinstance(a, DiscardDrawn) for a in state.legal_actions())


# --- rulings: the order of a symbol action and the interim scoring; the marker stack ----------------


def test_heart_offspring_after_the_interim_scoring_unless_ruled_otherwise(table):
    """Tigers (target 7) 4 : 2, seat 0 places a second heart tiger: 4 : 3 reaches the target. The scoring
    interrupts play at once and seat 1 wins it; with `symbol_before_scoring` the offspring comes first: 4 : 4,
    a tie, no scoring yet."""
    for symbol_first in (False, True):
        state, pick = table(Rules(symbol_before_scoring=symbol_first))
        state.pens[1][TIGER] = [pick("tiger"), pick("tiger"), pick("tiger", "lightning"), pick("tiger", "square")]
        state.pens[0][TIGER] = [pick("tiger", "heart"), pick("tiger", "square")]
        state.trucks[0] = [pick("tiger", "heart")]
        take(state, 0)
        assert state.game.offspring[TIGER] in state.pens[0][TIGER]  # the offspring comes either way
        assert state.scored[TIGER] is not symbol_first
        assert len(state.won[1]) == (0 if symbol_first else 1) and not state.won[0]


def test_square_donation_after_the_interim_scoring_unless_ruled_otherwise(table):
    """Antelopes (target 5) 3 : 1, seat 0 places a second square antelope: 3 : 2 reaches the target. Seat 1
    wins the scoring before the donation; with `symbol_before_scoring` the check waits for the donated
    antelope: 3 : 3, a tie, no scoring."""
    for symbol_first in (False, True):
        state, pick = table(Rules(symbol_before_scoring=symbol_first))
        state.pens[1][ANTELOPE] = [pick("antelope"), pick("antelope"), pick("antelope", "lightning")]
        state.pens[0][ANTELOPE] = [pick("antelope", "square")]
        gift = pick("antelope")
        state.discard = [gift]
        state.trucks[0] = [pick("antelope", "square")]
        take(state, 0)
        assert state.phase == DONATION and state.scored[ANTELOPE] is not symbol_first
        state.apply(Donate(gift))
        assert len(state.pens[0][ANTELOPE]) == 3 and state.pending_check == -1
        assert state.scored[ANTELOPE] is not symbol_first and len(state.won[1]) == (0 if symbol_first else 1)


def test_symbol_first_still_scores_after_the_donation(table):
    """With `symbol_before_scoring`, the waiting check is made once the donation is in: here the donated card
    is a stand, and seat 1 (ahead 3 : 2) wins the antelopes then."""
    state, pick = table(Rules(symbol_before_scoring=True))
    state.pens[1][ANTELOPE] = [pick("antelope"), pick("antelope"), pick("antelope", "lightning")]
    state.pens[0][ANTELOPE] = [pick("antelope", "square")]
    stand = pick("red", "drink")
    state.discard = [stand]
    state.trucks[0] = [pick("antelope", "square")]
    take(state, 0)
    assert not state.scored[ANTELOPE] and state.pending_check == ANTELOPE
    state.apply(Donate(stand))
    assert state.scored[ANTELOPE] and len(state.won[1]) == 1 and state.to_move == 1


def test_bundled_symbols_let_a_second_heart_pair_go_to_waste(state, pick, game):
    """The bundled data has 4 heart hyenas: each player can make a pair; the second finds the offspring gone."""
    state.trucks[1] = [pick("hyena", "heart"), pick("hyena", "heart")]
    take(state, 1)
    assert game.offspring[HYENA] in state.pens[0][HYENA]
    state.trucks[2] = [pick("hyena", "heart"), pick("hyena", "heart")]
    take(state, 2)
    assert state.counts[1][COUNTERS.index("heart_wasted")] == 1 and len(state.pens[1][HYENA]) == 2


def test_bundled_symbols_have_a_third_animal_with_the_same_symbol(state, pick):
    third = pick("bear", "lightning")
    state.pens[0][BEAR] = [pick("bear", "lightning"), pick("bear", "lightning")]
    state.trucks[0] = [third]
    take(state, 0)
    assert state.discard == [third] and state.minus[0] == 1


def test_markers_sharing_a_letter_are_shuffled_unless_printed(game):
    printed_game = type(game)(Rules(marker_order="printed"))
    orders = set()
    for seed in range(30):
        shuffled = game.new_state(np.random.default_rng(seed))
        printed = printed_game.new_state(np.random.default_rng(seed))
        assert [c.id for c in shuffled.pile] == [c.id for c in printed.pile]  # the same seed, the same draw pile
        assert [repr(m) for m in printed.markers] == [repr(m) for m in game.markers]  # the file's order
        assert [m.letter for m in shuffled.markers] == [m.letter for m in game.markers]  # still sorted by letter
        orders.add(tuple(repr(m) for m in shuffled.markers))
    # the B pair (3 + coin, 3) and the F pair (1 + coin, 1) each in both orders; A, C, D, E in place
    assert len(orders) == 4
    assert {order[1:3] for order in orders} == {("3 + coin", "3"), ("3", "3 + coin")}
