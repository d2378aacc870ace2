"""Tyranno Ex game rules in scripted states: one test per rule, plus the rulebook's scoring example."""

from __future__ import annotations

import numpy as np
import pytest
from tyranno_positions import environment_phase, put

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play
from tyrsim.games.tyranno_ex import fights
from tyrsim.games.tyranno_ex.actions import (
    KEEP_FIVE,
    NO_FIGHT,
    PASS,
    Challenge,
    ChooseSymbol,
    PlaceCard,
    SetChips,
    Trade,
    UseFive,
)
from tyrsim.games.tyranno_ex.board import TRACK, spot_name, track_space, track_spot
from tyrsim.games.tyranno_ex.cards import SYMBOLS, Card
from tyrsim.games.tyranno_ex.combat import Fight
from tyrsim.games.tyranno_ex.environment import Environment
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.rules import Rules

SUN, WATER, LEAF, BONE = range(4)


def card(name: str, *symbols: int, homo: bool = False) -> Card:
    return Card(name, tuple(symbols), homo)


def spot(column: int, row: int) -> int:
    return column * 4 + (0, 3, 6, 9).index(row)


def fresh(rules: Rules | None = None, players: int = 4, seed: int = 0):
    return make_game(rules or Rules(), players).new_state(np.random.default_rng(seed))


def scripted(rules: Rules | None = None, players: int = 4, seed: int = 0):
    """A state with an empty board, set for scripting: every player holds 3 chips of each symbol."""
    state = fresh(rules, players, seed)
    state.spots = [None] * len(state.spots)
    state.hands = [[3, 3, 3, 3] for _ in range(players)]
    state.env = Environment([SUN, WATER, LEAF, BONE])
    return state


def chips_total(state) -> int:
    return state.bag.total() + sum(sum(h) for h in state.hands) + state.env.chips_on_card()


# --- set-up and placement --------------------------------------------------------


def test_set_up_deals_piles_chips_and_opening_conditions():
    state = fresh()
    assert [len(p) for p in state.piles] == [7, 7, 7, 7]
    assert all(sum(h) == 12 for h in state.hands)
    assert state.env.current_count == [1, 1, 1, 1]
    assert (state.move, state.end) == (1, 3)
    assert chips_total(state) == 84
    assert state.phase == "place" and state.current_player() == 0


def test_first_round_places_two_cards_in_laps_rows_0_then_3():
    state = fresh()
    order = []
    while state.phase == "place":
        actions = state.legal_actions()
        assert {a.row for a in actions} == ({0} if len(order) < 4 else {3})  # the second card goes above
        top = state.piles[actions[0].pile][-1]
        player = state.current_player()
        state.apply(actions[0])
        order.append(player)
        assert state.spots[spot(player, actions[0].row)].card is top
    assert order == [0, 1, 2, 3, 0, 1, 2, 3]
    assert sum(len(p) for p in state.piles) == 20  # the next card of each pile turned face up


@pytest.mark.parametrize("die", [2, 3])  # the default (what a newly earned die shows) and the ruling's alternative
def test_homo_sapiens_enters_with_a_strength_die(die):
    state = fresh(Rules(homo_sapiens_die=die))
    homo = card("Homo sapiens", SUN, LEAF, BONE, homo=True)
    state.piles[0].append(homo)
    assert PlaceCard(0, 0, 0, homo) in state.legal_actions()
    state.apply(PlaceCard(0, 0, 0, homo))
    assert state.spots[spot(0, 0)].die == die


def test_after_a_double_shift_each_player_places_two_cards_choosing_the_row():
    state = fresh()
    state.round, state.double_last = 5, True
    state._begin_placement()
    assert {a.row for a in state.legal_actions()} == {0, 3}
    state.apply(PlaceCard(0, 0, 3, state.piles[0][-1]))
    while state.current_player() != 0:
        state.apply(state.legal_actions()[0])
    assert {a.row for a in state.legal_actions()} == {0}  # row 3 is taken: only row 0 is left


def test_placement_together_gives_both_cards_on_one_turn():
    state = fresh(Rules(placement_order="together"))
    players = []
    while state.phase == "place":
        players.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert players == [0, 0, 1, 1, 2, 2, 3, 3]


# --- environmental change ----------------------------------------------------------


def test_setting_chips_lays_them_face_down_without_change():
    state = scripted()
    environment_phase(state)
    state.env.current_count = [3, 3, 3, 3]
    state.apply(SetChips(((WATER, 0), (LEAF, 1))))
    assert state.hands[0] == [3, 2, 2, 3]
    assert state.env.potential[0][WATER] == 1 and state.env.potential[1][LEAF] == 1
    assert state.env.current == [SUN, WATER, LEAF, BONE]
    assert state.current_player() == 1


def test_reveal_majority_replaces_the_current_conditions():
    state = scripted()
    environment_phase(state)
    state.env.potential[0] = [0, 1, 0, 0]  # one water face down on space 0 (current: one sun)
    bag_sun = state.bag.chips[SUN]
    state.apply(SetChips(((WATER, 0),)))  # 2 potential > 1 current
    assert state.env.current[0] == WATER and state.env.current_count[0] == 2
    assert state.env.potential[0] == [0, 0, 0, 0]
    assert state.bag.chips[SUN] == bag_sun + 1  # the old current chip went back to the bag
    assert state.counters["changes"] == 1 and state.counters["cascades"] == 0


