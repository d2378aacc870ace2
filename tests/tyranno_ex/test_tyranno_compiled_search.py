"""Tyranno Ex's compiled search (`compiled_search`) is the Python search (`IsmctsPolicy.reference_choice`) decision
for decision: the same choice from the same seed, with the same draws left behind, on positions of every phase,
with every rollout and width, for 2 to 4 players. Its determinization is `TyrannoExState.determinize` draw for draw
(the fields only search keeps included: `known`, `laid`, `out`, `set_aside`); it never peeks; it runs without the
JIT and loads from numba's cache."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from compiled_checks import check_search_script, same_choice
from numba import njit

from tyrsim.core.compiled.search import ismcts
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.rng import uniform
from tyrsim.games.tyranno_ex import compiled as C
from tyrsim.games.tyranno_ex import compiled_search
from tyrsim.games.tyranno_ex.compiled_policies import new_workspace, policy_tables
from tyrsim.games.tyranno_ex.compiled_search import determinize
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.heuristics import chance_table
from tyrsim.games.tyranno_ex.policies import GreedyPolicy, IsmctsPolicy
from tyrsim.games.tyranno_ex.rules import Rules

# (overrides, players): the default at every player count, and a tie left to the chooser
RULE_SETS = {
    "4 players": ({}, 4),
    "3 players": ({}, 3),
    "2 players": ({}, 2),
    "majority_tie=chooser": ({"majority_tie": "chooser"}, 4),
}


def positions(rules: Rules, players: int, games: int, every: int):
    """Every `every`-th position of random games (their states, the object engine's)."""
    policy = RandomPolicy()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = make_game(rules, players).new_state(rng)
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                yield state
            state.apply(policy.choose(state, rng))
            step += 1


def compiled_determinization(state, tables, seed: int) -> tuple[np.recarray, dict]:
    """The compiled determinization of `state` for its player to move, and its generator's state after."""
    rng = np.random.default_rng(seed)
    world = C.new_position()
    determinize(C.position_of(state), world, (tables,), np.int64(state.current_player()), rng.bit_generator)
    return world, rng.bit_generator.state


@pytest.mark.parametrize("name", RULE_SETS)
def test_determinization_is_the_object_engines(name):
    overrides, players = RULE_SETS[name]
    rules = Rules.from_overrides(overrides)
    tables = C.rule_tables(rules)
    checked = 0
    for k, state in enumerate(positions(rules, players, games=4, every=5)):
        rng = np.random.default_rng(k)
        expected = C.position_of(state.determinize(state.current_player(), rng))
        world, after = compiled_determinization(state, tables, k)
        assert C.differences(expected, world) == [], f"position {k} ({state.phase})"
        assert after == rng.bit_generator.state, f"position {k} ({state.phase}): the generator differs"
        checked += 1
    assert checked >= 60


def hide_otherwise(state) -> None:
    """Change what the player to move cannot see: the cards under the face-up ones, and a chip of another
    hand swapped with one of another symbol in the bag."""
    player = state.current_player()
    for pile in state.piles:
        pile[:-1] = pile[:-1][::-1]
    for q in range(state.num_players):
        hand, bag = state.hands[q], state.bag.chips
        given = next((s for s in range(4) if hand[s]), None)
        taken = next((s for s in range(4) if bag[s] and s != given), None)
        if q != player and given is not None and taken is not None:
            hand[given] -= 1  # the chip goes back into the bag ...
            bag[given] += 1
            hand[taken] += 1  # ... and one of another symbol comes out
            bag[taken] -= 1
            return


def test_determinization_never_peeks():
    """The determinization of a position whose hidden cards and chips were changed is the same, draw for draw."""
    rules = Rules()
    tables = C.rule_tables(rules)
    changed = 0
    for k, state in enumerate(positions(rules, 4, games=3, every=6)):
        world, after = compiled_determinization(state, tables, k)
        other = state.clone()
        hide_otherwise(other)
        changed += C.differences(C.position_of(state), C.position_of(other)) != []
        world_other, after_other = compiled_determinization(other, tables, k)
        assert C.differences(world, world_other) == [] and after == after_other, f"position {k}"
    assert changed > 20  # the change did change hidden values


# --- the search ----------------------------------------------------------------------------------------------------


def decisions(name: str, count: int, seed: int) -> list:
    """Positions of more than one legal action from games of random and greedy players, at most a third of them of
    one phase (placements and environment turns are most of a game's decisions)."""
    overrides, players = RULE_SETS[name]
    game, rng, out = make_game(Rules.from_overrides(overrides), players), np.random.default_rng(seed), []
    seats = [RandomPolicy() if p % 2 else GreedyPolicy() for p in range(players)]
    phases = Counter()
    while len(out) < count:
        state = game.new_state(rng)
        while not state.is_terminal() and len(out) < count:
            if len(state.legal_actions()) > 1 and phases[state.phase] <= count // 3 and uniform(rng) < 0.2:
                phases[state.phase] += 1
                out.append(state.clone())
            state.apply(seats[state.current_player()].choose(state, rng))
    return out


OPTIONS = [
    {"iterations": 30},  # the default's evaluation straight after the new node
    {"iterations": 20, "width": 2, "exploration": 0.3, "temperature": 3.0},
    {"iterations": 20, "width": 10},
    {"iterations": 8, "rollout": "random", "rollout_depth": 6},
    {"iterations": 6, "rollout": "greedy", "rollout_depth": 2},
    {"iterations": 6, "rollout": "builder", "rollout_depth": 3},
]


@pytest.mark.parametrize("name", RULE_SETS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_same_decisions_as_the_python_search(name, options):
    policy = IsmctsPolicy(**options)
    states = decisions(name, 13, seed=len(name))
    chosen = [same_choice(policy, state, seed) for seed, state in enumerate(states)]
    assert len({type(a) for a in chosen}) > 1  # the decisions are of more than one kind: they mean something


def test_every_phase_is_searched():
    phases = Counter(s.phase for name in RULE_SETS for s in decisions(name, 12, seed=len(name)))
    assert set(phases) >= {"place", "environment", "five", "combat", "tie"}


def test_a_game_to_its_end_through_the_search_is_the_same_both_ways():
    """A whole game played out by random rollouts in the search (`rollout_depth=-1`) from an early position."""
    state = decisions("4 players", 1, seed=9)[0]
    same_choice(IsmctsPolicy(iterations=4, rollout="random", rollout_depth=-1), state, 0)


def numbers(state, tables) -> list[int]:
    """The numbers (`action_number`) of every legal action of the object engine's `state`, in its order."""
    real, work = C.position_of(state).view(np.recarray), new_workspace()
    n = C.list_actions(real, tables, work[0].actions)
    return [compiled_search.action_number(real[0], work[0], i) for i in range(n)]


def test_action_numbers_tell_apart_exactly_the_actions_that_differ():
    tables = C.rule_tables(Rules())
    for state in decisions("4 players", 60, seed=6):
        assert len(set(numbers(state, tables))) == len(state.legal_actions()) == len(set(state.legal_actions()))


def test_the_search_weighs_the_candidates_of_the_python_search():
    """The compiled candidates are `IsmctsPolicy.candidates`, in the game's order, for every width."""
    rules = Rules()
    setting = (C.rule_tables(rules), policy_tables(rules), chance_table(rules))
    pruned = 0
    for width in (2, 4, 6, 10):
        policy = IsmctsPolicy(width=width)
        work = compiled_search.search_work(type(policy), policy.rollout, width, policy.temperature)
        for state in decisions("4 players", 40, seed=width):
            every, number = list(state.legal_actions()), numbers(state, setting[0])
            expected = [number[every.index(a)] for a in policy.candidates(state)]
            real = C.position_of(state).view(np.recarray)
            n = compiled_search.legal_actions(real, setting, work[0])
            assert [int(k) for k in work[0].keys[:n]] == expected, (width, state.phase)
            pruned += len(expected) < len(every)
    assert pruned > 20


STATES = decisions("4 players", 24, seed=11)


def test_the_compiled_search_never_peeks():
    """What the searcher cannot see (the other trays, the face-down chips others laid, the bag, the cards under
    the face-up ones, the state's own generator) does not change a decision from the same seed."""
    policy = IsmctsPolicy(iterations=100)
    changed = 0
    for k, state in enumerate(STATES):
        other = state.clone()
        hide_otherwise(other)
        other.rng = np.random.default_rng(1000 + k)
        changed += C.differences(C.position_of(state), C.position_of(other)) != []
        assert policy.compiled_choice(state.clone(), np.random.default_rng(k)) == policy.compiled_choice(
            other, np.random.default_rng(k)), k
    assert changed > 10


@njit
def peek(real, world, rules, observer, bits) -> None:
    world[0] = real[0]  # the real position, hidden chips and cards and all


@njit
def peeking_search(real, world, tables, ptables, chances, iterations, exploration, rollout_depth, bits, work, tree,
                   path, values, untried):
    return ismcts(real, world, (tables, ptables, chances), np.int64(real[0].num_players), iterations, exploration,
                  rollout_depth, bits, work[0], tree, path, values, untried, peek, compiled_search.legal_actions,
                  compiled_search.action_key, compiled_search.apply_action, compiled_search.is_over,
                  compiled_search.to_move, compiled_search.final_values, compiled_search.evaluate,
                  compiled_search.rollout)


@pytest.mark.exhaustive
def test_a_peeking_determinization_would_be_caught(monkeypatch):
    """The check above can fail: with a determinization that keeps the real position (reads the hidden chips and
    cards), some decision changes once they are changed."""
    monkeypatch.setattr(compiled_search, "search", peeking_search)
    policy = IsmctsPolicy(iterations=100)
    changed = []
    for k, state in enumerate(STATES):
        other = state.clone()
        hide_otherwise(other)
        changed.append(policy.compiled_choice(state.clone(), np.random.default_rng(k))
                       != policy.compiled_choice(other, np.random.default_rng(k)))
    assert any(changed)


def test_rules_the_compiled_engine_does_not_play_fall_back_to_the_python_search(monkeypatch):
    state = STATES[0]
    monkeypatch.setattr(compiled_search, "supported", lambda rules: "rule 'x': not played")
    assert IsmctsPolicy(iterations=5).compiled_choice(state, np.random.default_rng(0)) is None
    chosen = IsmctsPolicy(iterations=5).choose(state.clone(), np.random.default_rng(0))
    assert chosen == IsmctsPolicy(iterations=5).reference_choice(state.clone(), np.random.default_rng(0))


SCRIPT = """
import numpy as np
import test_tyranno_compiled_search as t
from tyrsim.games.tyranno_ex import compiled_search
from tyrsim.games.tyranno_ex.policies import IsmctsPolicy
policy = IsmctsPolicy(iterations=6)
for k, state in enumerate(t.decisions("4 players", 3, seed=2)):
    t.same_choice(policy, state, k)
stats = getattr(compiled_search.search, "stats", None)  # none without the JIT
print(stats and (sum(stats.cache_hits.values()), sum(stats.cache_misses.values())))
"""


@pytest.mark.slow
def test_the_search_runs_as_plain_python_and_loads_from_the_cache(numba_cache):
    check_search_script(SCRIPT, Path(__file__).parent, numba_cache)
