"""Tiny Epic Dinosaurs speed: whole games per second and the herd-growth kernel's ranch-rounds per second.

Run: python benchmarks/bench_tiny_epic_dinosaurs.py
Times are CPU seconds of this process (one core), best of a few repeats.
Baselines, measured in the same run:
- games: the same random games played the straightforward immutable-state way,
  copying the state (`state.clone()`, a deep copy) before every move;
- kernel: the plain per-ranch loop `analysis.herd_growth_reference`.
Targets: 500 two-player random games/s; 1,000,000 ranch-rounds/s.
"""

from __future__ import annotations

import time

import numpy as np

from tyrsim.core.game import RandomPolicy
from tyrsim.core.runner import play
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.analysis import herd_growth, herd_growth_reference
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules


def best_of(repeats: int, fn) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def games(players: int, policies: list[str], n: int, seed: int = 1) -> None:
    game = SPEC.make_game(Rules(), players)
    chosen = [SPEC.make_policy(name) for name in policies]
    rng = np.random.default_rng(seed)
    for _ in range(n):
        play(game, chosen, rng)


def copying_games(players: int, n: int, seed: int = 1) -> None:
    """Random games where every move is applied to a fresh copy of the state."""
    game = SPEC.make_game(Rules(), players)
    policy = RandomPolicy()
    rng = np.random.default_rng(seed)
    for _ in range(n):
        state = game.new_state(rng)
        while not state.is_terminal():
            action = policy.choose(state, rng)
            state = state.clone()
            state.apply(action)


def main() -> None:
    n = 300
    rate2 = n / best_of(3, lambda: games(2, ["random", "random"], n))
    base_n = 30
    base_rate = base_n / best_of(1, lambda: copying_games(2, base_n))
    print(f"2-player random games: {rate2:,.0f} games/s (target 500)")
    print(f"  baseline, a copy of the state before every move: {base_rate:,.0f} games/s")
    print(f"  ratio: {rate2 / base_rate:.1f}x")
    rate4 = 150 / best_of(2, lambda: games(4, ["random"] * 4, 150))
    print(f"4-player random games: {rate4:,.0f} games/s")
    archetypes = ["hunter", "breeder", "contractor"]
    rate_policies = 60 / best_of(1, lambda: games(3, archetypes, 60))
    print(f"3-player hunter/breeder/contractor games: {rate_policies:,.0f} games/s")

    rules = Rules()
    args = ("stegosaurus", 2, 2, 6, 5, 1)  # start herd, enclosures, capacity, income, hunts
    ranches = 200_000
    kernel_time = best_of(3, lambda: herd_growth(rules, args[0], ranches, *args[1:], np.random.default_rng(1)))
    kernel_rate = ranches * rules.rounds / kernel_time
    loop_ranches = 5_000
    rng = np.random.default_rng(2)
    loop_time = best_of(1, lambda: [herd_growth_reference(rules, *args, rng) for _ in range(loop_ranches)])
    loop_rate = loop_ranches * rules.rounds / loop_time
    print(f"herd-growth kernel: {kernel_rate / 1e6:.1f} million ranch-rounds/s (target 1.0)")
    print(
        f"  baseline, plain per-ranch loop: {loop_rate / 1e3:.0f} thousand ranch-rounds/s; "
        f"ratio {kernel_rate / loop_rate:.0f}x"
    )


if __name__ == "__main__":
    main()