def test_minority_chips_stay_face_down_after_a_reveal():
    state = scripted()
    environment_phase(state)
    state.env.current_count[0] = 2
    state.env.potential[0] = [0, 1, 1, 0]
    state.apply(SetChips(((WATER, 0),)))  # 3 > 2: water 2 beats leaf 1
    assert (state.env.current[0], state.env.current_count[0]) == (WATER, 2)
    assert state.env.potential[0] == [0, 0, 1, 0]


def test_cascade_of_two_changes():
    """Constructed from "Rapid Environmental Change": one reveal uncovers a further majority at once.

    Space 0 shows 6 sun; face down lie 2 water, 2 leaf, 1 bone, 1 sun (6, not more than 6).
    Setting one water makes 7 > 6: water (3) becomes current; the 4 left face down
    outnumber the 3 water, so leaf (2) takes over; bone 1 and sun 1 (2) do not outnumber 2 leaf.
    """
    state = scripted()
    environment_phase(state)
    state.env.current_count[0] = 6
    state.env.potential[0] = [1, 2, 2, 1]
    state.bag.chips[SUN] -= 5  # keep 84 chips in play
    before = chips_total(state)
    state.apply(SetChips(((WATER, 0),)))
    assert (state.env.current[0], state.env.current_count[0]) == (LEAF, 2)
    assert state.env.potential[0] == [1, 0, 0, 1]
    assert state.counters["changes"] == 2 and state.counters["cascades"] == 1
    assert chips_total(state) == before


def test_cascade_of_three_changes():
    state = scripted()
    environment_phase(state)
    state.env.current_count[0] = 12
    state.env.potential[0] = [0, 5, 4, 3]
    state.hands[0][SUN] = 2
    state.apply(SetChips(((SUN, 0), (SUN, 0))))  # 14 > 12: water 5, then leaf 4 (9 > 5), then bone 3 (5 > 4)
    assert (state.env.current[0], state.env.current_count[0]) == (BONE, 3)
    assert state.env.potential[0] == [2, 0, 0, 0]
    assert state.counters["longest_cascade"] == 3


def test_tie_chooser_picks_among_the_tied_symbols():
    state = scripted(Rules(majority_tie="chooser"))
    environment_phase(state)
    state.env.potential[0] = [0, 1, 0, 0]
    state.apply(SetChips(((LEAF, 0),)))  # water 1, leaf 1: tied
    assert state.phase == "tie" and state.current_player() == 0
    assert state.legal_actions() == (ChooseSymbol(0, WATER), ChooseSymbol(0, LEAF))
    state.apply(ChooseSymbol(0, LEAF))
    assert (state.env.current[0], state.env.current_count[0]) == (LEAF, 1)
    assert state.env.potential[0] == [0, 1, 0, 0]
    assert state.phase == "environment" and state.current_player() == 1


def test_tie_empty_removes_the_current_chips_and_leaves_the_space_empty_until_a_majority():
    """The default reading: "that space's current chips are immediately removed" once the face-down chips
    outnumber them; a tie is no "simple majority", so no symbol takes their place until a later chip breaks it."""
    state = scripted()
    environment_phase(state)
    frog = put(state, spot(0, 0), card("Frog", SUN, SUN, SUN), 0)  # lives on space 0's sun alone
    state.env.potential[0] = [0, 1, 0, 0]
    bag = list(state.bag.chips)
    state.apply(SetChips(((LEAF, 0),)))  # water 1, leaf 1: tied
    assert state.env.current_count[0] == 0 and state.bag.chips[SUN] == bag[SUN] + 1  # the sun went back
    assert state.env.potential[0] == [0, 1, 1, 0] and state.stats()["ties"] == 1
    assert not state.env.present() & 1 << SUN and state.env.chips_of()[SUN] == 0
    state.passes, state.player = 0, 1
    state.apply(SetChips(((LEAF, 0),)))  # leaf 2, water 1: a majority at last
    assert (state.env.current[0], state.env.current_count[0]) == (LEAF, 2)
    state._survival()
    assert frog not in state.spots  # no sun among the conditions any more


def test_tie_no_change_leaves_the_space():
    """A tie for the most revealed chips is no "simple majority", and the old chips stay (`no_change`)."""
    state = scripted(Rules(majority_tie="no_change"))
    environment_phase(state)
    state.env.potential[0] = [0, 1, 0, 0]
    state.apply(SetChips(((LEAF, 0),)))
    assert (state.env.current[0], state.env.current_count[0]) == (SUN, 1)
    assert state.env.potential[0] == [0, 1, 1, 0]
    assert state.stats()["ties"] == 1  # the engine counts the tie whatever its reading


def test_tie_random_takes_one_of_the_tied():
    results = set()
    for seed in range(12):
        state = scripted(Rules(majority_tie="random"), seed=seed)
        environment_phase(state)
        state.env.potential[0] = [0, 1, 0, 0]
        state.apply(SetChips(((LEAF, 0),)))
        results.add(state.env.current[0])
        assert state.stats()["ties"] == 1
    assert results == {WATER, LEAF}


@pytest.mark.parametrize(("majority", "current"), [("most", (SUN, 2)), ("over_half", (BONE, 3))])
def test_simple_majority_is_the_most_chips_or_more_than_half(majority, current):
    """Sun 2, water 1, leaf 1 revealed against 3 current chips: sun has the most, but not more than half."""
    state = scripted(Rules(majority=majority))
    environment_phase(state)
    state.env = Environment([BONE, WATER, LEAF, BONE], [3, 1, 1, 1])
    state.env.potential[0] = [1, 1, 1, 0]
    state.apply(SetChips(((SUN, 0),)))
    assert (state.env.current[0], state.env.current_count[0]) == current
    assert state.counters["changes"] == (1 if majority == "most" else 0)
    state.player = 0
    state.apply(SetChips(((SUN, 0), (SUN, 0))))  # sun 4 of 6: more than half, under both readings
    assert (state.env.current[0], state.env.current_count[0]) == ((SUN, 2) if majority == "most" else (SUN, 4))


