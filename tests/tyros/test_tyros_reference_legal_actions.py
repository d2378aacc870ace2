"""The engine's legal actions against a slow reference written from the rulebook (tyros_reference.py).

States come from whole games with random, greedy and planner players, on both
set-ups, under the rulebook's readings and under each alternative reading of
every ruling (every board file included), so every ruling value is checked on at
least 1,000 positions (2,000 in the exhaustive run, pytest -m exhaustive). Two rulings
change which positions arise but not which actions a position allows
(start_both_beside_tyros, the set-up; first_city_bonus, the scoring); they are run all
the same, so the positions they lead to are checked.
"""

import numpy as np
import pytest
from tyros_reference import reference_actions

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.policies import GreedyPolicy, PlannerPolicy
from tyrsim.games.tyros.rules import Rules

# positions per reading: the default run's, and the exhaustive run's thousands
STATES_PER_READING = [1_000, pytest.param(2_000, marks=pytest.mark.exhaustive)]
LINEUPS = [
    [RandomPolicy(), RandomPolicy(), RandomPolicy(), RandomPolicy()],
    [PlannerPolicy(), GreedyPolicy(), RandomPolicy(), PlannerPolicy()],
    [RandomPolicy(), GreedyPolicy(), RandomPolicy()],
]
READINGS = [("rulebook", None)] + [(name, value) for name, values in Rules.rulings().items() for value in values]


def difference(engine: list, reference: list) -> str:
    only_engine = sorted(map(repr, set(engine) - set(reference)))
    only_reference = sorted(map(repr, set(reference) - set(engine)))
    return (f"engine only: {only_engine or 'none'}\nreference only: {only_reference or 'none'}"
            + ("\nthe engine lists an action twice" if len(set(engine)) != len(engine) else ""))


def check_games(rules: Rules, states: int, seed: int) -> tuple[int, dict[str, int]]:
    """Play games until `states` positions are compared; (positions, positions per phase)."""
    rng = np.random.default_rng(seed)
    checked, phases, game = 0, {}, 0
    while checked < states:
        players = LINEUPS[game % len(LINEUPS)]
        setup = ("first-game", "variable")[(game // len(LINEUPS)) % 2]
        state = TyrosGame(rules.replace({"setup": setup}), len(players)).new_state(rng)
        while not state.is_terminal():
            engine = state.legal_actions()
            reference = reference_actions(state)
            assert set(engine) == set(reference) and len(set(engine)) == len(engine), (
                f"{rules.differences()} game {game}, {state!r}, player {state.current_player()}, "
                f"hand {state.hands[state.current_player()]}:\n{difference(engine, reference)}")
            checked += 1
            phases[state.phase] = phases.get(state.phase, 0) + 1
            player = state.current_player()
            state.apply(players[player].choose(state, rng))
        game += 1
    return checked, phases


@pytest.mark.parametrize("states", STATES_PER_READING)
@pytest.mark.parametrize("name, value", READINGS, ids=[f"{n}={v}" if v is not None else n for n, v in READINGS])
def test_engine_lists_exactly_the_rulebooks_legal_actions(name, value, states):
    rules = Rules() if value is None else Rules.from_overrides({name: value})
    checked, phases = check_games(rules, states, seed=15)
    assert checked >= states
    # every decision point of the game was met: tiles, card actions, answers to offers, the choice of a
    # trading partner among several who accepted, cards kept
    assert set(phases) == {"expand", "actions", "offer", "partner", "keep"}, phases
