"""Tyros search: determinizations sample only what the searcher cannot see, clones are independent,
and `ismcts` never peeks."""

import dataclasses
from collections import Counter

import numpy as np
import pytest
from tyros_positions import scrambled

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.games.tyros import SPEC
from tyrsim.games.tyros.components import CARD_KINDS, full_deck
from tyrsim.games.tyros.game import OFFER, TyrosGame, TyrosState
from tyrsim.games.tyros.policies import PLANNER, IsmctsPolicy, PlannerPolicy, Position
from tyrsim.games.tyros.rules import Rules

SEARCH = IsmctsPolicy(iterations=30, rollout_depth=2)


def hidden(state, player):
    """What `player` cannot see: the other hands, both piles (with their order) and the tile hands."""
    return ([state.hands[p] for p in range(state.n) if p != player], state.deck,
            [state.tile_hands[p] for p in range(state.n) if p != player], state.tile_pile)


def positions(count, seed=0, every=7):
    """Decisions with a choice from real games of planners, every `every`-th of them, in every phase."""
    game = TyrosGame(Rules(), 4)
    rng = np.random.default_rng(seed)
    state, out, seen = game.new_state(rng), [], 0
    while len(out) < count:
        if state.is_terminal():
            state = game.new_state(rng)
        if len(state.legal_actions()) > 1:
            seen += 1
            if seen % every == 0:
                out.append(state.clone())
        state.apply(PlannerPolicy().choose(state, rng))
    return out


def test_determinize_keeps_what_the_player_sees_and_conserves_cards_and_tiles():
    phases = Counter()
    for k, state in enumerate(positions(200, every=2)):
        player = state.current_player()
        world = state.determinize(player, np.random.default_rng(k))
        phases[state.phase] += 1
        assert world.view(player) == state.view(player)
        assert world.legal_actions() == state.legal_actions()
        # the unseen cards and tiles are the same multisets, only dealt afresh
        cards = [sum(h[k] for h in [world.deck, *world.hands]) for k in range(CARD_KINDS)]
        assert [c + d for c, d in zip(cards, world.discard, strict=True)] == full_deck(
            state.rules.cards_per_colour, state.rules.wild_cards)
        unseen = sorted(state.tile_pile + [t for p in range(4) if p != player for t in state.tile_hands[p]])
        assert sorted(world.tile_pile + [t for p in range(4) if p != player for t in world.tile_hands[p]]) == unseen
        if state.phase == OFFER:  # an offer's cards are on the table: the offerer keeps them
            give = Counter(state.offer.give)
            assert all(world.hands[state.actor][k] >= n for k, n in give.items())
            for p in state.offer.accepted:  # and those who accepted keep the cards asked for
                assert all(world.hands[p][k] >= n for k, n in Counter(state.offer.get).items())
    assert set(phases) >= {"expand", "actions", "offer", "keep"}


def test_determinize_samples_the_hidden_and_reads_none_of_it():
    changed = 0
    for k, state in enumerate(positions(12)):
        player = state.current_player()
        other = scrambled(state, player, np.random.default_rng(100 + k))
        a, b = state.determinize(player, np.random.default_rng(k)), other.determinize(player, np.random.default_rng(k))
        assert hidden(a, player) == hidden(b, player)  # the sample depends on what is visible only
        assert a.rng.integers(2**62) == b.rng.integers(2**62)  # its chance generator comes from the search's
        c = state.determinize(player, np.random.default_rng(k + 1))
        changed += hidden(c, player) != hidden(a, player)
    assert changed >= 10  # another seed, another sample


def test_determinize_draws_its_chance_from_the_search_generator():
    """A determinization's deals and swaps come from the search's generator, never the real game's."""
    state = positions(1)[0]
    search = np.random.default_rng(0)
    world = state.determinize(state.current_player(), search)
    assert world.rng is search
    draws = [int(world.rng.integers(1_000_000)) for _ in range(5)]
    assert draws != [int(state.clone().rng.integers(1_000_000)) for _ in range(5)]
    assert draws != [int(state.rng.integers(1_000_000)) for _ in range(5)]


