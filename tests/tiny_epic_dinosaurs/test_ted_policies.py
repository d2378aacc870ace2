"""Policies: legal play, parameters, tunable weights, the hidden-information rule, greedy beats random."""

import dataclasses

import numpy as np
import pytest

from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.engine.runner import play, simulate
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
    from tyrsim.core.engine.weights import defaults, tunable

    floats = {f.name for f in dataclasses.fields(GreedyPolicy) if f.type in (float, "float")}
    assert set(tunable(GreedyPolicy)) == floats  # every weight of the heuristic may be tuned
    for name in ("greedy", "hunter", "breeder", "contractor"):
        cls = SPEC.policies[name]
        assert tunable(cls) == tunable(GreedyPolicy)
        for weight, value in defaults(cls).items():
            low, high = tunable(cls)[weight]
            assert low < high and low <= value <= high, (name, weight)


def test_hunter_fence_values_match_a_flood_fill_of_each_fence_set():
    """Hunter values a fence action by the enclosures it would leave, worked out from the fence set's bits
    with remembered sizes; here every fence action of many positions is valued again from the rulebook
    reference's own flood fill of the new fence set, with nothing remembered."""
    import ted_reference as reference

    from tyrsim.games.tiny_epic_dinosaurs.actions import LoseFence, MoveFence, PlaceFence
    from tyrsim.games.tiny_epic_dinosaurs.ranch import Ranch

    hunter = SPEC.make_policy("hunter")

    def quality(state, seat: int, fences: set[int]) -> float:
        player = state.players[seat]
        scratch = Ranch(player.ranch.board)
        scratch.fences = fences
        capacities = sorted(map(len, reference.enclosures(state, scratch)), reverse=True)
        herd = player.ranch.herd()
        for kind in player.holding:
            herd[kind] = herd.get(kind, 0) + 1
        counts = sorted((n for k, n in herd.items() if not state.dinosaurs[k].unique), reverse=True)
        held = [min(c, n) for c, n in zip(capacities, counts, strict=False)]
        pairs = sum(h // state.rules.breed_group for h in held)
        return sum(held) + (0.5 + hunter.breed_bonus / 2) * pairs + 0.1 * len(capacities)

    checked = 0
    rng = np.random.default_rng(8)
    for names in (["random", "hunter"], ["hunter", "breeder", "random"]):
        game = SPEC.make_game(Rules(), len(names))
        for _ in range(3):
            state = game.new_state(rng)
            while (seat := state.current_player()) >= 0:
                values = hunter.values(state)
                edge = state.layout.edge_id
                now = set(state.players[seat].ranch.fences)
                for action, value in zip(state.legal_actions(), values, strict=True):
                    if isinstance(action, PlaceFence):
                        expected = quality(state, seat, now | {edge(action.edge)})
                    elif isinstance(action, LoseFence):
                        expected = quality(state, seat, now - {edge(action.edge)})
                    elif isinstance(action, MoveFence):
                        moved = now - {edge(action.source)} if action.source != "holding" else set(now)
                        expected = quality(state, seat, moved | {edge(action.target)}) - quality(state, seat, now)
                        expected -= 0.01
                    else:
                        continue
                    assert value == pytest.approx(expected, abs=1e-9), (action, state.round)
                    checked += 1
                state.apply(SPEC.make_policy(names[seat]).choose(state, rng))
    assert checked > 1_000
