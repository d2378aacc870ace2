"""The compiled search (`tyrsim.core.compiled.search`) is the Python search (`tyrsim.core.engine.search`) step for step:
on a small game written both ways (tests/search_toy.py) it makes the same decisions from the same seeds."""

from pathlib import Path

import numpy as np
import pytest
import search_toy as toy
from compiled_checks import check_search_script
from numba import njit

from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.compiled.search import ismcts, new_tree
from tyrsim.core.engine.rng import uniform
from tyrsim.core.engine.search import IsmctsPolicy

keep_fresh(__file__)


@njit(cache=True)
def search(real, world, iterations, exploration, rollout_depth, bits, work, tree, path, values, untried):
    """The draw race's compiled search: `ismcts` with its functions (named through their module: numba then
    links them in as code, and caches this function)."""
    return ismcts(real, world, np.int64(0), np.int64(2), iterations, exploration, rollout_depth, bits, work, tree,
                  path, values, untried, toy.determinize, toy.legal_actions, toy.action_key, toy.apply_action,
                  toy.is_over, toy.to_move, toy.final_values, toy.even, toy.random_rollout)


def decisions(seed: int, count: int):
    """`count` positions of random draw races from `seed`, each with its mover's choice of two actions."""
    rng = np.random.default_rng(seed)
    while count:
        state = toy.DrawRace(rng)
        while not state.is_terminal():
            actions = state.legal_actions()
            if len(actions) > 1:
                yield state.clone()
                count -= 1
                if not count:
                    return
            state.apply(actions[int(uniform(rng) * len(actions))])


def compiled_choice(state, iterations, exploration, depth, seed):
    work = np.zeros(1, toy.WORK).view(np.recarray)[0]
    values, untried, path = np.zeros(8), np.zeros(2, np.int64), np.zeros(2 * toy.CARDS + 2, np.int64)
    tree = new_tree(iterations)
    key = search(toy.position_of(state), toy.new_position(), iterations, exploration, depth,
                     np.random.default_rng(seed).bit_generator, work, tree, path, values, untried)
    return int(key), tree


@pytest.mark.parametrize("iterations, exploration, depth", [(30, 0.7, -1), (120, 0.7, -1), (60, 0.2, 2), (40, 0.0, -1)])
def test_the_same_decisions_and_visits_as_the_python_search(iterations, exploration, depth):
    policy = IsmctsPolicy(iterations=iterations, exploration=exploration, rollout_depth=depth)
    chosen = []
    for k, state in enumerate(decisions(5, 150)):
        root = policy.search(state.clone(), np.random.default_rng(k))
        key, tree = compiled_choice(state, iterations, exploration, depth, k)
        assert key == policy.choose(state.clone(), np.random.default_rng(k)), k
        visits = {int(tree[c]["key"]): int(tree[c]["visits"]) for c in range(1, iterations + 1)
                  if tree[c]["visits"] and tree[c]["parent"] == 0}
        assert visits == {a: n.visits for a, n in root.children.items() if n.visits}, k
        chosen.append(key)
    assert 0 < sum(chosen) < len(chosen)  # both actions are chosen somewhere: the decisions mean something


SCRIPT = """
import numpy as np
import test_compiled_search as t
from tyrsim.core.engine.search import IsmctsPolicy
policy = IsmctsPolicy(iterations=20)
for k, state in enumerate(t.decisions(8, 12)):
    key, _ = t.compiled_choice(state, 20, 0.7, 8, k)
    assert key == policy.choose(state.clone(), np.random.default_rng(k)), k
stats = getattr(t.search, "stats", None)  # none without the JIT
print(stats and (sum(stats.cache_hits.values()), sum(stats.cache_misses.values())))
"""


@pytest.mark.slow
def test_the_search_runs_as_plain_python_and_loads_from_the_cache(numba_cache):
    """The game's functions are passed through its own cached function: a later process loads it, search
    and game compiled in, and compiles nothing."""
    check_search_script(SCRIPT, Path(__file__).parent, numba_cache)
