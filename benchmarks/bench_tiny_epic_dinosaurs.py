"""Tiny Epic Dinosaurs speed: whole games per second and the herd-growth kernel's ranch-rounds per second.

Run: python benchmarks/bench_tiny_epic_dinosaurs.py
Times are CPU seconds of this process (one core), best of a few repeats; each repeat
plays new games (its own seed), so the engine's memos (each fence layout's enclosures, the
placements of a space) are never warmed by replaying the very same games. Games are played under the garbage
collector settings every simulation uses (`runner.game_collector`, as `play_chunk` does),
the baseline too; the two-player games are also timed with the collector at its defaults.
Baselines, measured in the same run:
- games: the same random games played the straightforward immutable-state way,
  copying the state (`state.clone()`, a deep copy) before every move;
- kernel: the plain per-ranch loop `analysis.herd_growth_reference`.
Targets: 500 two-player random games/s; 1,000,000 ranch-rounds/s.
Figures: docs/performance.md.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable

import numpy as np
from timing import best_of

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import game_collector, play
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.analysis import herd_growth, herd_growth_reference
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules


def repeats(fn: Callable[[int], object]) -> Callable[[], object]:
    """`fn` called with 0, 1, 2... on successive calls: each timing repeat gets its own seed."""
    count = itertools.count()
    return lambda: fn(next(count))


def games(players: int, policies: list[str], n: int, seed: int = 1, collector: bool = True) -> None:
    game = SPEC.make_game(Rules(), players)
    chosen = [SPEC.make_policy(name) for name in policies]
    rng = np.random.default_rng(seed)
    with game_collector() if collector else contextlib.nullcontext():
        for _ in range(n):
            play(game, chosen, rng)


def copying_games(players: int, n: int, seed: int = 1) -> None:
    """Random games where every move is applied to a fresh copy of the state."""
    game = SPEC.make_game(Rules(), players)
    policy = RandomPolicy()
    rng = np.random.default_rng(seed)
    with game_collector():
        for _ in range(n):
            state = game.new_state(rng)
            while not state.is_terminal():
                action = policy.choose(state, rng)
                state = state.clone()
                state.apply(action)


def main() -> None:
    n = 300
    rate2 = n / best_of(5, repeats(lambda r: games(2, ["random", "random"], n, seed=1 + r)))
    base_n = 30
    base_rate = base_n / best_of(1, repeats(lambda r: copying_games(2, base_n, seed=1 + r)))
    print(f"2-player random games: {rate2:,.0f} games/s (target 500)")
    print(f"  baseline, a copy of the state before every move: {base_rate:,.0f} games/s")
    print(f"  ratio: {rate2 / base_rate:.1f}x")
    plain = n / best_of(5, repeats(lambda r: games(2, ["random", "random"], n, seed=1 + r, collector=False)))
    print(f"  the same games, garbage collector at its defaults: {plain:,.0f} games/s (settings: {rate2 / plain:.2f}x)")
    rate4 = 150 / best_of(2, repeats(lambda r: games(4, ["random"] * 4, 150, seed=1 + r)))
    print(f"4-player random games: {rate4:,.0f} games/s")
    archetypes = ["hunter", "breeder", "contractor"]
    rate_policies = 60 / best_of(1, repeats(lambda r: games(3, archetypes, 60, seed=1 + r)))
    print(f"3-player hunter/breeder/contractor games: {rate_policies:,.0f} games/s")

    rules = Rules()
    args = ("stegosaurus", 2, 2, 6, 5, 1)  # start herd, enclosures, capacity, income, hunts
    ranches = 200_000
    kernel_time = best_of(
        3, repeats(lambda r: herd_growth(rules, args[0], ranches, *args[1:], np.random.default_rng(1 + r)))
    )
    kernel_rate = ranches * rules.rounds / kernel_time
    loop_ranches = 5_000
    rng = np.random.default_rng(2)
    loop_time = best_of(1, repeats(lambda r: [herd_growth_reference(rules, *args, rng) for _ in range(loop_ranches)]))
    loop_rate = loop_ranches * rules.rounds / loop_time
    print(f"herd-growth kernel: {kernel_rate / 1e6:.1f} million ranch-rounds/s (target 1.0)")
    print(
        f"  baseline, plain per-ranch loop: {loop_rate / 1e3:.0f} thousand ranch-rounds/s; "
        f"ratio {kernel_rate / loop_rate:.0f}x"
    )


if __name__ == "__main__":
    main()
