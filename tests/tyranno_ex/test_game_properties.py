"""Whole Tyranno Ex games: invariants over random games (hypothesis) and reproducibility."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.policies import GreedyPolicy
from tyrsim.games.tyranno_ex.rules import Rules

MAX_ACTIONS = 5000  # far more than any game takes; a game that runs past it never ends

variants = st.fixed_dictionaries(
    {
        "majority_tie": st.sampled_from(["empty", "chooser", "no_change", "random"]),
        "majority": st.sampled_from(["most", "over_half"]),
        "five_count": st.sampled_from(["exact", "up_to"]),
        "track_tie_fight": st.sampled_from(["order_only", "full_effects"]),
        "after_track": st.sampled_from(["unlimited", "last_field", "none"]),
        "end_direction": st.sampled_from(["up", "down"]),
        "five_timing": st.sampled_from(["phase_end", "own_turn"]),
        "placement_order": st.sampled_from(["laps", "together"]),
        "die_gain": st.sampled_from(["completed", "any_change"]),
        "face_down_can_fight": st.booleans(),
        "double_shift": st.booleans(),
        "chips_per_symbol": st.sampled_from([21, 21, 5]),  # 5: the bag runs short
    }
)


def check_invariants(state, deck_size: int) -> None:
    chips = state.bag.total() + sum(sum(h) for h in state.hands) + state.env.chips_on_card()
    assert chips == 4 * state.rules.chips_per_symbol
    assert min(state.bag.chips) >= 0 and all(min(h) >= 0 for h in state.hands)
    assert all(min(p) >= 0 for p in state.env.potential) and min(state.env.current_count) >= 0
    for n, pot in zip(state.env.current_count, state.env.potential, strict=True):
        if not n:  # only a tie empties a space (`majority_tie = "empty"`), and it stays tied until a majority
            assert state.rules.majority_tie == "empty" and pot.count(max(pot)) > 1
    on_board = [bc for bc in state.spots if bc is not None]
    cards = sum(len(p) for p in state.piles) + len(state.set_aside) + len(on_board) + len(state.out)
    assert cards == deck_size
    names = [bc.card.name for bc in on_board] + [c.name for c in state.out]
    assert len(names) == len(set(names))  # no card in two places
    for bc in on_board:
        assert bc.die is None or 1 <= bc.die <= state.rules.max_strength


def play_checked(rules: Rules, players: int, seed: int, policies=None) -> object:
    game = make_game(rules, players)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    policies = policies or [RandomPolicy()] * players
    actions = 0
    while not state.is_terminal():
        check_invariants(state, 28)
        player = state.current_player()
        legal = state.legal_actions()
        assert legal and 0 <= player < players
        action = policies[player].choose(state, rng)
        assert action in legal
        state.apply(action)
        actions += 1
        assert actions < MAX_ACTIONS, "the game did not end"
    check_invariants(state, 28)
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), overrides=variants)
def test_random_games_conserve_components_and_end(seed, players, overrides):
    state = play_checked(Rules.from_overrides(overrides), players, seed)
    scores = state.scores()
    parts = state.stats()
    for p in range(players):
        total = sum(parts[f"points_{k}_p{p}"] for k in ("rows", "empty", "special", "five"))
        assert scores[p] == total  # the score is the sum of its parts
        assert parts[f"points_five_p{p}"] in (0, state.rules.five_points)
        assert parts[f"points_five_p{p}"] == state.rules.five_points * (1 - parts[f"five_used_p{p}"])
        # every card is counted once, with all it scored, by the row it entered
        by_card = parts[f"card_points_row0_p{p}"] + parts[f"card_points_row3_p{p}"]
        assert by_card == total - parts[f"points_five_p{p}"]
        assert parts[f"cards_entered_row0_p{p}"] + parts[f"cards_entered_row3_p{p}"] == parts[f"cards_placed_p{p}"]
    assert state.winners() and all(scores[w] == max(scores) for w in state.winners())
    assert parts["rounds"] >= 1 and parts["cascades"] <= parts["changes"]


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_greedy_games_conserve_components_and_end(seed, players):
    state = play_checked(Rules(), players, seed, [GreedyPolicy()] * players)
    assert state.is_terminal()


def test_same_seed_same_game():
    game = make_game(Rules(), 4)
    records = [play(game, [RandomPolicy()] * 4, np.random.default_rng(7)) for _ in range(2)]
    assert records[0].scores == records[1].scores and records[0].actions == records[1].actions


def test_clone_is_independent():
    state = make_game(Rules(), 4).new_state(np.random.default_rng(3))
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert sum(len(p) for p in state.piles) == 28 and sum(len(p) for p in copy.piles) == 27


def test_lead_changes_of_a_seeded_game_checked_by_hand():
    # the rules this game was checked under (the readings that were the defaults then)
    rules = Rules(majority_tie="chooser", special_space_holds="one", five_count="up_to", winner_without_die="earns_die",
                  marker_stones=0)
    state = make_game(rules, 4).new_state(np.random.default_rng(6))
    rng = np.random.default_rng(243)
    totals = []
    score = state._score

    def score_and_record():
        score()
        totals.append(state.scores())

    state._score = score_and_record
    while not state.is_terminal():
        state.apply(RandomPolicy().choose(state, rng))
    # leaders after each scoring: P1 and P3 tied (first scoring), P1 (change 1), P3 (change 2),
    # P2 (change 3), P3 (change 4), P3 (no change)
    assert totals == [[0, 12, 7, 12], [0, 31, 22, 24], [11, 41, 42, 43], [15, 45, 67, 62], [26, 63, 81, 92],
                      [26, 90, 88, 109]]  # fmt: skip
    assert state.stats()["lead_changes"] == 4


def test_legal_actions_are_immutable_and_shared():
    # a list of actions is cached per hand of chips and served to every state that asks: a tuple, so
    # no state or policy can change another's options
    game = make_game(Rules(), 4)
    rng = np.random.default_rng(11)
    state, phases = game.new_state(rng), set()
    while not state.is_terminal():
        legal = state.legal_actions()
        assert isinstance(legal, tuple), state.phase
        phases.add(state.phase)
        if state.phase == "environment":
            assert state.clone().legal_actions() is legal  # the same position asks for the same cached tuple
        state.apply(RandomPolicy().choose(state, rng))
    assert {"place", "environment", "combat"} <= phases
    assert state.legal_actions() == ()


def test_an_action_of_another_game_is_refused_with_the_actions_allowed():
    state = make_game(Rules(), 4).new_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"not a Tyranno Ex action: 'draw'; the actions are PlaceCard, .*, NoFight"):
        state.apply("draw")
