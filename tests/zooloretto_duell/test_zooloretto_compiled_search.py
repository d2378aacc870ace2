"""Zooloretto Duell's compiled search (`compiled_search`) is the Python search (`IsmctsPolicy.reference_choice`)
decision for decision: the same choice from the same seed, with the same draws left behind, on positions of
every phase and under the rule variants that change what may be seen or done; it never peeks; it runs without
the JIT and loads from numba's cache."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from compiled_checks import check_search_script, same_choice
from numba import njit

from tyrsim.core.compiled.search import ismcts
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.rng import uniform
from tyrsim.games.zooloretto_duell import compiled as C
from tyrsim.games.zooloretto_duell import compiled_search
from tyrsim.games.zooloretto_duell.cards import FINAL_ROUND
from tyrsim.games.zooloretto_duell.game import ZooGame, ZooState
from tyrsim.games.zooloretto_duell.policies import HeuristicPolicy, IsmctsPolicy
from tyrsim.games.zooloretto_duell.rules import Rules

VARIANTS = {
    "rulebook": Rules(),
    "expert": Rules(expert=True),
    "open discard pile": Rules(discard_pile_open=True),
    "remembered discard pile": Rules(discard_pile_memory="remember"),
}


def decisions(rules: Rules, count: int, seed: int) -> list[ZooState]:
    """Positions of more than one legal action, of every phase, from games of a random and a heuristic player."""
    game, rng, out = ZooGame(rules), np.random.default_rng(seed), []
    players = (RandomPolicy(), HeuristicPolicy())
    while len(out) < count:
        state = game.new_state(rng)
        while not state.is_terminal() and len(out) < count:
            if len(state.legal_actions()) > 1 and uniform(rng) < 0.15:
                out.append(state.clone())
            state.apply(players[state.current_player()].choose(state, rng))
    return out



OPTIONS = [
    {"iterations": 12},  # the default's rollout (none) and evaluation (the heuristic finishes the round)
    {"iterations": 25, "exploration": 0.3},
    {"iterations": 15, "rollout": "random", "rollout_depth": 4, "finish_round": False},
    {"iterations": 10, "rollout": "greedy", "rollout_depth": -1},
    {"iterations": 10, "rollout": "heuristic", "rollout_depth": 3, "scale": 1.5},
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_same_decisions_as_the_python_search(variant, options):
    policy = IsmctsPolicy(**options)
    states = decisions(VARIANTS[variant], 24, seed=len(variant))
    chosen = [same_choice(policy, state, seed) for seed, state in enumerate(states)]
    assert len({type(a) for a in chosen}) > 1  # the decisions are of more than one kind: they mean something


def test_every_phase_is_searched():
    phases = {s.phase for v in VARIANTS.values() for s in decisions(v, 24, seed=3)}
    assert len(phases) == 3  # a turn, a drawn card's placement and a square's donation


def reordered(state: ZooState, seed: int) -> ZooState:
    """The same position with the hidden cards (the draw pile but the final-round card, and the discard pile
    under its top card) in another order: what neither player sees."""
    other = state.clone()
    rng = np.random.default_rng(seed)
    hidden = [("pile", i) for i, c in enumerate(other.pile) if c.species != FINAL_ROUND]
    hidden += [("discard", i) for i in range(len(other.discard) - 1)]
    cards = [getattr(state, where)[i] for where, i in hidden]
    for (where, i), j in zip(hidden, rng.permutation(len(cards)), strict=True):
        getattr(other, where)[i] = cards[j]
    return other


STATES = [s for s in decisions(Rules(), 60, seed=11) if len(s.pile) > 3]


def test_the_compiled_search_never_peeks():
    """What lies hidden (its order, and which cards are in the pile and which under the discard pile's top) does
    not change a decision from the same seed."""
    policy = IsmctsPolicy(iterations=40)
    for k, state in enumerate(STATES):
        other = reordered(state, seed=k)
        assert other.pile != state.pile
        assert policy.compiled_choice(state.clone(), np.random.default_rng(k)) == policy.compiled_choice(
            other, np.random.default_rng(k)), k


@njit
def peek(real, world, rules, observer, bits) -> None:
    world[0] = real[0]  # the real position, hidden cards and all


@njit
def peeking_search(real, world, rules, iterations, exploration, rollout_depth, bits, work, tree, path, values,
                   untried):
    return ismcts(real, world, rules[0], np.int64(2), iterations, exploration, rollout_depth, bits, work[0], tree,
                  path, values, untried, peek, compiled_search.legal_actions, compiled_search.action_key,
                  compiled_search.apply_action, compiled_search.is_over, compiled_search.to_move,
                  compiled_search.final_values, compiled_search.evaluate, compiled_search.rollout)


@pytest.mark.slow
def test_a_peeking_determinization_would_be_caught(monkeypatch):
    """The check above can fail: with a determinization that keeps the real position (reads the hidden
    order), some decision changes once the hidden cards are reordered."""
    monkeypatch.setattr(compiled_search, "search", peeking_search)
    policy = IsmctsPolicy(iterations=40)
    changed = [policy.compiled_choice(s.clone(), np.random.default_rng(k))
               != policy.compiled_choice(reordered(s, seed=k), np.random.default_rng(k))
               for k, s in enumerate(STATES)]
    assert any(changed)


@pytest.mark.parametrize("memory", ["forget", "remember"])
def test_the_compiled_determinization_keeps_the_discard_pile_a_player_remembers(memory):
    """Rule `discard_pile_memory`: 'remember' keeps the whole discard pile in every sample, 'forget' deals the
    cards under its top again (`ZooState.determinize`, tested in test_zooloretto_search.py)."""
    tables = C.rule_tables(Rules(discard_pile_memory=memory))
    kept = []
    for k, state in enumerate(STATES):
        real, world = C.position_of(state), C.new_position()
        compiled_search.determinize(real, world, tables[0], np.int64(0), np.random.default_rng(k).bit_generator)
        size = real[0].discard_size
        kept.append(bool((world[0].discard[:size] == real[0].discard[:size]).all()))
        assert world[0].discard_size == size and world[0].discard[size - 1] == real[0].discard[size - 1]
    assert all(kept) if memory == "remember" else not all(kept)


def test_rules_the_compiled_engine_does_not_play_fall_back_to_the_python_search():
    state = decisions(Rules(), 1, seed=5)[0]
    other = state.clone()
    other.rules = dataclasses.replace(state.rules, truck_places=(3,) * 9)
    assert IsmctsPolicy(iterations=5).compiled_choice(other, np.random.default_rng(0)) is None


SCRIPT = """
import numpy as np
import test_zooloretto_compiled_search as t
from tyrsim.games.zooloretto_duell import compiled_search
from tyrsim.games.zooloretto_duell.policies import IsmctsPolicy
policy = IsmctsPolicy(iterations=6)
for k, state in enumerate(t.decisions(t.Rules(), 3, seed=2)):
    t.same_choice(policy, state, k)
stats = getattr(compiled_search.search, "stats", None)  # none without the JIT
print(stats and (sum(stats.cache_hits.values()), sum(stats.cache_misses.values())))
"""


@pytest.mark.slow
def test_the_search_runs_as_plain_python_and_loads_from_the_cache(numba_cache):
    check_search_script(SCRIPT, Path(__file__).parent, numba_cache)