def test_over_half_leaves_no_rapid_change():
    """A further change needs the chips left face down to outnumber the winner's: it held less than half."""
    cascades = {}
    for majority in ("most", "over_half"):
        rules = Rules(majority=majority)
        stats = [play(make_game(rules, 4), [RandomPolicy()] * 4, np.random.default_rng(seed)).stats
                 for seed in range(8)]  # fmt: skip
        assert sum(s["changes"] for s in stats) > 0
        cascades[majority] = sum(s["cascades"] for s in stats)
    assert cascades["over_half"] == 0 < cascades["most"]


def test_over_half_never_asks_the_chooser():
    state = scripted(Rules(majority="over_half", majority_tie="chooser"))
    environment_phase(state)
    state.env.potential[0] = [0, 1, 0, 0]
    state.apply(SetChips(((LEAF, 0),)))  # water 1, leaf 1: neither holds more than half
    assert state.phase == "environment" and state.current_player() == 1
    assert state.env.current[0] == SUN and state.stats()["ties"] == 1


def test_trading_draws_first_then_returns_old_chips():
    state = scripted()
    environment_phase(state)
    state.bag.chips = [0, 32, 0, 0]  # only water left in the bag: returned suns cannot be drawn back
    state.apply(Trade((SUN, SUN, SUN)))
    assert state.hands[0] == [0, 6, 3, 3]
    assert state.bag.chips == [3, 29, 0, 0]
    assert chips_total(state) == 84
    assert state.seat_counters["trades"][0] == 1 and state.current_player() == 1


def test_trading_only_in_the_first_three_placement_rounds():
    state = scripted()
    environment_phase(state, move=3)
    assert any(isinstance(a, Trade) for a in state.legal_actions())
    environment_phase(state, move=4)
    assert not any(isinstance(a, Trade) for a in state.legal_actions())
    assert PASS in state.legal_actions()


def test_move_marker_advances_when_the_turn_returns_and_stops_at_end():
    state = fresh()
    while state.phase == "place":
        state.apply(state.legal_actions()[0])
    turns = 0
    while state.phase == "environment":
        state.apply(PASS)
        turns += 1
    assert turns == 8  # Move 1 and 2 are played; Move reaching End (3) ends placement


def test_end_marker_off_the_track_means_placement_until_a_lap_passes():
    state = scripted()
    state.end = 7  # past the 6 fields
    environment_phase(state)
    assert state._limit() is None
    state.apply(SetChips(((SUN, 1),)))
    for _ in range(3):
        state.apply(PASS)
    assert state.phase == "environment"  # three passes after a setting: not yet a whole lap
    state.apply(PASS)
    assert state.phase != "environment"


@pytest.mark.parametrize(("fields", "rounds"), [(6, [2, 3, 4, 5, None]), (4, [2, 3, None, None, None]),
                                              (8, [2, 3, 4, 5, 6])])
def test_round_tracker_fields_set_when_the_end_marker_runs_off(fields, rounds):
    # End starts on 3 and moves up a field after each scoring; off the tracker there is no limit (None)
    state = scripted(Rules(track_fields=fields))
    seen = []
    for _ in range(5):
        limit = state._limit()
        seen.append(None if limit is None else limit - 1)  # placement rounds: Move 1 up to End - 1
        state.end += 1
    assert seen == rounds


@pytest.mark.parametrize(("after", "limit"), [("last_field", 6), ("none", 0)])
def test_end_marker_off_the_track_alternatives(after, limit):
    state = scripted(Rules(after_track=after))
    state.end = 7
    assert state._limit() == limit


def test_strength_die_when_a_change_completes_a_cards_symbols():
    state = scripted()
    environment_phase(state)
    state.env = Environment([SUN, SUN, SUN, BONE])
    mine = put(state, spot(0, 0), card("Frog", SUN, WATER, LEAF), 0)
    other = put(state, spot(1, 0), card("Duck", SUN, WATER, LEAF), 1)
    strong = put(state, spot(0, 3), card("Seal", SUN, WATER, BONE), 0, die=6)
    state.env.potential[1] = [0, 1, 0, 0]
    state.env.potential[2] = [0, 0, 1, 0]
    state.apply(SetChips(((WATER, 1), (LEAF, 2))))  # water and leaf become current: Frog is complete
    assert mine.die == 2
    assert other.die is None  # only the changing player's cards gain
    assert strong.die == 6  # the Seal is completed too, but its die is at the maximum
    state.player = 0
    state.env.potential[3] = [0, 0, 2, 0]
    state.apply(SetChips(((SUN, 3),)))  # bone -> leaf: nothing newly completed for the Frog
    assert mine.die == 2


def test_strength_die_raised_only_in_the_first_three_placement_rounds():
    for move, expected in ((3, 3), (4, 2)):
        state = scripted()
        environment_phase(state, move=move)
        state.env = Environment([SUN, SUN, SUN, BONE])
        mine = put(state, spot(0, 0), card("Frog", SUN, WATER, LEAF), 0, die=2)
        state.env.potential[1] = [0, 1, 0, 0]
        state.env.potential[2] = [0, 0, 1, 0]
        state.apply(SetChips(((WATER, 1), (LEAF, 2))))
        assert mine.die == expected


