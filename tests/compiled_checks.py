"""The checks every compiled engine's tests make the same way, in a fresh Python process each:
- with NUMBA_DISABLE_JIT=1 the compiled module runs as plain Python and plays the object engine's games;
- with NUMBA_CACHE_DIR (where numba caches when the package folder is read-only) a first process
  caches into that folder and a later one loads the whole turn loop (`play_games`, every rule and
  policy linked in) from it, compiling nothing. The folder is the run's own (the `numba_cache` fixture of
  tests/conftest.py), so the first process compiles only what no test of the run has compiled yet: each
  engine is compiled cold once a run, not once more for this check.

`games` is a list of (policies, games) played under `Rules(**rules)`, from seed 2, by the compiled
engine (`CompiledEngine.play_chunk`) and the object engine (`tyrsim.core.engine.runner.play_chunk`): the
two tables must be equal.

`rule_set_params` parametrizes a comparison over a game's rule sets: the rulebook's rules ("default") in every
lane, every other rule set a `slow` check (the default run compares them all; `pytest -m "not slow"` only the
rulebook's).

A compiled search's tests run their own script the same two ways (`check_search_script`): it prints numba's
(cache hits, misses) of the search function, or None without the JIT; `same_choice` checks that a compiled
search decides as the Python search (`reference_choice`) does from the same seed and draws what it draws.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tyrsim.core.engine.rng import held_doubles

SCRIPT = """
import numpy as np, pandas as pd
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.{package} import SPEC
from tyrsim.games.{package}.compiled_policies import play_games
from tyrsim.games.{package}.rules import Rules
for policies, count in {games!r}:
    rules = Rules(**{rules!r})
    compiled = SPEC.compiled.play_chunk(rules, policies, 0, count, np.random.default_rng(2))
    objects = [SPEC.make_policy(p) for p in policies]
    reference = object_chunk(SPEC.make_game(rules, len(policies)), policies, objects, 0, count,
                             np.random.default_rng(2))
    pd.testing.assert_frame_equal(compiled, reference)
stats = getattr(play_games, "stats", None)  # none without the JIT
print(stats and (sum(stats.cache_hits.values()), sum(stats.cache_misses.values())))
"""


def same_games(package: str, rules: dict, games: list, env: dict[str, str]) -> str:
    """Play `games` in a fresh process with `env` added; what it prints: numba's (cache hits, misses) of
    `play_games`, or None without the JIT."""
    script = SCRIPT.format(package=package, rules=rules, games=[(list(p), n) for p, n in games])
    done = subprocess.run([sys.executable, "-c", script], env=os.environ | env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


def check_pure_python(package: str, rules: dict, games: list) -> None:
    assert same_games(package, rules, games, {"NUMBA_DISABLE_JIT": "1"}) == "None"


def check_cache_loads(cache: Path, package: str, rules: dict, games: list) -> None:
    env = {"NUMBA_CACHE_DIR": str(cache)}
    same_games(package, rules, games, env)
    assert list(cache.rglob("*compiled_policies*.nbi")) and list(cache.rglob("*compiled.*.nbi"))
    hits, misses = (int(v) for v in same_games(package, rules, games, env).strip("()").split(","))
    assert hits > 0 and misses == 0


def run_in_folder(script: str, folder: Path, env: dict[str, str]) -> str:
    """What `script` prints, run in a fresh process in the test folder `folder` (importable, with the shared test
    modules, before the run's own PYTHONPATH) with `env` added."""
    path = os.pathsep.join(dict.fromkeys([str(folder), str(Path(__file__).parent),
                                          *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]))
    done = subprocess.run([sys.executable, "-c", script], env=os.environ | env | {"PYTHONPATH": path},
                          cwd=folder, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


def check_search_script(script: str, folder: Path, cache: Path) -> None:
    """`script` runs as plain Python (NUMBA_DISABLE_JIT=1), and a process after one that ran it with the cache
    folder `cache` loads its search from there, compiling nothing."""
    assert run_in_folder(script, folder, {"NUMBA_DISABLE_JIT": "1"}) == "None"
    env = {"NUMBA_CACHE_DIR": str(cache)}
    run_in_folder(script, folder, env)
    hits, misses = (int(v) for v in run_in_folder(script, folder, env).strip("()").split(","))
    assert hits > 0 and misses == 0


def same_choice(policy, state, seed: int):
    """Both searches' choices from generators of the same seed, and what each generator draws next: the compiled
    search's (`policy.compiled_choice`) must equal the Python search's (`policy.reference_choice`)."""
    fast, slow = np.random.default_rng(seed), np.random.default_rng(seed)
    chosen = policy.compiled_choice(state.clone(), fast)
    left = held_doubles(fast), fast.bit_generator.state  # (the block Python holds is one generator's at a time)
    expected = policy.reference_choice(state.clone(), slow)
    assert chosen == expected, (seed, state)
    assert left == (held_doubles(slow), slow.bit_generator.state), seed
    return chosen


def rule_set_params(rule_sets) -> list:
    """The names of `rule_sets` as pytest parameters: "default" (the rulebook's rules) in every lane, the others
    marked `slow`."""
    return [pytest.param(name, marks=() if name == "default" else pytest.mark.slow) for name in rule_sets]


def recorded_chunks(monkeypatch, compiled_policies) -> list[int]:
    """The game counts of the chunks a game's compiled engine plays from now on (they still play): its
    `compiled_policies.chunk_player`'s players wrapped to record them."""
    played, real = [], compiled_policies.chunk_player

    def chunk_player(rules, forms, names):
        play = real(rules, forms, names)

        def play_chunk(first, count, rng, game_rng=None):
            played.append(count)
            return play(first, count, rng, game_rng)

        return play_chunk

    monkeypatch.setattr(compiled_policies, "chunk_player", chunk_player)
    return played
