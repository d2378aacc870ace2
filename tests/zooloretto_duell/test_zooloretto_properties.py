"""Whole random games: components conserved, no negative stocks, every game ends, scores add up."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play, simulate
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.game import DONATION, OVER, ZooGame, ZooState
from tyrsim.games.zooloretto_duell.rules import Rules


def all_cards(state: ZooState) -> list:
    """Every card wherever it lies: the 61 of the game."""
    cards = state.pile + state.discard + state.queue + [c for t in state.trucks for c in t]
    cards += [c for zoo in state.pens for pen in zoo for c in pen] + state.stands[0] + state.stands[1]
    cards += [c for c in state.offspring.values() if c is not None]
    cards += [state.drawn] if state.drawn is not None else []
    cards += [state.game.final_card] if state.final_card_aside else []
    return cards


def check_invariants(state: ZooState) -> None:
    cards = all_cards(state)
    assert len(cards) == 61 and len({c.id for c in cards}) == 61
    assert min(state.coins) >= 0 and min(state.minus) >= 0
    for t in state.taken:  # a taken truck stands in front of its player: nothing is connected to it
        assert t is None or t == -1 or not state.trucks[t]
    assert all(reached for scored, reached in zip(state.scored, state.target_reached, strict=True) if scored)
    markers_won = len(state.won[0]) + len(state.won[1])
    assert markers_won == sum(state.scored) + state.vending_scored  # each species scored at most once
    # the scoring markers are conserved: each is won or still in the stockpile
    assert sorted(map(repr, state.won[0] + state.won[1] + state.markers)) == sorted(
        repr(m) for m in state.game.markers if not (m.final_round and state.final_marker_aside)
    )
    assert markers_won + len(state.markers) + state.final_marker_aside == 8
    assert state.pending_check == -1 or state.phase == DONATION  # a check waits only for a donation
    if state.rules.steal_triggers_symbols:  # a third card with the same symbol never stays
        for zoo in state.pens:
            for pen in zoo:
                symbols = [c.symbol for c in pen if c.symbol]
                assert all(symbols.count(s) <= 2 for s in symbols)
    for stands in state.stands:
        assert all([c.symbol for c in stands].count(s) <= 2 for s in range(3))


rule_variants = st.fixed_dictionaries(
    {
        "expert": st.booleans(),
        "steal_triggers_symbols": st.booleans(),
        "one_square_per_turn": st.booleans(),
        "symbol_before_scoring": st.booleans(),
        "marker_order": st.sampled_from(["shuffled", "printed"]),
        "symbols_file": st.sampled_from(["", "bundled:symbols_two_each.toml"]),
        "stands_file": st.sampled_from(["", "bundled:stands_by_colour.toml"]),
        "final_round_card_depth": st.integers(0, 12),
        "starting_coins": st.integers(0, 4),
    }
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), overrides=rule_variants)
def test_random_games_keep_every_invariant(seed, overrides):
    game = ZooGame(Rules.from_overrides(overrides))
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    policy = RandomPolicy()
    for _ in range(2000):
        check_invariants(state)
        if state.is_terminal():
            break
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions)
        state.apply(policy.choose(state, rng))
    assert state.is_terminal() and state.phase == OVER and state.current_player() == -1
    assert state.end_trigger in ("card", "marker", "pile")
    for p in range(2):
        parts = state.score_parts(p)
        assert (
            parts["score"]
            == parts["marker_points"] + parts["majority_points"] + parts["coin_points"] - parts["minus_points"]
        )
        assert parts["score"] == state.scores()[p]
    winners = state.winners()
    assert winners and all(state.scores()[w] == max(state.scores()) for w in winners)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_policy_games_keep_every_invariant(seed):
    game = ZooGame(Rules(expert=True))
    policies = [SPEC.make_policy("heuristic"), SPEC.make_policy("greedy")]
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    while not state.is_terminal():
        check_invariants(state)
        action = policies[state.current_player()].choose(state, rng)
        assert action in state.legal_actions()
        state.apply(action)
    check_invariants(state)


def test_same_seed_same_games():
    first = simulate(SPEC, Rules(), ["random", "greedy"], 60, seed=11)
    again = simulate(SPEC, Rules(), ["random", "greedy"], 60, seed=11)
    other = simulate(SPEC, Rules(), ["random", "greedy"], 60, seed=12)
    assert first.equals(again)
    assert not first["score"].equals(other["score"])


def test_game_log_reads_like_a_play_by_play():
    lines: list[str] = []
    game = ZooGame(Rules())
    play(game, [RandomPolicy(), RandomPolicy()], np.random.default_rng(2), log=lines.append)
    assert lines[0] == "P0: draw the top card"
    assert lines[1].startswith("P0: connect ") and "to truck" in lines[1]
    assert any("take truck" in line for line in lines)


def test_clone_is_equal_and_independent():
    game, rng = ZooGame(Rules(expert=True)), np.random.default_rng(8)
    state = game.new_state(rng)
    for _ in range(60):
        state.apply(RandomPolicy().choose(state, rng))
    copy = state.clone()
    for name in ZooState.__slots__:
        assert getattr(copy, name) == getattr(state, name), name
    before = (repr(state), state.phase, state.pile[:], [c[:] for c in state.counts])
    for _ in range(10):
        copy.apply(RandomPolicy().choose(copy, rng))
    assert (repr(state), state.phase, state.pile, state.counts) == before
    assert (repr(copy), copy.phase, copy.pile, copy.counts) != before
