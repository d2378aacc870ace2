"""Tyros speed: the vectorized expansion kernel against the full engine playing tiles only.

Run: python benchmarks/bench_tyros.py
Baseline, measured in the same run: the full engine (`TyrosGame(tiles_only=True)`)
playing whole games of tile play one at a time with the same tile rule. Times
are CPU seconds of this process (one core): the kernel's best of three runs,
the engine's one run of many games; full-game speeds per policy are printed
for reference, greedy's and the planner's beside the same games with every ship move they
weigh scored on the whole board (their baseline: `policies.moved_score` replaced by the full
scoring; same seeds, same decisions).
"""

from __future__ import annotations

from unittest import mock

import numpy as np
from timing import best_of

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play
from tyrsim.games.tyros import policies
from tyrsim.games.tyros.expansion import simulate_expansion
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.policies import GreedyPolicy, PlannerPolicy, TilePolicy
from tyrsim.games.tyros.rules import Rules

KERNEL_GAMES = 100_000
ENGINE_GAMES = 2_000
FULL_GAMES = 20


def kernel_rate(rules: Rules, players: int, rule: str) -> float:
    seconds = best_of(3, lambda: simulate_expansion(rules, players, KERNEL_GAMES, np.random.default_rng(1), rule))
    return KERNEL_GAMES / seconds


def engine_rate(rules: Rules, players: int, rule: str) -> float:
    game = TyrosGame(rules, players, tiles_only=True)
    policies = [TilePolicy(rule)] * players
    rng = np.random.default_rng(1)
    seconds = best_of(1, lambda: [play(game, policies, rng) for _ in range(ENGINE_GAMES)])
    return ENGINE_GAMES / seconds


def full_game_rate(policy) -> float:
    game = TyrosGame(Rules(), 4)
    rng = np.random.default_rng(2)
    seconds = best_of(1, lambda: [play(game, [policy] * 4, rng) for _ in range(FULL_GAMES)])
    return FULL_GAMES / seconds


def full_scoring(state, player, move, now, moved, score_now, ranks) -> int:
    """The baseline of `policies.moved_score`: the position after the move scored on the whole board."""
    return moved.score(state, player)


def main() -> None:
    for setup in ("variable", "first-game"):
        rules = Rules(setup=setup)
        for rule in ("random", "largest"):
            kernel = kernel_rate(rules, 4, rule)
            engine = engine_rate(rules, 4, rule)
            print(f"{setup:10s} 4 players, {rule:7s} tiles: kernel {kernel / 1e3:6.1f} thousand games/s, "
                  f"engine {engine / 1e3:5.2f} thousand games/s, ratio {kernel / engine:5.0f}x")
    for policy in (RandomPolicy(), GreedyPolicy(), PlannerPolicy()):
        rate = full_game_rate(policy)
        line = f"full game, 4 x {policy.name:8s}: {rate:6.1f} games/s"
        if not isinstance(policy, RandomPolicy):
            with mock.patch.object(policies, "moved_score", full_scoring):
                baseline = full_game_rate(policy)
            line += f" (every move scored on the whole board: {baseline:6.1f} games/s, ratio {rate / baseline:.2f}x)"
        print(line)


if __name__ == "__main__":
    main()
