"""The compiled greedy policies value every action as the object policies do and choose what they choose.

Positions come from random games played on both engines side by side (the same seed gives the
same game: tests/tiny_epic_dinosaurs/test_compiled_engine.py). At every decision each of the four
greedy policies (greedy, hunter, breeder, contractor, and one with every weight changed) values
the legal actions in both forms: the values must be equal to the last bit, and the choice, made
with same-seed generators, the same. Whole games of the greedy policies through both
`play_chunk`s must give equal tables, and a compiled policy's values must not change when what
its player cannot see (the decks, the other player's private contract) changes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs import compiled as C
from tyrsim.games.tiny_epic_dinosaurs.compiled_policies import (
    GREEDY,
    choose,
    choose_random,
    compiled_form,
    greedy_values,
)
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

POLICIES = ("greedy", "hunter", "breeder", "contractor",
            "contractor:dinosaur_weight=1.3,food_cost=0.7,breed_bonus=0.9,contract_match=0.4,draw_value=3.1,"
            "fence_weight=1.7,resource_weight=0.25,first_player_value=1.1,owner_cost=0.2,rancher_cost=0.45,"
            "hunt_weight=1.6,research_weight=0.9,contract_weight=1.2")
POSITIONS = 2_500  # decisions of random games, each valued by every policy (10,000 in the exhaustive run)
MANY_POSITIONS = 10_000


def decisions(rules: Rules, seeds: range):
    """(object state, compiled position, tables, workspace) at every decision of random games on both engines."""
    game, tables = SPEC.make_game(rules, 2), C.rule_tables(rules, 2)
    policy = RandomPolicy()
    for seed in seeds:
        object_rng, bits = np.random.default_rng(seed), np.random.default_rng(seed).bit_generator
        state = game.new_state(object_rng)
        position, workspace = C.new_position(), C.new_workspace()
        C.set_up(position, tables, bits, workspace)
        while not state.is_terminal():
            yield state, position, tables, workspace
            action = policy.choose(state, object_rng)
            i = choose_random(bits, workspace[0])
            state.apply(action)
            C.play_action(position, tables, bits, workspace, i)


def compiled_values(form, position, tables, workspace) -> np.ndarray:
    work = workspace[0]
    greedy_values(form[1][0], position[0], tables[0], work, work["count"])
    return work["values"][: work["count"]].copy()


@pytest.mark.parametrize("positions", [POSITIONS, pytest.param(MANY_POSITIONS, marks=pytest.mark.exhaustive)])
def test_the_greedy_policies_value_and_choose_as_the_object_policies(positions):
    objects = [SPEC.make_policy(text) for text in POLICIES]
    forms = [compiled_form(policy) for policy in objects]
    assert all(form[0] == GREEDY for form in forms)
    seen, kinds = 0, set()
    for state, position, tables, workspace in decisions(Rules(), range(1000)):
        kinds.add(state.prompt.kind)
        for policy, form in zip(objects, forms, strict=True):
            expected = policy.values(state)
            assert np.array_equal(compiled_values(form, position, tables, workspace), expected), (
                policy, state.prompt, state.legal_actions())
        seed = seen
        policy, form = objects[seed % len(objects)], forms[seed % len(forms)]
        chosen = choose(form[0], form[1][0], position[0], tables[0], np.random.default_rng(seed).bit_generator,
                        workspace[0])
        assert state.legal_actions()[chosen] == policy.choose(state, np.random.default_rng(seed))
        seen += 1
        if seen >= positions:
            break
    assert seen >= positions
    # every kind of decision was valued (the feeding and penalty ones are rare but reached)
    assert {"assign", "take_research", "pick_research", "rearrange", "place_fence", "enclose", "feed",
            "lose_fence", "lose_dinosaur"} <= kinds


@pytest.mark.parametrize("overrides", [{}, {"border": "fence", "research_file": "bundled:research_no_abilities.toml"},
                                       {"breed_group": 1, "dinosaurs_per_kind": 4}])
def test_whole_greedy_games_are_the_object_engines(overrides):
    rules = Rules.from_overrides(overrides)
    for policies in (["hunter", "breeder"], ["contractor", "random"], ["greedy", POLICIES[-1]]):
        compiled = SPEC.compiled.play_chunk(rules, policies, 0, 30, np.random.default_rng(4))
        game = SPEC.make_game(rules, 2)
        reference = object_chunk(game, policies, [SPEC.make_policy(p) for p in policies], 0, 30,
                                 np.random.default_rng(4))
        pd.testing.assert_frame_equal(compiled, reference)


def test_three_and_four_player_greedy_games():
    for policies in (["hunter", "breeder", "contractor"], ["greedy", "hunter", "random", "contractor"]):
        compiled = SPEC.compiled.play_chunk(Rules(), policies, 0, 15, np.random.default_rng(6))
        game = SPEC.make_game(Rules(), len(policies))
        reference = object_chunk(game, policies, [SPEC.make_policy(p) for p in policies], 0, 15,
                                 np.random.default_rng(6))
        pd.testing.assert_frame_equal(compiled, reference)


def test_what_the_player_cannot_see_changes_nothing():
    """Swap the decks' order, the other player's private contract and the drawn cards' place in the deck: the
    values of every policy stay the same."""
    forms = [compiled_form(SPEC.make_policy(text)) for text in POLICIES]
    rng = np.random.default_rng(9)
    checked = 0
    for _state, position, tables, workspace in decisions(Rules(), range(40)):
        before = [compiled_values(form, position, tables, workspace) for form in forms]
        pos = position[0]
        me = int(pos["prompt_player"])
        hidden = position.copy()
        h = hidden[0]
        deck = h["contract_deck"][: h["contract_deck_size"]]
        other = 1 - me
        if len(deck) and h["private"][other] != C.NONE:
            # the other player's private contract trades places with a card of the contract deck
            j = rng.integers(len(deck))
            deck[j], h["private"][other] = h["private"][other], deck[j]
            rng.shuffle(deck)
        research = h["research_deck"][: h["research_deck_size"]]
        rng.shuffle(research)
        after = [compiled_values(form, hidden, tables, workspace) for form in forms]
        assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
        checked += 1
    assert checked > 1000


def test_no_compiled_form_for_the_search():
    assert compiled_form(SPEC.make_policy("ismcts")) is None