def test_ismcts_chooses_the_same_whatever_it_cannot_see():
    for k, state in enumerate(positions(20)):
        player = state.current_player()
        other = scrambled(state, player, np.random.default_rng(100 + k))
        chosen = SEARCH.reference_choice(state, np.random.default_rng(k))  # the Python search: the reference
        assert chosen == SEARCH.reference_choice(other, np.random.default_rng(k))


def test_a_peeking_determinization_is_caught(monkeypatch):
    """The no-peek check above can fail: a 'determinization' that keeps the true hidden cards and tiles."""
    monkeypatch.setattr(TyrosState, "determinize", lambda self, player, rng: self.copy_with_chance(
        int(rng.integers(2**63))))
    differ = 0
    for k, state in enumerate(positions(20)):
        player = state.current_player()
        other = scrambled(state, player, np.random.default_rng(100 + k))
        chosen = SEARCH.reference_choice(state, np.random.default_rng(k))
        differ += chosen != SEARCH.reference_choice(other, np.random.default_rng(k))
    assert differ >= 1


def test_clone_is_independent_and_draws_its_own_cards():
    state = positions(1, every=20)[0]
    before = (repr(state), state.view(0), state.legal_actions(), hidden(state, 0), state.stats())
    copy = state.clone()
    rng = np.random.default_rng(1)
    for _ in range(200):  # through card deals and swaps with the draw pile
        if copy.is_terminal():
            break
        copy.apply(RandomPolicy().choose(copy, rng))
    assert copy.round > state.round
    assert (repr(state), state.view(0), state.legal_actions(), hidden(state, 0), state.stats()) == before
    # the clone's chance generator is its own, made on its first draw: the original's draws are not foreseen
    fresh = state.clone()
    assert [fresh.rng.integers(2**62) for _ in range(3)] != [state.rng.integers(2**62) for _ in range(3)]


def test_leaf_evaluation_is_win_shares_led_by_the_best_placed_player():
    for state in positions(8):
        values = SEARCH.evaluate(state)
        planner = PLANNER.values(state)  # the search's planner: the tuned weights
        assert len(values) == 4 and all(0 < v < 1 for v in values) and sum(values) == pytest.approx(1)
        assert np.argmax(values) == np.argmax(planner)
        # the player's own value here is what the planner would value with its own view
        p = state.current_player()
        assert planner[p] == pytest.approx(PLANNER.value(state, Position.of(state, p), p))


def test_ismcts_is_registered_reproducible_and_validated():
    policy = SPEC.make_policy("ismcts:iterations=20,rollout=greedy,rollout_depth=3")
    assert isinstance(policy, IsmctsPolicy) and policy.rollout == "greedy"
    state = positions(1)[0]
    assert policy.choose(state, np.random.default_rng(5)) == policy.choose(state.clone(), np.random.default_rng(5))
    with pytest.raises(ValueError, match="temperature"):
        IsmctsPolicy(temperature=0)
    with pytest.raises(ValueError, match="rollout"):
        IsmctsPolicy(rollout="nonsense")


def test_planner_declares_its_tunable_weights():
    fields = dataclasses.asdict(PlannerPolicy())
    assert set(PlannerPolicy.tunable) == {"city_hope", "tyros_ship", "needed_card", "spare_card", "bonus_hope"}
    for name, (low, high) in PlannerPolicy.tunable.items():
        assert isinstance(fields[name], float) and 0 <= low < fields[name] < high


def test_the_search_plans_with_the_tuned_weights():
    """The search's planner (leaf evaluation and planner rollouts) is the planner with the bundled tuned weights."""
    tuned = SPEC.make_policy("planner:weights=bundled:planner_tuned.toml")
    assert PLANNER == tuned and PLANNER != PlannerPolicy()
    assert IsmctsPolicy.rollouts["planner"]() is PLANNER
