"""The engine's legal actions against the slow reference written from the rulebook (ted_reference.py), on
positions from random and policy games, under the default rules and every ruling's alternative reading:
300 per rule set in the default run, 2,000 in the exhaustive one (pytest -m exhaustive)."""

from collections import Counter

import numpy as np
import pytest
import ted_reference as reference

from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

RULE_SETS = [{}] + [{name: value} for name, values in Rules.rulings().items() for value in values]
# (players, policies): random play reaches odd corners, the policies' games reach full ranches
MIXES = [(2, ["random", "random"]), (3, ["hunter", "breeder", "contractor"]), (4, ["greedy", "random"] * 2)]
# positions checked per rule set: the default run's, and the exhaustive run's thousands
STATES = [300, pytest.param(2_000, marks=pytest.mark.exhaustive)]
NAMES = [",".join(f"{name}={value}" for name, value in rules.items()) or "default" for rules in RULE_SETS]


def differences(state) -> str:
    """A readable account of how the engine's options differ from the reference's ("" when they agree)."""
    engine, ref = Counter(state.legal_actions()), Counter(reference.legal_actions(state))
    if engine == ref:
        return ""
    lines = [f"round {state.round}, prompt {state.prompt.kind!r} for player {state.prompt.player}"]
    lines += [f"  only the engine offers: {a!r}" for a in sorted(engine - ref, key=repr)]
    lines += [f"  only the reference offers: {a!r}" for a in sorted(ref - engine, key=repr)]
    return "\n".join(lines)


def check(rules: dict, states: int, seed: int) -> int:
    """Play games under `rules` until `states` decisions were checked; the number checked."""
    checked, game_index = 0, 0
    rng = np.random.default_rng(seed)
    while checked < states:
        players, names = MIXES[game_index % len(MIXES)]
        game_index += 1
        game = SPEC.make_game(Rules.from_overrides(rules), players)
        policies = [SPEC.make_policy(name) for name in names]
        state = game.new_state(rng)
        while (player := state.current_player()) >= 0:
            diff = differences(state)
            assert not diff, f"rules {rules or 'default'}, game {game_index} ({', '.join(names)}):\n{diff}"
            checked += 1
            state.apply(policies[player].choose(state, rng))
    return checked


@pytest.mark.parametrize("states", STATES)
@pytest.mark.parametrize("rules", RULE_SETS, ids=NAMES)
def test_engine_legal_actions_match_the_rulebook_reference(rules, states):
    assert check(rules, states, seed=15) >= states