def test_five_marker_at_phase_end_next_start_player_first():
    state = scripted()
    state.start = 2
    state.phase, state.player, state.move = "environment", 2, 1
    state.end = 2
    state.limit = state._limit()
    game_round = state.round
    for _ in range(4):
        state.apply(PASS)
    assert state.phase == "five"
    assert state.current_player() == 3  # closest to becoming the next start player
    assert KEEP_FIVE in state.legal_actions()
    state.apply(UseFive(((SUN, 1), (SUN, 1))))
    assert state.five[3] is False and state.hands[3][SUN] == 1
    assert state.env.current[1] == SUN and state.env.current_count[1] == 2
    assert state.current_player() == 0
    state.apply(KEEP_FIVE)
    assert state.current_player() == 1
    state.apply(KEEP_FIVE)
    assert state.current_player() == 2
    state.apply(KEEP_FIVE)
    assert state.phase not in ("five", "environment")
    assert state.stats()["five_used_p3"] == 1 and state.stats()["five_round_p3"] == game_round


@pytest.mark.parametrize(("reading", "end", "die"), [
    ("last_round", 3, 2),  # End on 3: placement rounds 1 and 2 are played, the last is among the first 3
    ("last_round", 4, 2),  # End on 4: rounds 1-3 (Move stands on 4, a field no round was played on)
    ("last_round", 5, None),  # End on 5: rounds 1-4, the last is no longer among the first 3
    ("tracker", 3, 2),  # judged by Move's field: Move stands on End, field 3, among the first 3
    ("tracker", 4, None),  # Move on 4, a field past the first 3, although rounds 1-3 were played
    ("never", 3, None),  # the extra placement comes after the placement rounds
])
def test_five_marker_at_phase_end_earns_dice_by_the_last_placement_round(reading, end, die):
    """"A card's strength die can only be raised this way during the first 3 placement rounds": the "5"
    marker's chips at the end of placement count in the last placement round played (`five_die_round`)."""
    state = scripted(Rules(five_die_round=reading))
    state.end = end
    environment_phase(state)
    state.env = Environment([SUN, SUN, SUN, BONE])
    frog = put(state, spot(0, 0), card("Frog", SUN, WATER, LEAF), 0)
    state.env.potential[1] = [0, 1, 0, 0]
    state.env.potential[2] = [0, 0, 1, 0]
    while state.phase == "environment":
        state.apply(PASS)
    assert state.move == end
    for _ in range(3):  # P1, P2, P3 keep theirs; the start player P0 decides last
        state.apply(KEEP_FIVE)
    assert state.current_player() == 0
    state.apply(UseFive(((WATER, 1), (LEAF, 2))))  # water and leaf become current: the Frog is complete
    assert (state.env.current[1], state.env.current[2]) == (WATER, LEAF)
    assert frog.die == die


@pytest.mark.parametrize("reading", ["last_round", "tracker", "never"])
@pytest.mark.parametrize(("end", "after_track"), [
    (1, "unlimited"),  # End already on Move's field: the phase plays no placement round
    (7, "none"),  # End has run off the 6-field tracker and no placement follows
])
def test_five_marker_earns_no_dice_when_no_placement_round_was_played(reading, end, after_track):
    """A phase with no placement round has no round the "5" marker's chips could belong to: no strength dice
    under every reading of `five_die_round` (they were once judged as played in round 1)."""
    state = scripted(Rules(five_die_round=reading, after_track=after_track))
    state.end = end
    state.env = Environment([SUN, SUN, SUN, BONE])
    frog = put(state, spot(0, 0), card("Frog", SUN, WATER, LEAF), 0)
    state.env.potential[1] = [0, 1, 0, 0]
    state.env.potential[2] = [0, 0, 1, 0]
    state._begin_environment()
    assert state.phase == "five"  # straight to the "5" marker
    for _ in range(3):
        state.apply(KEEP_FIVE)
    state.apply(UseFive(((WATER, 1), (LEAF, 2))))
    assert (state.env.current[1], state.env.current[2]) == (WATER, LEAF)  # the Frog is complete ...
    assert frog.die is None  # ... and earns nothing


def test_five_marker_on_own_turn_then_the_turn_goes_on():
    state = scripted(Rules(five_timing="own_turn"))
    environment_phase(state)
    assert any(isinstance(a, UseFive) for a in state.legal_actions())
    state.apply(UseFive(((SUN, 1), (SUN, 1))))
    assert state.current_player() == 0 and not any(isinstance(a, UseFive) for a in state.legal_actions())


@pytest.mark.parametrize(("count", "sizes"), [("exact", {2}), ("up_to", {1, 2})])
@pytest.mark.parametrize("timing", ["phase_end", "own_turn"])
def test_five_marker_lays_exactly_two_chips_or_up_to_two(timing, count, sizes):
    """"each player may place 2 additional chips": exactly 2 by default; 1 or 2 under `five_count = "up_to"`."""
    state = scripted(Rules(five_timing=timing, five_count=count))
    if timing == "phase_end":
        state.phase, state.player, state.queue = "five", 0, [(0, -1)]
    else:
        environment_phase(state)
    fives = [a for a in state.legal_actions() if isinstance(a, UseFive)]
    assert {len(a.chips) for a in fives} == sizes
    assert len(fives) == {"exact": 136, "up_to": 152}[count]  # 16 (symbol, space) pairs: 136 pairs of them


