"""Zooloretto Duell's object engine on one core: what a game and a search's copy of a position cost.

Run: python benchmarks/bench_zooloretto_duell.py [--seconds S]

Measured in the same run, CPU time of this process (`time.process_time`): the object engine
alone (an index instead of a policy), one generator draw per action (the floor set by numpy's
generator), `ZooState.clone` against `copy.deepcopy` (a search clones once per playout), and
the flat Monte Carlo search against random. The compiled engine's speed against the object
engine: benchmarks/bench_zooloretto_compiled.py.
"""

from __future__ import annotations

import argparse
import copy
import time

import numpy as np

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.game import ZooGame
from tyrsim.games.zooloretto_duell.rules import Rules


def rate(work, seconds: float) -> tuple[float, int]:
    """(calls per CPU second, calls) of `work()` repeated for about `seconds` of this process's CPU time."""
    work()  # warm-up
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        work()
        calls += 1
    return calls / elapsed, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time spent on each object-engine measurement")
    options = parser.parse_args()
    seconds = options.seconds
    rng = np.random.default_rng(2024)
    print("one core, CPU time")

    game = ZooGame(Rules())

    def engine_only() -> None:
        state, k = game.new_state(rng), 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[k % len(legal)])
            k += 7

    engine_rate, _ = rate(engine_only, seconds)
    print(f"object engine alone (no policy, no runner): {engine_rate:,.0f} games/s")
    actions = int(np.mean([play(game, [RandomPolicy(), RandomPolicy()], rng).actions for _ in range(200)]))
    floor_rate, _ = rate(lambda: [rng.integers(4) for _ in range(actions)], seconds)
    print(f"floor of the object engine's random play, one generator draw per action ({actions} a game): "
          f"{floor_rate:,.0f} games/s")
    state = game.new_state(rng)
    for _ in range(40):
        state.apply(RandomPolicy().choose(state, rng))
    clone_rate, _ = rate(state.clone, seconds / 3)
    deep_rate, _ = rate(lambda: copy.deepcopy(state, {id(game): game}), seconds / 3)  # the game itself shared
    print(f"clone: {1e6 / clone_rate:.1f} us, deepcopy: {1e6 / deep_rate:.1f} us "
          f"(clone {clone_rate / deep_rate:.0f}x faster)")
    for text in ("mcts", "mcts:playouts=50"):
        policy = SPEC.make_policy(text)
        speed, n = rate(lambda policy=policy: play(game, [policy, RandomPolicy()], rng), seconds * 3)
        print(f"{text} vs random (object engine): {speed:,.3f} games/s ({n} games)")


if __name__ == "__main__":
    main()
