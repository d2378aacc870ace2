"""The engine's legal actions against the rulebook reference (tyranno_reference.py), under every ruling value.

Each rule set (the default, and each ruling's alternatives one at a time) plays
random games and games of the greedy family in turn, and compares the two lists
as sets at every decision until enough states are seen: 400 under the default
and under each alternative, with at least the first four kinds of game (4, 3 and
2 players; random and greedy play with 2, where the columns differ most); the
exhaustive run (pytest -m exhaustive) sees 2,000 under the default (every kind of
game several times), some 12,000 in all.
"""

from __future__ import annotations

import numpy as np
import pytest
import tyranno_reference as reference

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.policies import AggressivePolicy, BuilderPolicy, GreedyPolicy
from tyrsim.games.tyranno_ex.rules import Rules

# decisions compared under the default rules (in the default run, in the exhaustive run) and under each alternative
DEFAULT_STATES, EXHAUSTIVE_DEFAULT_STATES, ALTERNATIVE_STATES = 400, 2000, 400
PLAYS = [(4, "random"), (3, "greedy"), (2, "random"), (2, "greedy"), (4, "greedy"), (3, "random")]  # in turn
LEAST_PLAYS = 4  # games of PLAYS played under every rule set, however many states they give
GREEDY = [GreedyPolicy(), AggressivePolicy(), BuilderPolicy(), GreedyPolicy()]


def rule_sets() -> list[tuple[str, dict]]:
    sets = [("default", {})]
    for name, alternatives in Rules.rulings().items():
        sets += [(f"{name}={value}", {name: value}) for value in alternatives]
    return sets


def cases() -> list:
    """(label, overrides, states) of every rule set in the default run, and the default's thousands in the
    exhaustive run."""
    return [pytest.param(label, overrides, ALTERNATIVE_STATES if overrides else DEFAULT_STATES, id=label)
            for label, overrides in rule_sets()] + [
        pytest.param("default", {}, EXHAUSTIVE_DEFAULT_STATES, id="default-thousands", marks=pytest.mark.exhaustive)]


def key(action) -> tuple:
    """An action as a comparable, readable tuple (chips in sorted order)."""
    fields = [getattr(action, f) for f in ("pile", "column", "row", "card", "returned", "space", "symbol",
                                           "attacker", "defender") if hasattr(action, f)]  # fmt: skip
    if hasattr(action, "chips"):
        fields.append(tuple(sorted(action.chips)))
    return (type(action).__name__, *fields)


def compare(state, label: str) -> None:
    engine = state.legal_actions()
    expected = reference.legal_actions(state)
    if len(set(engine)) == len(engine) and set(engine) == set(expected):
        return  # the common case, cheaply: actions are frozen dataclasses, equal by their fields
    engine_keys, expected_keys = [key(a) for a in engine], {key(a) for a in expected}
    assert len(engine_keys) == len(set(engine_keys)), f"{label}: the engine lists an action twice"
    if set(engine_keys) != expected_keys:
        extra = sorted(set(engine_keys) - expected_keys, key=repr)
        missing = sorted(expected_keys - set(engine_keys), key=repr)
        pytest.fail(
            f"{label}: phase {state.phase}, P{state.current_player()}, round {state.round}, move {state.move}\n"
            f"{state!r}\nhand {state.hands[state.current_player()]}\n"
            f"engine only ({len(extra)}): {extra[:10]}\nrulebook only ({len(missing)}): {missing[:10]}"
        )


@pytest.mark.parametrize(("label", "overrides", "states"), cases())
def test_engine_legal_actions_match_the_rulebook_reference(label, overrides, states):
    rules = Rules.from_overrides(overrides)
    rng = np.random.default_rng(15)
    seen, phases, game = 0, set(), 0
    while seen < states or game < LEAST_PLAYS:
        players, kind = PLAYS[game % len(PLAYS)]
        policies = [RandomPolicy()] * players if kind == "random" else GREEDY[:players]
        state = make_game(rules, players).new_state(rng)
        while not state.is_terminal():
            compare(state, f"{label}, game {game} ({players} players)")
            phases.add(state.phase)
            seen += 1
            state.apply(policies[state.current_player()].choose(state, rng))
        game += 1
    assert {"place", "environment", "combat"} <= phases
    if rules.majority == "most" and rules.majority_tie == "chooser":
        assert "tie" in phases
    if rules.five_timing == "phase_end":
        assert "five" in phases