@pytest.mark.parametrize(("count", "asked"), [("exact", [1, 2]), ("up_to", [0, 1, 2])])
def test_a_player_short_of_the_five_markers_chips_is_not_asked(count, asked):
    state = scripted(Rules(five_count=count))
    state.hands[3] = [0, 0, 0, 0]  # no chips: never asked
    state.hands[0] = [1, 0, 0, 0]  # one chip: enough only for "up to 2"
    state.start = 2
    state._begin_five()
    assert [p for p, _ in state.queue] == asked


def test_unused_five_marker_scores_five_at_the_end():
    state = scripted()
    state.five = [True, False, True, False]
    state._game_end()
    assert state.scores() == [5, 0, 5, 0]
    assert state.is_terminal() and state.current_player() == -1


# --- survival and combat ---------------------------------------------------------------


def test_survival_eliminates_cards_without_a_matching_current_symbol(monkeypatch):
    state = scripted()
    monkeypatch.setattr(state, "_begin_combat", lambda: None)  # look at the board right after the check
    state.env = Environment([SUN, SUN, WATER, WATER])
    alive = put(state, spot(0, 0), card("Frog", SUN, LEAF, LEAF), 0)
    put(state, spot(1, 3), card("Deer", LEAF, LEAF, BONE), 1)
    put(state, TRACK, card("Wolf", BONE, BONE, LEAF), 2)
    state._survival()
    assert state.spots[spot(0, 0)] is alive
    assert state.spots[spot(1, 3)] is None and state.spots[TRACK] is None
    assert [c.name for c in state.out] == ["Deer", "Wolf"]
    assert state.seat_counters["lost_row3"][1] == 1 and state.seat_counters["lost_special"][2] == 1


def test_dice_count_the_current_chips_of_each_card_symbol():
    state = scripted()
    state.env = Environment([SUN, SUN, WATER, BONE], [2, 1, 3, 1])
    assert state.dice(card("Flamingo", SUN, SUN, WATER)) == 3 + 3 + 3  # sun counted for each sun symbol
    assert state.dice(card("Deer", LEAF, LEAF, BONE)) == 1


def fixed_fight(winner, attacker_rounds, defender_rounds):
    def fake(*args, **kwargs):
        return Fight(winner, attacker_rounds, defender_rounds)

    return fake


@pytest.mark.parametrize(
    ("winner", "a_rounds", "d_rounds", "attacker_after", "defender_after"),
    [
        ("attacker", 2, 0, (3, False), None),  # 2:0: the loser is eliminated; the weaker winner's die +1
        ("attacker", 2, 1, (3, False), (3, True)),  # 2:1: the loser turns face down, its die -1
        ("defender", 0, 2, None, (4, False)),  # the stronger winner (4 > 2) gets no raise
        ("defender", 1, 2, (1, True), (4, False)),
    ],
)
def test_fight_outcomes(monkeypatch, winner, a_rounds, d_rounds, attacker_after, defender_after):
    state = scripted()
    state.env = Environment([SUN, WATER, LEAF, BONE])
    a = put(state, spot(0, 3), card("Frog", SUN, WATER, LEAF), 0, die=2)
    d = put(state, spot(1, 6), card("Crab", BONE, BONE, WATER), 1, die=4)
    monkeypatch.setattr(fights, "resolve_fight", fixed_fight(winner, a_rounds, d_rounds))
    state._fight(spot(0, 3), spot(1, 6))
    for bc, at, after in ((a, spot(0, 3), attacker_after), (d, spot(1, 6), defender_after)):
        if after is None:
            assert state.spots[at] is None and bc.card in state.out
        else:
            assert (bc.die, bc.face_down) == after


@pytest.mark.parametrize(("reading", "winner_after"), [("earns_die", 2), ("nothing", None)])
def test_a_fight_winner_without_a_strength_die(monkeypatch, reading, winner_after):
    """"The winner may raise their strength die by 1": a card without a die has strength 1 ("its rolls only
    hit on a 1"), raised by 1 to a die showing 2; or it has no die to raise (`winner_without_die`)."""
    state = scripted(Rules(winner_without_die=reading))
    state.narration = []
    a = put(state, spot(0, 3), card("Frog", SUN, WATER, LEAF), 0)
    d = put(state, spot(1, 6), card("Crab", BONE, BONE, WATER), 1, die=3)
    monkeypatch.setattr(fights, "resolve_fight", fixed_fight("attacker", 2, 1))
    state._fight(spot(0, 3), spot(1, 6))
    assert a.die == winner_after
    assert (d.die, d.face_down) == (2, True)  # the 2:1 loser's effects are the same under both readings
    said = {"earns_die": "Frog earns a strength die showing 2.", "nothing": "Frog has no strength die to raise."}
    assert state.narration[-1].endswith(said[reading])


def test_fight_decided_by_dice_with_the_combat_module():
    state = scripted()
    state.env = Environment([SUN, SUN, SUN, SUN])
    a = put(state, spot(0, 0), card("Lizard", SUN, SUN, BONE), 0, die=6)  # 8 dice, every one a hit
    put(state, spot(1, 0), card("Crab", BONE, BONE, WATER), 1)  # no dice at all
    state._fight(spot(0, 0), spot(1, 0))
    assert state.spots[spot(1, 0)] is None and a.die == 6
    assert state.counters["fights_clean"] == 1


