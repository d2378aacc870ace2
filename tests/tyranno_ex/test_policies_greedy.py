"""Tyranno Ex policies: parsing, sensible choices in scripted states, and no peeking at hidden chips."""

from __future__ import annotations

import numpy as np
import pytest

from tyrsim.core.engine.runner import play
from tyrsim.core.engine.weights import defaults, tunable, write_weights
from tyrsim.games.tyranno_ex import SPEC
from tyrsim.games.tyranno_ex.actions import NO_FIGHT, PASS, Challenge, PlaceCard, SetChips, UseFive
from tyrsim.games.tyranno_ex.board import TRACK, BoardCard
from tyrsim.games.tyranno_ex.cards import Card
from tyrsim.games.tyranno_ex.combat import odds
from tyrsim.games.tyranno_ex.environment import Environment
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.heuristics import chance_table
from tyrsim.games.tyranno_ex.policies import AggressivePolicy, BuilderPolicy, GreedyPolicy
from tyrsim.games.tyranno_ex.rules import Rules

SUN, WATER, LEAF, BONE = range(4)
RNG = np.random.default_rng(0)


def scripted(players: int = 4, rules: Rules | None = None):
    state = make_game(rules or Rules(), players).new_state(np.random.default_rng(0))
    state.spots = [None] * len(state.spots)
    state.env = Environment([SUN, SUN, SUN, SUN])
    return state


def put(state, spot: int, symbols: tuple[int, ...], owner: int, die: int | None = None) -> None:
    state.spots[spot] = BoardCard(Card(f"card{spot}", symbols), owner, spot // 4 if spot < TRACK else owner, die)


def test_policies_are_registered_and_parse_parameters():
    assert set(SPEC.policies) == {"random", "greedy", "aggressive", "builder", "ismcts"}
    policy = SPEC.make_policy("greedy:attack_weight=0.8,fight_margin=1")
    assert policy == GreedyPolicy(attack_weight=0.8, fight_margin=1.0)
    assert SPEC.make_policy("builder").name == "builder"


def test_chance_table_matches_the_combat_odds():
    table = chance_table(Rules())
    assert table[6, 5, 1, 0].tolist() == [1.0, 0.0, 0.0, 0.0]  # certain hits against no dice
    assert table[1, 0, 1, 0].sum() == 0  # can never end
    assert table[3, 4, 2, 6].sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="read-only"):  # one table serves every policy: nobody may change it
        table[1, 0, 1, 0, 0] = 1.0


@pytest.mark.parametrize("changes", [{"tie_rule": "defender", "rounds_to_win": 3}, {"die_faces": 8, "max_dice": 12}])
def test_chance_table_is_kept_per_set_of_fight_rules(changes):
    # rule sets that differ only off the battlefield share one table; a fight rule gives its own, read
    # straight from the combat odds of the full rule set
    off_the_battlefield = {"chips_per_player": 9, "five_points": 7}
    assert chance_table(Rules(**off_the_battlefield)) is chance_table(Rules())
    rules = Rules(**changes, **off_the_battlefield)
    table = chance_table(rules)
    r = rules.rounds_to_win
    for matchup in ((3, 4, 2, 6), (5, 2, 1, 7), (2, 9, 4, 3)):
        row = odds(*matchup, rules=rules).iloc[0]
        wins = [row[f"p_attacker_{r}_{k}"] for k in range(r)]
        losses = [row[f"p_defender_{r}_{k}"] for k in reversed(range(r))]
        expected = [wins[0], sum(wins[1:]), sum(losses[:-1]), losses[-1]]
        assert table[matchup].tolist() == pytest.approx(expected)


def test_greedy_places_the_card_that_survives():
    state = make_game(Rules(), 4).new_state(np.random.default_rng(0))
    state.env = Environment([SUN, SUN, WATER, WATER])
    state.piles = [[Card("Dies", (LEAF, LEAF, BONE))], [Card("Lives", (SUN, SUN, WATER))],
                   [Card("Dies too", (BONE, BONE, LEAF))], []]  # fmt: skip
    action = GreedyPolicy().choose(state, RNG)
    assert isinstance(action, PlaceCard) and action.pile == 1


def test_greedy_sets_a_chip_to_save_its_card_and_passes_when_nothing_helps():
    state = scripted()
    put(state, 0, (WATER, WATER, LEAF), 0)  # dies under four suns
    state.phase, state.player, state.move = "environment", 0, 4
    state.hands[0] = [0, 2, 0, 0]
    action = GreedyPolicy().choose(state, RNG)
    assert isinstance(action, SetChips) and all(s == WATER for s, _ in action.chips)
    state.hands[0] = [2, 0, 0, 0]  # only suns: nothing to gain, and no trading after round 3
    assert GreedyPolicy().choose(state, RNG) == PASS


