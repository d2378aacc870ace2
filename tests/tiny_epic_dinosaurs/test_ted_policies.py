"""Policies: legal play, parameters, tunable weights, the hidden-information rule, greedy beats random."""

import dataclasses

import numpy as np
import pytest

from tyrsim.core.game import PolicyError
from tyrsim.core.runner import play, simulate
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.policies import GreedyPolicy
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_policy_finishes_games(players):
    game = SPEC.make_game(Rules(), players)
    names = ["greedy", "hunter", "breeder", "contractor", "random"]
    policies = [SPEC.make_policy(names[(i + players) % len(names)]) for i in range(players)]
    record = play(game, policies, np.random.default_rng(players))
    assert record.stats["rounds"] == 6 and len(record.winners) == 1


def test_policy_parameters():
    policy = SPEC.make_policy("contractor:contract_weight=3,contract_match=0.5")
    assert policy.contract_weight == 3.0 and policy.contract_match == 0.5 and policy.name == "contractor"
    with pytest.raises(PolicyError, match="contract_weight"):
        SPEC.make_policy("contractor:weight=3")


def test_policies_do_not_peek_at_hidden_information():
    game = SPEC.make_game(Rules(), 3)
    rng = np.random.default_rng(0)
    state = game.new_state(rng)
    policy = SPEC.make_policy("contractor")
    for _ in range(40):  # into the game a little
        state.apply(policy.choose(state, rng))
    me = state.current_player()
    other = state.clone()
    # change what `me` cannot see: the others' private contracts and the order of the decks
    for seat, player in enumerate(other.players):
        if seat != me and other.contract_deck:
            player.private, other.contract_deck[0] = other.contract_deck[0], player.private
    other.research_deck.reverse()
    other._legal = None
    for seed in range(5):
        assert policy.choose(state, np.random.default_rng(seed)) == policy.choose(other, np.random.default_rng(seed))


def test_greedy_beats_random():
    table = simulate(SPEC, Rules(), ["greedy", "random"], 60, seed=7)
    share = table[table.policy == "greedy"]["win_share"].mean()
    # about 0.75 in longer runs; 0.55 is more than three standard errors below
    assert share > 0.55


def test_tunable_weights_are_float_fields_whose_ranges_hold_every_archetype_default():
    from tyrsim.core.weights import defaults, tunable

    floats = {f.name for f in dataclasses.fields(GreedyPolicy) if f.type in (float, "float")}
    assert set(tunable(GreedyPolicy)) == floats  # every weight of the heuristic may be tuned
    for name in ("greedy", "hunter", "breeder", "contractor"):
        cls = SPEC.policies[name]
        assert tunable(cls) == tunable(GreedyPolicy)
        for weight, value in defaults(cls).items():
            low, high = tunable(cls)[weight]
            assert low < high and low <= value <= high, (name, weight)