@pytest.mark.parametrize(("first", "order"), [("start_player", [1, 2, 3, 0]), ("next_start_player", [2, 3, 0, 1])])
def test_combat_each_player_may_challenge_once_in_turn(first, order):
    """"Each player may pick one fight": in turn from the start player, or from the player closer to becoming
    the next start player (`first_fighter`)."""
    state = scripted(Rules(first_fighter=first))
    state.env = Environment([SUN, WATER, LEAF, BONE])
    for p in range(4):
        put(state, spot(p, 0), card(f"C{p}", SUN, WATER, LEAF), p)
    state.start = 1
    state._begin_combat()
    seen = []
    while state.phase == "combat":
        seen.append(state.current_player())
        actions = state.legal_actions()
        assert NO_FIGHT in actions
        assert all(state.spots[a.attacker].owner == seen[-1] != state.spots[a.defender].owner
                   for a in actions if isinstance(a, Challenge))  # fmt: skip
        state.apply(NO_FIGHT)
    assert seen == order


def test_face_down_cards_fight_only_if_the_rule_allows():
    for allowed in (True, False):
        state = scripted(Rules(face_down_can_fight=allowed))
        put(state, spot(0, 0), card("A", SUN, WATER, LEAF), 0)
        put(state, spot(1, 0), card("B", SUN, WATER, LEAF), 1, face_down=True)
        assert bool(state._challenges(0, -1)) is allowed


# --- shifting, the special track, scoring ------------------------------------------------


def track(state) -> list[list[str]]:
    """The names of the cards on each special space (13, 10, 7)."""
    n = len(state.rules.special_spaces)
    return [[bc.card.name for bc in state.spots[track_spot(i):track_spot(i + 1)] if bc] for i in range(n)]


def test_special_space_spots_and_names():
    assert [track_spot(i) for i in range(4)] == [TRACK, TRACK + 1, TRACK + 3, TRACK + 6]
    assert [track_space(s) for s in range(TRACK, TRACK + 7)] == [0, 1, 1, 2, 2, 2, 3]
    assert [spot_name(s) for s in (TRACK, TRACK + 1, TRACK + 2, TRACK + 5)] == ["s0", "s1", "s1.1", "s2.2"]
    assert len(scripted().spots) == TRACK + 6 == len(scripted(Rules(special_space_holds="one")).spots)


@pytest.mark.parametrize("holds", ["several", "one"])
def test_shifting_moves_cards_up_with_empty_spaces(holds):
    state = scripted(Rules(special_space_holds=holds))
    a = put(state, spot(0, 0), card("A", SUN, SUN, SUN), 0)
    b = put(state, spot(0, 6), card("B", SUN, SUN, SUN), 0)
    state._shift()
    assert state.spots[spot(0, 3)] is a and state.spots[spot(0, 9)] is b
    assert state.spots[spot(0, 0)] is None and state.spots[spot(0, 6)] is None
    state._shift()
    assert state.spots[track_spot(0)] is b and state.spots[spot(0, 6)] is a
    state._shift()
    assert state.spots[track_spot(1)] is b and state.spots[track_spot(0)] is None and state.spots[spot(0, 9)] is a
    state._shift()
    state._shift()
    state._shift()
    assert state.spots[track_spot(2)] is a and b.card in state.out


@pytest.mark.parametrize(("holds", "expected", "old_out"), [
    ("several", [["Down"], ["Old", "Strong"], ["Weak"]], False),  # Old moves one space, beside Strong
    ("one", [["Down"], ["Strong"], ["Weak"]], True),  # three entering cards push Old three spaces on: out
])
def test_several_cards_enter_the_special_track_face_down_first_then_strongest(holds, expected, old_out):
    state = scripted(Rules(special_space_holds=holds))
    old = put(state, track_spot(0), card("Old", SUN, SUN, SUN), 3)
    put(state, spot(0, 9), card("Weak", SUN, WATER, LEAF), 0)
    put(state, spot(1, 9), card("Strong", SUN, WATER, LEAF), 1, die=4)
    put(state, spot(2, 9), card("Down", SUN, WATER, LEAF), 2, die=6, face_down=True)
    state._shift()
    # the face-down card takes 13, then the strongest; the weakest is furthest along
    assert track(state) == expected
    assert (old.card in state.out) is old_out


@pytest.mark.parametrize(("holds", "expected"), [
    ("several", [["Strong"], ["Old", "Weak"], []]),  # Old on 13 moves on to 10, as on any shift
    ("one", [["Strong"], ["Weak"], ["Old"]]),  # two entering cards push Old from 13 to 7
])
def test_two_cards_entering_while_one_sits_on_13(holds, expected):
    state = scripted(Rules(special_space_holds=holds))
    put(state, track_spot(0), card("Old", SUN, SUN, SUN), 3)
    put(state, spot(0, 9), card("Weak", SUN, WATER, LEAF), 0)
    put(state, spot(1, 9), card("Strong", SUN, WATER, LEAF), 1, die=4)
    state._shift()
    assert track(state) == expected
    state._score()  # every card on a special space scores that space's points
    assert state.points["special"] == ([10, 13, 0, 10] if holds == "several" else [10, 13, 0, 7])


@pytest.mark.parametrize(("holds", "expected", "out"), [
    ("several", [["S6"], ["S5"], ["Old", "S4"]], ["S3"]),  # Old on 10 moves to 7 beside S4
    ("one", [["S6"], ["S5"], ["S4"]], ["S3", "Old"]),  # four entering cards push Old off the track
])
def test_four_cards_entering_at_once(holds, expected, out):
    state = scripted(Rules(special_space_holds=holds))
    put(state, track_spot(1), card("Old", SUN, SUN, SUN), 3)
    for column, die in enumerate((3, 4, 5, 6)):
        put(state, spot(column, 9), card(f"S{die}", SUN, WATER, LEAF), column, die=die)
    state._shift()
    # "each card after the first is placed one space further along": the fourth (weakest) goes past 7
    assert track(state) == expected
    assert [c.name for c in state.out] == out