@pytest.mark.parametrize("policy", [GreedyPolicy(), AggressivePolicy(), BuilderPolicy()], ids=lambda p: p.name)
def test_greedy_uses_the_five_marker_on_its_own_turn(policy):
    # saving three cards is worth far more than the marker's 5 points: the marker goes first, and the
    # turn's own action still follows (the identical SetChips used to win the tie for the best value)
    state = scripted(rules=Rules(five_timing="own_turn"))
    for at in (0, 1, 2):
        put(state, at, (WATER, WATER, LEAF), 0)  # die under four suns
    state.phase, state.player, state.move = "environment", 0, 4
    state.hands[0] = [0, 4, 0, 0]
    action = policy.choose(state, RNG)
    assert isinstance(action, UseFive) and all(s == WATER for s, _ in action.chips)
    state.apply(action)
    assert state.current_player() == 0 and not any(isinstance(a, UseFive) for a in state.legal_actions())
    state.hands[0] = [4, 0, 0, 0]
    state.five[0] = True
    state.spots = [None] * len(state.spots)  # nothing to save: the marker is kept for its 5 points
    assert not isinstance(policy.choose(state, RNG), UseFive)


def test_greedy_policies_use_the_five_marker_in_own_turn_games():
    game = make_game(Rules(five_timing="own_turn"), 4)
    policies = [GreedyPolicy(), AggressivePolicy(), BuilderPolicy(), GreedyPolicy()]
    records = [play(game, policies, np.random.default_rng(seed)) for seed in range(3)]
    used = sum(record.stats[f"five_used_p{p}"] for record in records for p in range(4))
    assert used >= 3  # 0 before the fix; under the default timing they use it in 70-95% of games


def test_greedy_fights_a_sure_win_and_avoids_a_sure_loss():
    state = scripted()
    put(state, 0, (SUN, SUN, SUN), 0, die=6)  # 12 dice hitting on anything
    put(state, 4 + 3, (SUN, WATER, LEAF), 1)  # 4 dice hitting on a 1, row 9: worth a lot
    state.phase, state.player, state.queue = "combat", 0, [(0, -1)]
    assert GreedyPolicy().choose(state, RNG) == Challenge(0, 7)
    state.spots[0].die, state.spots[7].die = 1, 6
    state.spots[0].card = Card("weak", (WATER, WATER, LEAF))  # no dice at all now
    state.spots[7].card = Card("strong", (SUN, SUN, SUN))
    assert GreedyPolicy().choose(state, RNG) == NO_FIGHT


def test_aggressive_fights_where_builder_does_not():
    state = scripted()
    state.env = Environment([SUN, SUN, WATER, LEAF])
    put(state, 1, (SUN, WATER, LEAF), 0)
    put(state, 4 + 1, (SUN, WATER, LEAF), 1)
    state.phase, state.player, state.queue = "combat", 0, [(0, -1)]
    assert isinstance(AggressivePolicy().choose(state, RNG), Challenge)  # an even fight
    assert BuilderPolicy().choose(state, RNG) == NO_FIGHT


@pytest.mark.parametrize("name", ["greedy", "aggressive", "builder"])
def test_choices_ignore_hidden_information(name):
    """Other hands, face-down chip symbols and the piles below the face-up cards never change a choice."""
    policy = SPEC.make_policy(name)
    rng = np.random.default_rng(4)
    state = make_game(Rules(), 4).new_state(rng)
    checked = 0
    while not state.is_terminal() and checked < 60:
        other = state.clone()
        me = state.current_player()
        for p in range(4):
            if p != me:
                other.hands[p] = list(np.roll(other.hands[p], 1))
        for space in range(4):
            other.env.potential[space] = list(np.roll(other.env.potential[space], 1))
        for pile in other.piles:
            pile[:-1] = pile[:-1][::-1]
        if state.phase != "tie":  # tied face-down chips are revealed to everyone
            assert policy.choose(other, rng) == policy.choose(state, rng)
            checked += 1
        state.apply(policy.choose(state, rng))


@pytest.mark.parametrize("name", ["greedy", "aggressive", "builder"])
def test_tunable_weights_are_float_fields_with_the_defaults_inside_their_ranges(name, tmp_path):
    cls = SPEC.policies[name]
    ranges = tunable(cls)
    assert set(ranges) == {"attack_weight", "fight_margin", "dice_weight", "invest_weight", "die_bonus"}
    for weight, value in defaults(cls).items():
        low, high = ranges[weight]
        assert isinstance(value, float) and low < high and low <= value <= high
    path = tmp_path / f"{name}.toml"
    write_weights(path, "tyranno-ex", name, {"attack_weight": 0.9, "die_bonus": 5.0}, {})
    policy = SPEC.make_policy(f"{name}:weights={path},die_bonus=4")
    assert (policy.attack_weight, policy.die_bonus, policy.name) == (0.9, 4.0, name)
