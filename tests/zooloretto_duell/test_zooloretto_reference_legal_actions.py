"""The engine's legal actions against the rulebook reference (tests/zooloretto_duell/zooloretto_reference.py).

On at least 300 states (2,000 in the exhaustive run, pytest -m exhaustive) of random and policy
games under the default rules and under each alternative of every ruling, and under designers' trucks with 3 to 5
places, whose cards may be placed in any of up to 120 orders (with the expert
variant in half of the games): the engine lists no action twice, every engine action is one the
rulebook allows, and every outcome the rulebook allows is offered.
"""

from __future__ import annotations

import numpy as np
import pytest
import zooloretto_reference as reference

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.game import ZooGame, ZooState
from tyrsim.games.zooloretto_duell.rules import Rules

# states checked per rule set: the default run's, and the exhaustive run's thousands
STATES = [300, pytest.param(2000, marks=pytest.mark.exhaustive)]
SEATINGS = (("random", "random"), ("greedy", "heuristic"), ("random", "heuristic"), ("heuristic", "greedy"))
RULING_VALUES = [{}] + [{name: alt} for name, alts in Rules.rulings().items() for alt in alts]
# designers' bigger trucks: "You may play these cards in any order" then means up to 5! orders of one truck
BIG_TRUCKS = [{"truck_places": (1, 2, 3)}, {"truck_places": (2, 4, 5), "one_square_per_turn": True}]


def mismatch(state: ZooState) -> str:
    """'' when the engine agrees with the reference, else a readable account of the difference."""
    engine = state.legal_actions()
    allowed = reference.legal_actions(state)
    problems = []
    if len(set(engine)) != len(engine):
        problems.append(f"listed twice: {[a for a in engine if engine.count(a) > 1]}")
    illegal = [a for a in engine if a not in allowed]
    if illegal:
        problems.append(f"not allowed by the rulebook: {illegal}")
    offered = {reference.outcome(state, a) for a in engine}
    missing = [a for a in allowed if reference.outcome(state, a) not in offered]
    if missing:
        problems.append(f"allowed but not offered (nor anything with the same outcome): {missing}")
    if not problems:
        return ""
    return f"phase {state.phase}, rules {state.rules.differences()}\n{state!r}\n" + "\n".join(problems)


def compare_games(overrides: dict, states: int, seed: int) -> int:
    """Play games under `overrides` until `states` states have been checked; return how many were."""
    rng = np.random.default_rng(seed)
    games = {expert: ZooGame(Rules.from_overrides({**overrides, "expert": expert})) for expert in (False, True)}
    checked, g = 0, 0
    while checked < states:
        state = games[g % 2 == 1].new_state(rng)
        seats = SEATINGS[g % len(SEATINGS)]
        policies = [RandomPolicy() if name == "random" else SPEC.make_policy(name) for name in seats]
        while True:
            problem = mismatch(state)
            assert not problem, problem
            checked += 1
            if state.is_terminal():
                break
            state.apply(policies[state.current_player()].choose(state, rng))
        g += 1
    return checked


@pytest.mark.parametrize("states", STATES)
@pytest.mark.parametrize(
    "overrides", RULING_VALUES + BIG_TRUCKS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "-"
)
def test_engine_legal_actions_match_the_rulebook(overrides, states):
    assert compare_games(overrides, states, seed=15) >= states
