"""Whole random games: components conserved, stocks within bounds, six rounds, scores add up; the feeding
options against a brute-force enumeration."""

from collections import Counter
from itertools import product

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.actions import Feed
from tyrsim.games.tiny_epic_dinosaurs.feeding import feedings, fits
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

VARIANTS = [
    {},
    {"border": "open"},
    {"breed_group": 3, "injured_rancher": "stays"},
    {"rearrange_holding": True, "penalty_once_per": "phase"},
    {"private_contract_timing": "also_end_of_round", "fence_tokens": 6, "dinosaurs_per_kind": 5},
]


def check_invariants(state) -> None:
    rules = state.rules
    # newborns waiting for the player to give them an empty enclosure (Phase 6) are in the player's hand
    waiting = state.prompt.herd if state.prompt and state.prompt.kind == "house" else {}
    for kind in state.basic:
        on_ranches = sum(p.ranch.count(kind) + p.holding.count(kind) for p in state.players) + waiting.get(kind, 0)
        assert state.supply[kind] + on_ranches == rules.dinosaurs_per_kind, kind
        assert state.supply[kind] >= 0
    fences = state.fence_supply + sum(p.holding_fences + len(p.ranch.fences) for p in state.players)
    assert fences == rules.fence_tokens and state.fence_supply >= 0
    drawn = state.prompt.drawn if state.prompt and state.prompt.kind == "pick_research" else ()
    cards = [
        *state.research_deck,
        *state.research_display,
        *state.research_discard,
        *drawn,
        *(c for p in state.players for c in p.research),
    ]
    assert len(cards) == 22 and len({c.name for c in cards}) == 22
    contracts = [
        *state.contract_deck,
        *state.public_contracts,
        *(p.private for p in state.players if p.private),
        *(c for p in state.players for c in p.contracts),
    ]
    assert len(contracts) == 20 and len({c.name for c in contracts}) == 20
    for player in state.players:
        assert all(0 <= r <= rules.resource_cap for r in player.resources)
        uniques = [k for k in [*player.ranch.cells, *player.holding] if k and state.dinosaurs[k].unique]
        assert Counter(uniques) == Counter(c.name for c in player.research if c.dinosaur is not None)
        for cell, kind in enumerate(player.ranch.cells):
            if kind and not state.dinosaurs[kind].unique:
                assert state.layout.terrain[cell] == "grass"
        assert player.ranch.fences <= set(state.layout.fence_slots)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    variant=st.sampled_from(VARIANTS),
    greedy_seats=st.sets(st.integers(0, 3), max_size=2),
)
def test_random_games_keep_every_invariant(seed, players, variant, greedy_seats):
    rules = Rules.from_overrides(variant)
    game = SPEC.make_game(rules, players)
    rng = np.random.default_rng(seed)
    policies = [SPEC.make_policy("greedy" if seat in greedy_seats else "random") for seat in range(players)]
    state = game.new_state(rng)
    rounds_seen = {state.round}
    while not state.is_terminal():
        check_invariants(state)
        actions = state.legal_actions()
        assert len(actions) >= 2  # forced moves are taken by the engine
        state.apply(policies[state.current_player()].choose(state, rng))
        rounds_seen.add(state.round)
    check_invariants(state)
    assert rounds_seen == set(range(1, rules.rounds + 1))
    stats = state.stats()
    assert stats["rounds"] == rules.rounds
    for seat, score in enumerate(state.scores()):
        parts = state.score_parts(seat)
        assert score == sum(parts.values())
        assert score == sum(stats[f"points_{source}_p{seat}"] for source in parts)
        assert min(parts.values()) >= 0
    best = max(state.scores())
    assert state.scores()[state.winners()[0]] == best
    assert all(p.holding == [] and p.holding_fences == 0 for p in state.players)


def test_clone_is_independent_and_replays_identically():
    game = SPEC.make_game(Rules(), 3)
    rng = np.random.default_rng(9)
    state = game.new_state(rng)
    policy = SPEC.make_policy("random")
    for _ in range(60):
        state.apply(policy.choose(state, rng))
    copy = state.clone()
    before = (state.scores(), [list(p.ranch.cells) for p in state.players], state.fence_supply)
    first, second = np.random.default_rng(1), np.random.default_rng(1)
    while not copy.is_terminal():
        copy.apply(policy.choose(copy, first))
    assert (state.scores(), [list(p.ranch.cells) for p in state.players], state.fence_supply) == before
    while not state.is_terminal():
        state.apply(policy.choose(state, second))
    assert state.scores() == copy.scores() and state.stats() == copy.stats()


def maximal_feedings_by_brute_force(herd, diets, resources):
    """Every (kind, n) feeding that fits and leaves no unfed dinosaur that could still be fed, most fed first."""

    def need(counts):
        return tuple(sum(d[r] * n for d, n in zip(diets, counts, strict=True)) for r in range(3))

    found = []
    for counts in product(*(range(n, -1, -1) for _, n in herd)):
        leaf, meat, either = need(counts)
        if not fits((leaf, meat, either), resources):
            continue
        if any(
            counts[j] < n and fits((leaf + a, meat + b, either + c), resources)
            for j, ((_, n), (a, b, c)) in enumerate(zip(herd, diets, strict=True))
        ):
            continue
        found.append(Feed(tuple((kind, k) for (kind, _), k in zip(herd, counts, strict=True) if k)))
    return found


diet = st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 4), diet), min_size=1, max_size=4),
    st.tuples(st.integers(0, 13), st.integers(0, 13), st.integers(0, 13)),
)
def test_feeding_options_are_exactly_the_maximal_feedings(kinds, resources):
    herd = tuple((f"kind{i}", n) for i, (n, _) in enumerate(kinds))
    diets = tuple(d for _, d in kinds)
    assert feedings(herd, diets, resources) == maximal_feedings_by_brute_force(herd, diets, resources)
