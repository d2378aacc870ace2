"""Tyranno Ex combat speed: the exact table and Monte Carlo fights per second.

Run: python benchmarks/bench_combat.py
Times are CPU time of this process. Baseline, measured in the same run: a straightforward per-fight Python loop
that rolls every die (`combat.resolve_fight`).
"""

from __future__ import annotations

import numpy as np
from timing import best_of

from tyrsim.games.tyranno_ex import combat
from tyrsim.games.tyranno_ex.rules import Rules

MATCHUP = (3, 2, 1, 7)  # strength 3 with 2 dice against no die (strength 1) with 7 dice


def main() -> None:
    rules = Rules()
    full = (range(1, 7), range(31), range(1, 7), range(31))
    table_time = best_of(3, lambda: combat.odds(*full))
    print(f"exact table, 34,596 matchups: {table_time:.3f} s")

    rng = np.random.default_rng(1)
    loop_fights = 20_000
    loop_time = best_of(1, lambda: [combat.resolve_fight(*MATCHUP, rules, rng=rng) for _ in range(loop_fights)])
    loop_rate = loop_fights / loop_time

    fights = 10_000_000
    mc_time = best_of(3, lambda: combat.simulate(*MATCHUP, n_fights=fights, seed=1, rules=rules))
    mc_rate = fights / mc_time
    print(f"Monte Carlo, strength 3 x 2 dice vs strength 1 x 7 dice: {mc_rate / 1e6:.1f} million fights/s")
    print(f"plain per-fight loop rolling every die: {loop_rate / 1e3:.1f} thousand fights/s")
    print(f"ratio: {mc_rate / loop_rate:.0f}x")

    table_fights = 1000
    mc_table_time = best_of(1, lambda: combat.simulate(*full, n_fights=table_fights, seed=1))
    print(f"Monte Carlo, full table x {table_fights} fights: {mc_table_time:.2f} s "
          f"({34_596 * table_fights / mc_table_time / 1e6:.1f} million fights/s)")


if __name__ == "__main__":
    main()
