"""Zooloretto Duell speed on one core: the batch engine against the object engine, per policy, and memory.

Run: python benchmarks/bench_zooloretto_duell.py [--seconds S] [--batch N] [--sizes 200,2000,20000]

Measured in the same run, CPU time of this process (`time.process_time`):
- random against random and heuristic against heuristic (the targets: 100,000 and 20,000
  games per second) with the batch engine (`batch.play_chunk`, one batch of N games) and
  with the object engine (`runner.play_chunk`), and their ratio; greedy against random too;
- the batch engine's speed against its batch size (its cost per turn is mostly fixed, so
  small batches are slow);
- memory per game of the batch engine: the arrays that hold a game, and the peak of all
  numpy allocations during a whole batch (tracemalloc) divided by its games;
- for the object engine: the engine alone (an index instead of a policy), one generator
  draw per action (the floor set by numpy's generator), and `ZooState.clone` against
  `copy.deepcopy`, which a search does once per playout.
"""

from __future__ import annotations

import argparse
import copy
import time
import tracemalloc

import numpy as np

from tyrsim.core.game import RandomPolicy
from tyrsim.core.runner import play, play_chunk
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell import batch as batch_engine
from tyrsim.games.zooloretto_duell.batch_policies import batch_policy
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


def object_rate(texts: list[str], seconds: float, rng: np.random.Generator) -> float:
    """Games per CPU second of the object engine, 20 games at a time."""
    game = SPEC.make_game(Rules(), 2)
    policies = [SPEC.make_policy(t) for t in texts]
    speed, _ = rate(lambda: play_chunk(game, texts, policies, 0, 20, rng), seconds)
    return 20 * speed


def batch_rate(texts: list[str], games: int, rng: np.random.Generator) -> float:
    """Games per CPU second of the batch engine playing one batch of `games` games."""
    policies = [batch_policy(SPEC.make_policy(t)) for t in texts]
    start = time.process_time()
    batch_engine.play_chunk(Rules(), texts, policies, 0, games, rng, batch_games=games)
    return games / (time.process_time() - start)


def batch_memory(texts: list[str], games: int) -> tuple[float, float]:
    """(bytes of the arrays holding one game, peak bytes of numpy allocations per game during a batch)."""
    held = batch_engine.ZooBatch(Rules(), games, np.random.default_rng(0))
    state = sum(v.nbytes for v in vars(held).values() if isinstance(v, np.ndarray))
    state += sum(v.nbytes for v in vars(held.markers).values() if isinstance(v, np.ndarray))
    del held
    policies = [batch_policy(SPEC.make_policy(t)) for t in texts]
    tracemalloc.start()
    batch_engine.play_chunk(Rules(), texts, policies, 0, games, np.random.default_rng(1), batch_games=games)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return state / games, peak / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time spent on each object-engine measurement")
    parser.add_argument("--batch", type=int, default=batch_engine.BATCH_GAMES, help="games in one batch")
    parser.add_argument("--sizes", default="200,2000,20000", help="batch sizes for the speed-against-size line")
    options = parser.parse_args()
    seconds, games = options.seconds, options.batch
    rng = np.random.default_rng(2024)

    print(f"one core, CPU time; batch engine: one batch of {games:,} games")
    for texts, target in ((["random", "random"], 100_000), (["heuristic", "heuristic"], 20_000),
                          (["greedy", "random"], None)):
        fast = batch_rate(texts, games, rng)
        slow = object_rate(texts, seconds, rng)
        goal = f"; target {target:,}" if target else ""
        print(f"{' vs '.join(texts)}: batch {fast:,.0f} games/s, object {slow:,.0f} games/s, "
              f"{fast / slow:.1f}x{goal}")
    sizes = [int(s) for s in options.sizes.split(",")]
    for texts in (["random", "random"], ["heuristic", "heuristic"]):
        line = ", ".join(f"{n:,}: {batch_rate(texts, n, rng):,.0f}" for n in sizes)
        print(f"{' vs '.join(texts)}, batch games/s by batch size: {line}")
    for texts in (["random", "random"], ["heuristic", "heuristic"]):
        held, peak = batch_memory(texts, games)
        print(f"{' vs '.join(texts)}, batch memory per game: {held:,.0f} bytes held, {peak:,.0f} bytes at the peak "
              f"({peak * games / 2**20:,.0f} MiB for {games:,} games)")

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