@pytest.mark.parametrize(("tie_fight", "first_after", "second_after"), [
    ("order_only", (3, False), (3, False)),  # "fight it out for the placement": the order, nothing else
    ("full_effects", (2, True), (4, False)),  # a 2:1 loser turns face down and loses a pip; the winner gains one
])
def test_tied_cards_entering_the_track_fight_for_the_order(monkeypatch, tie_fight, first_after, second_after):
    state = scripted(Rules(track_tie_fight=tie_fight))
    first = put(state, spot(0, 9), card("First", SUN, WATER, LEAF), 0, die=3)
    second = put(state, spot(1, 9), card("Second", SUN, WATER, LEAF), 1, die=3)
    monkeypatch.setattr(fights, "resolve_fight", fixed_fight("defender", 1, 2))
    state._shift()
    assert track(state) == [["Second"], ["First"], []]  # the winner counts as stronger: placed first
    assert state.counters["track_tie_fights"] == 1
    assert (first.die, first.face_down) == first_after
    assert (second.die, second.face_down) == second_after
    state._score()  # a face-down loser scores nothing on its special space
    assert state.points["special"][0] == (0 if tie_fight == "full_effects" else 10)


@pytest.mark.parametrize(("tie_fight", "expected", "out"), [
    ("order_only", [["Second"], ["First"], []], []),
    ("full_effects", [["Second"], [], []], ["First"]),  # a 2:0 loser is eliminated: it never enters the track
])
def test_a_clean_tie_fight_on_entering_the_track(monkeypatch, tie_fight, expected, out):
    state = scripted(Rules(track_tie_fight=tie_fight, winner_without_die="earns_die"))
    put(state, spot(0, 9), card("First", SUN, WATER, LEAF), 0)
    put(state, spot(1, 9), card("Second", SUN, WATER, LEAF), 1)
    monkeypatch.setattr(fights, "resolve_fight", fixed_fight("defender", 0, 2))
    state._shift()
    assert track(state) == expected
    assert [c.name for c in state.out] == out
    assert state.counters["track_tie_losses"] == len(out)
    assert state.spots[track_spot(0)].die == (2 if tie_fight == "full_effects" else None)  # a first die: 2


def test_double_shifting_once_a_pile_is_empty_and_two_rows_to_fill():
    state = scripted()
    a = put(state, spot(0, 0), card("A", SUN, SUN, SUN), 0)
    state.piles[2] = []
    state.queue = []
    state._end_of_round()
    assert state.spots[spot(0, 6)] is a
    assert state.double_last and state.counters["double_shifts"] == 1
    assert state.phase == "place" and {x.row for x in state.legal_actions()} == {0, 3}


def test_scoring_example_from_the_rulebook():
    """Scoring Example: A 16, B 8, C 17, D 22 points."""
    state = scripted()
    put(state, spot(0, 9), card("Shark", WATER, WATER, BONE), 0)
    put(state, spot(0, 3), card("Chicken", SUN, SUN, LEAF), 0)
    put(state, spot(1, 6), card("Octopus", WATER, LEAF, BONE), 1)
    put(state, TRACK, card("Frog", SUN, WATER, LEAF), 2)
    put(state, spot(2, 3), card("Fish", WATER, WATER, SUN), 2)
    put(state, TRACK + 1, card("Hedgehog", SUN, LEAF, BONE), 3)
    put(state, spot(3, 6), card("Mouse", SUN, LEAF, BONE), 3)
    put(state, spot(3, 3), card("Tiger", SUN, LEAF, BONE), 3)
    state._score()
    assert state.scores() == [16, 8, 17, 22]
    assert state.points["rows"] == [12, 6, 3, 9]
    assert state.points["empty"] == [4, 2, 1, 3]
    assert state.points["special"] == [0, 0, 13, 10]


def test_face_down_cards_score_nothing_then_turn_face_up():
    state = scripted()
    down = put(state, spot(0, 9), card("Shark", WATER, WATER, BONE), 0, face_down=True)
    put(state, spot(1, 9), card("Crab", BONE, BONE, WATER), 1)
    state._score()
    assert state.scores()[:2] == [0, 9 + 2]
    assert down.face_down is False


def test_lead_changes_count_the_scorings_after_which_the_leaders_differ():
    """Six scripted rounds; before each, the board holds just the cards named (one shift before scoring)."""
    state = scripted()
    rounds = [
        [(spot(0, 0), 0)],  # P0 row 3 + 3 empty: 6     totals 6, 0    leaders {P0} (first scoring: not counted)
        [(spot(1, 6), 1)],  # P1 row 9 + 3 empty: 12    totals 6, 12   leaders {P1}     change 1
        [(spot(0, 6), 0)],  # P0 row 9 + 3 empty: 12    totals 18, 12  leaders {P0}     change 2
        [(spot(1, 0), 1)],  # P1 row 3 + 3 empty: 6     totals 18, 18  leaders {P0, P1} change 3 (a tie)
        [],  # nobody scores                            totals 18, 18  leaders {P0, P1} no change
        [(spot(1, 0), 1)],  # P1 row 3 + 3 empty: 6     totals 18, 24  leaders {P1}     change 4
    ]
    totals = []
    for cards in rounds:
        state.spots = [None] * len(state.spots)
        for at, owner in cards:
            put(state, at, card(f"C{len(totals)}", SUN, SUN, SUN), owner)
        state.queue = []
        state._end_of_round()
        totals.append(state.scores()[:2])
    assert totals == [[6, 0], [6, 12], [18, 12], [18, 18], [18, 18], [18, 24]]
    assert not state.is_terminal()
    assert state.counters["lead_changes"] == 4
    assert state.stats()["lead_changes"] == 4.0


