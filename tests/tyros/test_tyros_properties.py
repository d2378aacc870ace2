"""Invariants over whole random games: components conserved, limits respected, games end, scores add up."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.policies import GreedyPolicy, PlannerPolicy
from tyrsim.games.tyros.rules import Rules

POLICIES = {"random": RandomPolicy(), "greedy": GreedyPolicy(), "planner": PlannerPolicy()}
MAX_ACTIONS = 20_000


def check_invariants(state):
    rules, board = state.rules, state.board
    # 60 commerce cards: draw pile + discard pile + hands, never negative
    piles = [state.deck, state.discard, *state.hands]
    assert all(count >= 0 for pile in piles for count in pile)
    assert sum(sum(pile) for pile in piles) == 4 * rules.cards_per_colour + rules.wild_cards
    # tiles: every tile in play is on the board, in a hand or in the pile, exactly once
    held = state.tile_pile + [t for hand in state.tile_hands for t in hand]
    assert len(held) == len(set(held))
    assert not any(state.chips[t] >= 0 for t in held)
    assert sorted(held + [s for s in board.tiles if state.chips[s] >= 0]) == sorted(board.tiles)
    # cities: one marker per space at most (a list), only on empire spaces, within each player's supply
    for p in range(state.n):
        assert sum(owner == p for owner in state.cities) <= rules.cities_per_player
        assert len(state.ships[p]) <= rules.ships_per_player
    assert all(state.chips[s] >= 0 for s, owner in enumerate(state.cities) if owner >= 0)
    # ships: at most two per space, except each player's two in Tyros while it has no city
    for space in board.spaces if rules.ship_limit_on_build else ():
        counts = state.ships_at(space)
        if space == TYROS and state.cities[TYROS] < 0:
            assert max(counts) <= rules.tyros_ships_per_player
        else:
            assert sum(counts) <= rules.ships_per_space
    # empire chips: no colour has more on the board than the box holds
    assert all(state.chips.count(e) <= rules.chips_per_empire for e in range(4))
    # Tyros takes the colour of an empire next to it
    if state.chips[TYROS] >= 0:
        assert any(state.chips[s] == state.chips[TYROS] for s in board.land[TYROS])


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([3, 4]),
    setup=st.sampled_from(["first-game", "variable"]),
    names=st.lists(st.sampled_from(sorted(POLICIES)), min_size=4, max_size=4),
    rulings=st.fixed_dictionaries({
        "ships_pass_unclaimed": st.booleans(),
        "tyros_extends_empire": st.booleans(),
        "tyros_counts_for_size": st.booleans(),
        "ship_limit_on_build": st.booleans(),
        "chips_per_empire": st.sampled_from([20, 7]),
    }),
)
def test_random_games_keep_every_invariant_and_end(seed, players, setup, names, rulings):
    game = TyrosGame(Rules(setup=setup, **rulings), players)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    policies = [POLICIES[name] for name in names[:players]]
    actions = 0
    last_round = state.round
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        assert legal
        action = policies[player].choose(state, rng)
        assert action in legal
        state.apply(action)
        actions += 1
        assert actions < MAX_ACTIONS, "game did not end"
        assert state.round >= last_round
        last_round = state.round
        check_invariants(state)
    # the game ended because a player ran out of tiles, or no tile left can ever be played
    assert any(not hand for hand in state.tile_hands) or state.stalled()
    assert state.current_player() == -1 and state.legal_actions() == []
    # scores add up: each total is the sum of its parts, and the stats agree
    parts = state.final_scores()
    stats = state.stats()
    for p, score in enumerate(parts):
        assert score.total == score.city_points + score.ship_points + score.all_empires_bonus + score.most_cities_bonus
        assert sum(score.per_empire) == score.total - score.all_empires_bonus
        parts_in_stats = stats[f"city_points_p{p}"] + stats[f"ship_points_p{p}"] + stats[f"bonus_points_p{p}"]
        assert state.scores()[p] == parts_in_stats
    assert sum(s.all_empires_bonus > 0 for s in parts) <= 1
    assert state.winners() and max(state.scores()) == max(state.scores()[w] for w in state.winners())


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]))
def test_clone_is_independent(seed, players):
    state = TyrosGame(Rules(), players).new_state(np.random.default_rng(seed))
    copy = state.clone()
    rng = np.random.default_rng(seed)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(RandomPolicy().choose(state, rng))
    assert copy.round == 1 and sum(c >= 0 for c in copy.chips) in (4, 5)
    check_invariants(copy)
