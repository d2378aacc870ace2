"""Tyros's compiled search (`compiled_search`) is the Python search (`IsmctsPolicy.reference_choice`) decision for
decision: the same choice from the same seed, with the same draws left behind, on positions of every phase and
with every rollout; it never peeks; it runs without the JIT and loads from numba's cache."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from compiled_checks import check_search_script, same_choice
from numba import njit
from tyros_positions import scrambled

from tyrsim.core.compiled.search import ismcts
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.rng import uniform
from tyrsim.games.tyros import compiled_search
from tyrsim.games.tyros.compiled import (
    action_of,
    differences,
    list_actions,
    new_position,
    new_workspace,
    position_of,
    rule_tables,
)
from tyrsim.games.tyros.game import TyrosGame, TyrosState
from tyrsim.games.tyros.policies import IsmctsPolicy, PlannerPolicy
from tyrsim.games.tyros.rules import Rules

VARIANTS = {
    "default rules": (Rules(), 4),
    "three players": (Rules(), 3),
    "first game, open ships": (Rules(setup="first-game", ships_pass_unclaimed=True), 4),
    "one trade a round": (Rules(trade_guard="1-a-round"), 4),  # the cap binds in the searched games
    "trades without a guard": (Rules(trade_guard="none"), 4),
}


def decisions(rules: Rules, players: int, count: int, seed: int) -> list[TyrosState]:
    """Positions of more than one legal action from games of random players and planners, at most a third of them
    of one phase (the card actions and offers are most of a game's decisions)."""
    game, rng, out = TyrosGame(rules, players), np.random.default_rng(seed), []
    seats = [RandomPolicy() if p % 2 else PlannerPolicy() for p in range(players)]
    phases = Counter()
    while len(out) < count:
        state = game.new_state(rng)
        while not state.is_terminal() and len(out) < count:
            if len(state.legal_actions()) > 1 and phases[state.phase] <= count // 3 and uniform(rng) < 0.1:
                phases[state.phase] += 1
                out.append(state.clone())
            state.apply(seats[state.current_player()].choose(state, rng))
    return out



OPTIONS = [
    {"iterations": 20},  # the default's evaluation straight after the new node
    {"iterations": 30, "exploration": 0.3, "temperature": 2.0},
    {"iterations": 10, "rollout": "random", "rollout_depth": 8},
    {"iterations": 8, "rollout": "greedy", "rollout_depth": 3},
    {"iterations": 6, "rollout": "planner", "rollout_depth": 2},
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_same_decisions_as_the_python_search(variant, options):
    policy = IsmctsPolicy(**options)
    states = decisions(*VARIANTS[variant], 20, seed=len(variant))
    chosen = [same_choice(policy, state, seed) for seed, state in enumerate(states)]
    assert len({type(a) for a in chosen}) > 1  # the decisions are of more than one kind: they mean something


def test_every_phase_is_searched():
    phases = Counter(s.phase for name, v in VARIANTS.items() for s in decisions(*v, 20, seed=len(name)))
    assert set(phases) >= {"expand", "actions", "offer", "keep"}


def test_a_game_to_its_end_through_the_search_is_the_same_both_ways():
    """A whole game played out by random rollouts in the search (`rollout_depth=-1`) from an early position."""
    state = decisions(Rules(), 4, 1, seed=9)[0]
    same_choice(IsmctsPolicy(iterations=4, rollout="random", rollout_depth=-1), state, 0)


def test_the_determinization_keeps_what_the_observer_sees_and_deals_the_unseen():
    """The compiled determinization, as the object engine's: the same world, drawn from the same generator."""
    tables, work = rule_tables(Rules()), new_workspace()
    for k, state in enumerate(decisions(Rules(), 4, 80, seed=4)):
        observer = state.current_player()
        real, world = position_of(state), new_position()
        bits = np.random.default_rng(k).bit_generator
        compiled_search.determinize(real, world, (tables[0],), observer, bits)
        reference = state.determinize(observer, np.random.default_rng(k))
        assert differences(world, position_of(reference)) == [], k
        assert bits.state == reference.rng.bit_generator.state
        actions = [action_of(state, a) for a in state.legal_actions()]
        n = list_actions(world, tables, work)
        assert [tuple(row) for row in work[0].actions[:n]] == actions  # the observer's decision is unchanged


def test_action_keys_tell_apart_exactly_the_actions_that_differ():
    tables, work = rule_tables(Rules()), new_workspace()
    for state in decisions(Rules(), 4, 60, seed=6):
        n = list_actions(position_of(state), tables, work)
        keys = [compiled_search.action_key(work[0], i) for i in range(n)]
        assert len(set(keys)) == n == len(set(state.legal_actions()))


STATES = decisions(Rules(), 4, 30, seed=11)


def test_the_compiled_search_never_peeks():
    """What the searcher cannot see (the other hands, the draw pile, the other tile hands and the tile pile's
    order) does not change a decision from the same seed."""
    policy = IsmctsPolicy(iterations=200)
    for k, state in enumerate(STATES):
        other = scrambled(state, state.current_player(), np.random.default_rng(100 + k))
        assert policy.compiled_choice(state.clone(), np.random.default_rng(k)) == policy.compiled_choice(
            other, np.random.default_rng(k)), k


@njit
def peek(real, world, rules, observer, bits) -> None:
    world[0] = real[0]  # the real position, hidden cards and tiles and all


@njit
def peeking_search(real, world, tables, weights, options, iterations, exploration, rollout_depth, bits, work, tree,
                   path, values, untried):
    setting = (tables[0], weights[0], options[0])
    return ismcts(real, world, setting, np.int64(real[0].n), iterations, exploration, rollout_depth, bits, work[0],
                  tree, path, values, untried, peek, compiled_search.legal_actions, compiled_search.action_key,
                  compiled_search.apply_action, compiled_search.is_over, compiled_search.to_move,
                  compiled_search.final_values, compiled_search.evaluate, compiled_search.rollout)


@pytest.mark.exhaustive
def test_a_peeking_determinization_would_be_caught(monkeypatch):
    """The check above can fail: with a determinization that keeps the real position (reads the hidden cards and
    tiles), some decision changes once they are re-dealt."""
    monkeypatch.setattr(compiled_search, "search", peeking_search)
    policy = IsmctsPolicy(iterations=200)
    changed = [policy.compiled_choice(s.clone(), np.random.default_rng(k))
               != policy.compiled_choice(scrambled(s, s.current_player(), np.random.default_rng(100 + k)),
                                         np.random.default_rng(k))
               for k, s in enumerate(STATES)]
    assert any(changed)


def test_rules_the_compiled_engine_does_not_play_fall_back_to_the_python_search(monkeypatch):
    state = STATES[0]
    monkeypatch.setattr(compiled_search, "plays", lambda rules, players: "rule 'x': not played")
    assert IsmctsPolicy(iterations=5).compiled_choice(state, np.random.default_rng(0)) is None
    chosen = IsmctsPolicy(iterations=5).choose(state.clone(), np.random.default_rng(0))
    assert chosen == IsmctsPolicy(iterations=5).reference_choice(state.clone(), np.random.default_rng(0))
    assert dataclasses.is_dataclass(chosen)


SCRIPT = """
import numpy as np
import test_tyros_compiled_search as t
from tyrsim.games.tyros import compiled_search
from tyrsim.games.tyros.policies import IsmctsPolicy
policy = IsmctsPolicy(iterations=6)
for k, state in enumerate(t.decisions(t.Rules(), 4, 3, seed=2)):
    t.same_choice(policy, state, k)
stats = getattr(compiled_search.search, "stats", None)  # none without the JIT
print(stats and (sum(stats.cache_hits.values()), sum(stats.cache_misses.values())))
"""


@pytest.mark.slow
def test_the_search_runs_as_plain_python_and_loads_from_the_cache(numba_cache):
    check_search_script(SCRIPT, Path(__file__).parent, numba_cache)
