"""Tiny Epic Dinosaurs' compiled search (`compiled_search`) is the Python search (`IsmctsPolicy.reference_choice`)
decision for decision: the same choice from the same seed, with the same draws left behind, on positions of every
prompt, for two to four players and with the policy's options; it never peeks; it falls back where the compiled
engine does not play the rules; it runs without the JIT and loads from numba's cache."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from compiled_checks import check_search_script, same_choice
from numba import njit
from test_ted_search import hidden_changed

from tyrsim.core.compiled.search import ismcts
from tyrsim.core.engine.rng import held_doubles, uniform
from tyrsim.games.tiny_epic_dinosaurs import SPEC, compiled_search
from tyrsim.games.tiny_epic_dinosaurs.compiled_policies import compiled_form
from tyrsim.games.tiny_epic_dinosaurs.game import TinyEpicDinosaursState
from tyrsim.games.tiny_epic_dinosaurs.policies import IsmctsPolicy
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules


def decisions(players: int, count: int, seed: int) -> list[TinyEpicDinosaursState]:
    """Positions of more than one legal action from games of hunter, random, breeder and greedy players."""
    game, rng, out = SPEC.make_game(Rules(), players), np.random.default_rng(seed), []
    policies = [SPEC.make_policy(name) for name in ("hunter", "random", "breeder", "greedy")]
    while len(out) < count:
        state = game.new_state(rng)
        while not state.is_terminal() and len(out) < count:
            if len(state.legal_actions()) > 1 and uniform(rng) < 0.25:
                out.append(state.clone())
            state.apply(policies[state.current_player()].choose(state, rng))
    return out



OPTIONS = [
    {"iterations": 8},  # the default's rollout (hunter, 2 decisions) and evaluation
    {"iterations": 12, "exploration": 0.3, "scale": 3.0, "breed_value": 1.0},
    {"iterations": 6, "rollout": "random", "rollout_depth": -1},
    {"iterations": 8, "rollout": "greedy", "rollout_depth": 0, "candidates": 0},
    {"iterations": 8, "candidates": 2, "resource_value": 0.5, "rancher_value": 0.2},
]
POSITIONS = {2: decisions(2, 48, seed=1), 3: decisions(3, 12, seed=2), 4: decisions(4, 12, seed=3)}


@pytest.mark.parametrize("players", POSITIONS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_same_decisions_as_the_python_search(players, options):
    policy = IsmctsPolicy(**options)
    chosen = [same_choice(policy, state, seed) for seed, state in enumerate(POSITIONS[players])]
    assert len({type(a) for a in chosen}) > 1  # the decisions are of more than one kind: they mean something


def test_every_prompt_is_searched():
    prompts = {s.prompt.kind for states in POSITIONS.values() for s in states}
    assert {"assign", "take_research", "rearrange", "place_fence", "enclose"} <= prompts
    assert sum(len(states) for states in POSITIONS.values()) * len(OPTIONS) >= 300


def test_rare_prompts_are_searched_alike():
    """Feeding plans, penalties and drawn research cards (the prompts the games above meet least)."""
    rare = [s for s in decisions(2, 400, seed=9)
            if s.prompt.kind in ("feed", "lose_fence", "lose_dinosaur", "escape_as", "pick_research")][:16]
    assert {"feed", "pick_research"} <= {s.prompt.kind for s in rare}
    for seed, state in enumerate(rare):
        same_choice(IsmctsPolicy(iterations=10), state, seed)


def test_the_forecast_values_every_position_as_the_python_one():
    """The compiled leaf evaluation (`evaluate`: forecast, prospect, logistic) equals `IsmctsPolicy.evaluate` to
    the last bit, on positions of every prompt (the determinization's own positions included)."""
    policy = IsmctsPolicy(scale=4.0, breed_value=0.7)
    work = compiled_search.search_work(IsmctsPolicy, policy.rollout, policy.resource_value, policy.rancher_value,
                                       policy.breed_value, policy.scale)
    checked = 0
    for players, seed in ((2, 21), (3, 22), (4, 23)):
        tables = compiled_search.rules_of(Rules(), players)
        for state in decisions(players, 700 if players == 2 else 400, seed=seed):
            out = np.zeros(8)
            compiled_search.evaluate(compiled_search.position_of(state).view(np.recarray), tables[0], work[0], out)
            assert list(out[:players]) == policy.evaluate(state), state.prompt
            checked += 1
    assert checked >= 1500



def test_the_compiled_guide_and_hunter_rollout_play_the_tuned_weights():
    """The ruling in compiled form: the work record's guide (root candidates) and hunter rollout hold the tuned
    hunter's weights, not the default hunter's."""
    tuned, default = (compiled_form(SPEC.make_policy(text))[1][0]
                      for text in ("hunter:weights=bundled:hunter_tuned.toml", "hunter"))
    record = compiled_search.search_work(IsmctsPolicy, "hunter", 0.3, 0.8, 0.5, 6.0)[0]
    assert record.hunter_weights == tuned and record.rollout_weights == tuned != default


HIDING = [s for s in decisions(2, 40, seed=11) if s.contract_deck and len(s.research_deck) > 2]


def decisions_and_draws(policy: IsmctsPolicy, state: TinyEpicDinosaursState, seed: int):
    rng = np.random.default_rng(seed)
    return policy.compiled_choice(state, rng), held_doubles(rng), rng.bit_generator.state


def test_the_compiled_search_never_peeks():
    """What the searcher cannot see (the other private contract, the order of the decks, the real dice) changes
    neither its decision nor its draws from the same seed."""
    policy = IsmctsPolicy(iterations=30, candidates=0)
    for k, state in enumerate(HIDING):
        other = hidden_changed(state, seed=k)
        assert other.contract_deck != state.contract_deck or other.research_deck != state.research_deck
        assert decisions_and_draws(policy, state.clone(), k) == decisions_and_draws(policy, other, k), k


@njit
def peek(real, world, rules, observer, bits) -> None:
    world[0] = real[0]  # the real position, hidden cards and all


@njit
def peeking_search(real, world, tables, iterations, exploration, rollout_depth, bits, work, tree, path, values,
                   untried):
    work[0].feed_count = 0
    return ismcts(real, world, tables[0], np.int64(tables[0].players), iterations, exploration, rollout_depth, bits,
                  work[0], tree, path, values, untried, peek, compiled_search.legal_actions,
                  compiled_search.action_key, compiled_search.apply_action, compiled_search.is_over,
                  compiled_search.to_move, compiled_search.final_values, compiled_search.evaluate,
                  compiled_search.rollout)


@pytest.mark.exhaustive
def test_a_peeking_determinization_would_be_caught(monkeypatch):
    """The check above can fail: with a determinization that keeps the real position (reads the hidden cards),
    some decision changes once they are changed."""
    monkeypatch.setattr(compiled_search, "search", peeking_search)
    policy = IsmctsPolicy(iterations=30, candidates=0)
    changed = [decisions_and_draws(policy, s.clone(), k)[0] != decisions_and_draws(policy, hidden_changed(s, k), k)[0]
               for k, s in enumerate(HIDING)]
    assert any(changed)


def test_rules_the_compiled_engine_does_not_play_fall_back_to_the_python_search():
    state = POSITIONS[2][0].clone()
    state.rules = dataclasses.replace(state.rules, dinosaurs_per_kind=30)  # more than its Holding holds
    assert IsmctsPolicy(iterations=5).compiled_choice(state, np.random.default_rng(0)) is None
    fallback = IsmctsPolicy(iterations=5).choose(state, np.random.default_rng(0))
    assert fallback in state.legal_actions()


SCRIPT = """
import test_ted_compiled_search as t
from tyrsim.games.tiny_epic_dinosaurs import compiled_search
from tyrsim.games.tiny_epic_dinosaurs.policies import IsmctsPolicy
policy = IsmctsPolicy(iterations=4)
for k, state in enumerate(t.POSITIONS[2][:3]):
    t.same_choice(policy, state, k)
stats = getattr(compiled_search.search, "stats", None)  # none without the JIT
print(stats and (sum(stats.cache_hits.values()), sum(stats.cache_misses.values())))
"""


@pytest.mark.slow
def test_the_search_runs_as_plain_python_and_loads_from_the_cache(numba_cache):
    check_search_script(SCRIPT, Path(__file__).parent, numba_cache)
