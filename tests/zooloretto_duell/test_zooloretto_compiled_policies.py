"""The compiled policies make the object policies' decisions.

The heuristic's decision is compared on positions from random games (the default weights,
the bundled tuned weights and the expert variant's discard decision); the greedy policy's,
drawing its tie-break from generators of the same seed. Whole games between the policies
through both engines' `play_chunk` give equal tables on every rule set.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_zooloretto_compiled_engine import RULE_SETS, rules_of

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.core.engine.weights import weight_names
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell import compiled as C
from tyrsim.games.zooloretto_duell.compiled_policies import (
    GREEDY,
    HEURISTIC,
    WEIGHT_RECORD,
    choose,
    compiled_form,
    margin,
    new_workspace,
)
from tyrsim.games.zooloretto_duell.evaluation import margin as object_margin
from tyrsim.games.zooloretto_duell.game import ZooGame
from tyrsim.games.zooloretto_duell.policies import HeuristicPolicy
from tyrsim.games.zooloretto_duell.rules import Rules
from tyrsim.games.zooloretto_duell.weights import HeuristicWeights

TUNED = "heuristic:weights=bundled:heuristic_tuned.toml"


def decisions(rules: Rules, policy_text: str, seeds: range) -> tuple[int, int]:
    """Walk random games; wherever the player to move has a choice, ask the object policy and the compiled one
    (greedy: with generators of the same seed). Returns (decisions compared, how many had a choice of trucks
    to place a card on)."""
    game, tables = ZooGame(rules), C.rule_tables(rules).view(np.ndarray)
    policy = SPEC.make_policy(policy_text)
    kind, weights = compiled_form(policy)
    weights, walker = weights.view(np.ndarray), RandomPolicy()
    compared = placements = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1:
                position = C.position_of(state).view(np.ndarray)
                decide_rng = np.random.default_rng(seed * 1000 + compared)
                work = new_workspace().view(np.ndarray)
                bits = np.random.default_rng(seed * 1000 + compared).bit_generator  # decide_rng's draws
                i = choose(kind, weights, position, tables, bits, work)
                actions = work[0]["actions"]
                expected = legal.index(policy.choose(state, decide_rng))
                assert i == expected, (f"seed {seed}: {policy_text} chose {legal[i]!r}, the object policy "
                                       f"{legal[expected]!r} in\n{state!r}")
                assert [C.action_of(state, a) for a in legal] == [C.action_row(position, tables, r)
                                                                  for r in actions[: len(legal)]]
                compared += 1
                placements += state.phase == C.PLACE
            state.apply(walker.choose(state, rng))
    return compared, placements


def test_the_heuristic_decides_as_the_object_heuristic():
    compared, placements = decisions(Rules(), "heuristic", range(110))
    assert compared >= 10_000 and placements >= 2_000


def test_the_tuned_heuristic_decides_as_the_object_one():
    assert decisions(Rules(), TUNED, range(15))[0] >= 1_000


def test_the_expert_heuristic_decides_as_the_object_one():
    """The expert variant adds the paid discard of a drawn card, which the heuristic weighs."""
    assert decisions(Rules(expert=True), "heuristic:discard_threshold=0.1", range(15))[0] >= 1_000


def test_the_greedy_policy_decides_as_the_object_one():
    assert decisions(Rules(), "greedy", range(20))[0] >= 1_000


def test_the_weights_are_the_object_policys():
    # the compiled record holds every field of the object policy, each a weight, the tunable ones among them
    assert WEIGHT_RECORD.names == weight_names(HeuristicPolicy) == weight_names(HeuristicWeights)
    assert set(HeuristicPolicy.tunable) <= set(WEIGHT_RECORD.names)
    kind, weights = compiled_form(SPEC.make_policy(TUNED))
    assert kind == HEURISTIC and weights[0].take_threshold == pytest.approx(2.118785)
    assert compiled_form(SPEC.make_policy("greedy"))[0] == GREEDY
    assert compiled_form(SPEC.make_policy("mcts")) is None


def test_the_margin_is_the_object_evaluations_to_the_last_bit():
    rules = Rules()
    game, tables = ZooGame(rules), C.rule_tables(rules)
    for seed in range(20):
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        while not state.is_terminal():
            position = C.position_of(state)
            for p in range(2):
                assert margin(position[0], tables[0], p) == object_margin(state, p)
            state.apply(RandomPolicy().choose(state, rng))


@pytest.mark.parametrize("name", RULE_SETS)
def test_whole_games_between_the_policies(name):
    rules = rules_of(name)
    for policies, count in ((["heuristic", "greedy"], 40), ([TUNED, "random"], 40)):
        compiled = SPEC.compiled.play_chunk(rules, policies, 0, count, np.random.default_rng(17))
        objects = [SPEC.make_policy(p) for p in policies]
        reference = object_chunk(SPEC.make_game(rules, 2), policies, objects, 0, count, np.random.default_rng(17))
        pd.testing.assert_frame_equal(compiled, reference)