def test_round_end_tops_up_chips_moves_end_and_passes_start():
    state = scripted()
    put(state, spot(0, 0), card("A", SUN, SUN, SUN), 0)
    state.hands[1] = [1, 0, 0, 0]
    state.queue = []
    state._end_of_round()
    assert all(sum(h) == 12 for h in state.hands)
    assert (state.end, state.start, state.round) == (4, 1, 2)
    assert state.phase == "place" and state.current_player() == 1


def test_game_ends_when_a_column_is_empty_and_no_card_can_be_placed():
    state = scripted()
    for p in range(3):
        put(state, spot(p, 0), card(f"C{p}", SUN, SUN, SUN), p)
    state.piles = [[], [], [], []]
    state.five = [False, True, False, False]
    state.queue = []
    state._end_of_round()
    assert state.is_terminal() and state.legal_actions() == ()
    assert state.points["five"] == [0, 5, 0, 0]


def test_game_goes_on_while_cards_can_still_be_placed():
    state = scripted()
    state.queue = []
    state._end_of_round()  # every column is empty, but the piles still hold cards
    assert not state.is_terminal()


# --- 2 and 3 players -----------------------------------------------------------------------


def test_three_players_set_four_cards_aside_and_leave_a_column_unused():
    state = fresh(players=3)
    assert [len(p) for p in state.piles] == [6, 6, 6, 6] and len(state.set_aside) == 4
    assert state.used_columns == [0, 1, 2]
    state = scripted(players=3)
    put(state, spot(0, 9), card("A", SUN, SUN, SUN), 0)
    assert state.empty_spaces(3) == 2
    state = scripted(Rules(unused_column_empty=True), players=3)
    put(state, spot(0, 9), card("A", SUN, SUN, SUN), 0)
    assert state.empty_spaces(3) == 3


@pytest.mark.parametrize(("battles", "order"), [
    ("colours", [(0, 0), (1, 3), (0, 2), (1, 1)]),  # every outer colour's battle, then every inner one
    ("players", [(0, 0), (0, 2), (1, 3), (1, 1)]),  # each player's outer battle, then the same player's inner one
])
def test_two_players_run_two_columns_and_fight_outer_colour_first(battles, order):
    """"They start with their "outer" color group, then follow with the battle for their "inner" color
    group": for all players together, or player by player (`two_player_battles`)."""
    state = fresh(players=2)
    placed = []
    while state.phase == "place":
        action = state.legal_actions()[0]
        placed.append((state.current_player(), action.column))
        state.apply(action)
    assert placed == [(0, 0), (0, 2), (1, 3), (1, 1)] * 2
    state = scripted(Rules(two_player_battles=battles), players=2)
    for column in range(4):
        put(state, spot(column, 0), card(f"C{column}", SUN, WATER, LEAF), state.column_owner[column])
    state._begin_combat()
    seen = []
    while state.phase == "combat":
        seen.append((state.current_player(), state.queue[0][1]))
        assert all(state.spots[a.attacker].column == seen[-1][1] for a in state.legal_actions()[1:])
        state.apply(NO_FIGHT)
    assert seen == order


def test_two_players_game_ends_when_one_colour_column_is_empty():
    state = scripted(players=2)
    for column in (0, 1, 2):
        put(state, spot(column, 0), card(f"C{column}", SUN, SUN, SUN), state.column_owner[column])
    state.piles = [[], [], [], []]
    state.queue = []
    state._end_of_round()
    assert state.is_terminal()


def test_actions_read_like_a_play_by_play():
    assert repr(PlaceCard(1, 2, 3, card("Frog", SUN, WATER, LEAF))) == "PlaceCard(Frog from pile 1 -> column 2 row 3)"
    assert repr(SetChips(((SUN, 0), (BONE, 3)))) == "SetChips(sun->space 0, bone->space 3)"
    assert repr(Challenge(spot(1, 6), TRACK)) == "Challenge(c1r6 -> s0)"
    assert repr(Trade((WATER,))) == "Trade(water)"
    assert SYMBOLS[LEAF] == "leaf"


# --- marker stones -----------------------------------------------------------------


@pytest.mark.parametrize(("stones", "placed"), [(5, False), (6, True), (0, True)])
def test_a_colour_whose_marker_stones_all_mark_cards_places_no_card(stones, placed):
    """"marking the card at its edge with one of their marker stones": 5 stones of each colour, so a colour
    with 5 cards on the board (grid and special spaces) places none until a stone comes back (`marker_stones`;
    0: they never run out)."""
    state = scripted(Rules(marker_stones=stones))
    state.round, state.double_last = 2, False
    for at in (spot(0, 3), spot(0, 6), spot(0, 9), track_spot(0), track_spot(1)):
        put(state, at, (SUN, WATER, LEAF), 0)
    state._begin_placement()
    assert state.current_player() == (0 if placed else 1)
    assert state.stats()["no_stone"] == (0 if placed else 1)
    state.spots[track_spot(1)] = None  # the card on 10 leaves the board: its stone comes back
    state.start = 0
    state._begin_placement()
    assert state.current_player() == 0
