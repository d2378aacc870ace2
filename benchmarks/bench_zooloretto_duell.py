"""Zooloretto Duell speed on one core: games per second per policy, and the engine's hot operations.

Run: python benchmarks/bench_zooloretto_duell.py [--seconds S]

Baselines measured in the same run:
- "engine only": the same random games without a policy object (the action picked
  by a cheap index), so the runner's and the policy's overhead can be told apart;
- "draw one random integer per action": the floor set by numpy's generator alone,
  which `random` calls once per action;
- `copy.deepcopy` of a state (sharing the game object) against `ZooState.clone`, which a
  search does once per playout.
"""

from __future__ import annotations

import argparse
import copy
import time

import numpy as np

from tyrsim.core.game import RandomPolicy
from tyrsim.core.runner import play
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.game import ZooGame
from tyrsim.games.zooloretto_duell.rules import Rules


def rate(work, seconds: float) -> tuple[float, int]:
    """(calls per CPU second, calls) of `work()` repeated for about `seconds` of this process's CPU time.

    CPU time rather than wall time, so other work on the machine does not count against the engine.
    """
    work()  # warm-up
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        work()
        calls += 1
    return calls / elapsed, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on each measurement")
    seconds = parser.parse_args().seconds
    game = ZooGame(Rules())
    rng = np.random.default_rng(2024)

    random_rate, n = rate(lambda: play(game, [RandomPolicy(), RandomPolicy()], rng), seconds)
    actions = np.mean([play(game, [RandomPolicy(), RandomPolicy()], rng).actions for _ in range(200)])
    print(f"random vs random: {random_rate:,.0f} games/s ({n} games, {actions:.0f} actions a game; target 2,000)")

    def engine_only() -> None:
        state, k = game.new_state(rng), 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[k % len(legal)])
            k += 7

    engine_rate, _ = rate(engine_only, seconds)
    print(f"engine only (no policy, no runner): {engine_rate:,.0f} games/s")

    draws = int(actions)
    floor_rate, _ = rate(lambda: [rng.integers(4) for _ in range(draws)], seconds)
    print(f"floor, one generator draw per action: {floor_rate:,.0f} games/s")
    print(f"  random play spends {random_rate / floor_rate:.0%} of its time drawing random numbers")

    state = game.new_state(rng)
    for _ in range(40):
        state.apply(RandomPolicy().choose(state, rng))
    clone_rate, _ = rate(state.clone, seconds / 3)
    deep_rate, _ = rate(lambda: copy.deepcopy(state, {id(game): game}), seconds / 3)  # the game itself shared
    print(f"clone: {1e6 / clone_rate:.1f} us, deepcopy: {1e6 / deep_rate:.1f} us", end=" ")
    print(f"(clone {clone_rate / deep_rate:.0f}x faster)")

    for text in ("greedy", "heuristic"):
        policy = SPEC.make_policy(text)
        speed, n = rate(lambda policy=policy: play(game, [policy, RandomPolicy()], rng), seconds)
        print(f"{text} vs random: {speed:,.1f} games/s ({n} games; {speed / random_rate:.3f} of random's speed)")
    for text in ("mcts", "mcts:playouts=50"):
        policy = SPEC.make_policy(text)
        speed, n = rate(lambda policy=policy: play(game, [policy, RandomPolicy()], rng), seconds * 3)
        print(f"{text} vs random: {speed:,.3f} games/s ({n} games)")


if __name__ == "__main__":
    main()
