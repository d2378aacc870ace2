"""Speed of the Tyranno Ex game engine, its policies and the survival kernel.

Run: python benchmarks/bench_tyranno_ex_game.py [--games N]

Figures are CPU seconds of this process (one core). Baselines, measured in the
same run:
- engine: the same random games with every legal-action list rebuilt from
  scratch (no caches) and fights rolled die by die through `resolve_fight(rng=...)`;
- survival kernel: the same environment cards laid chip by chip with the
  engine's `Environment` in a Python loop per trial.
The target is at least 300 four-player random games per second.
"""

from __future__ import annotations

import argparse
import time
from contextlib import contextmanager

import numpy as np

from tyrsim.core.engine.runner import play
from tyrsim.games.tyranno_ex import SPEC, actions, environmental_change, game
from tyrsim.games.tyranno_ex.analysis import lay_chips
from tyrsim.games.tyranno_ex.combat import resolve_fight, strength
from tyrsim.games.tyranno_ex.environment import Bag, Environment
from tyrsim.games.tyranno_ex.rules import Rules


def games_per_second(policies: list[str], n_games: int, seed: int = 1) -> float:
    g = SPEC.make_game(Rules(), len(policies))
    players = [SPEC.make_policy(p) for p in policies]
    rng = np.random.default_rng(seed)
    start = time.process_time()
    for _ in range(n_games):
        play(g, players, rng)
    return n_games / (time.process_time() - start)


@contextmanager
def straightforward_engine():
    """The engine without its action caches and with fights rolled die by die."""
    cached = [(actions, "chip_options"), (actions, "_set_chips_actions"), (actions, "_use_five_actions"),
              (actions, "trade_actions"), (environmental_change, "environment_actions")]
    saved = {(module, name): getattr(module, name) for module, name in cached}
    saved_resolve = game.TyrannoExState._resolve

    def resolve(self, attacker, defender, chips):
        return resolve_fight(
            strength(attacker.die), self.dice(attacker.card, chips),
            strength(defender.die), self.dice(defender.card, chips), self.rules, rng=self.rng,
        )  # fmt: skip

    for (module, name), value in saved.items():
        setattr(module, name, value.__wrapped__)
    game.TyrannoExState._resolve = resolve
    try:
        yield
    finally:
        for (module, name), value in saved.items():
            setattr(module, name, value)
        game.TyrannoExState._resolve = saved_resolve


def kernel_vs_loop(trials: int, chips: int) -> tuple[float, float]:
    """Environment cards per second: the vectorized kernel and a Python loop over `Environment`."""
    rng = np.random.default_rng(3)
    opening = rng.integers(4, size=(trials, 4))
    spaces = rng.integers(4, size=(trials, chips))
    symbols = rng.integers(4, size=(trials, chips))
    rules = Rules()
    start = time.process_time()
    lay_chips(opening, spaces, symbols, rules, rng, {chips})
    kernel = trials / (time.process_time() - start)
    loop_trials = max(1, trials // 20)
    start = time.process_time()
    for t in range(loop_trials):
        env, bag = Environment(list(opening[t])), Bag([21] * 4)
        for j in range(chips):
            env.set_chip(int(spaces[t, j]), int(symbols[t, j]))
            env.resolve(int(spaces[t, j]), "random", bag, rng)
        env.chips_of()
    loop = loop_trials / (time.process_time() - start)
    return kernel, loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games per measurement")
    args = parser.parse_args()
    n = args.games
    games_per_second(["random"] * 4, 20)  # warm the caches and the odds table

    fast = games_per_second(["random"] * 4, n)
    with straightforward_engine():
        slow = games_per_second(["random"] * 4, n)
    print(f"4-player random games:        {fast:8.1f} games/s (target 300)")
    print(f"  straightforward baseline:   {slow:8.1f} games/s   ratio {fast / slow:.2f}x")
    for players in (3, 2):
        print(f"{players}-player random games:        {games_per_second(['random'] * players, n):8.1f} games/s")

    few = max(10, n // 10)
    games_per_second(["greedy"] * 4, 2)  # build the exact odds table once
    for name in ("greedy", "aggressive", "builder"):
        print(f"4 x {name:<10}                {games_per_second([name] * 4, few):8.1f} games/s")
    mix = ["greedy", "aggressive", "builder", "random"]
    print(f"greedy/aggressive/builder/random {games_per_second(mix, few):6.1f} games/s")

    kernel, loop = kernel_vs_loop(100_000, 24)
    print(f"survival kernel (24 chips):   {kernel:10.0f} cards/s")
    print(f"  Python loop baseline:       {loop:10.0f} cards/s   ratio {kernel / loop:.1f}x")


if __name__ == "__main__":
    main()
