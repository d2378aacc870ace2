"""Zooloretto Duell speed on one core: the compiled engine against the object engine, and its compile cost.

Run: python benchmarks/bench_zooloretto_compiled.py [--seconds S] [--games N]

Measured in the same run, CPU time of this process (`time.process_time`), one core:
- games per second of random against random and heuristic against heuristic (the targets:
  100,000 and 20,000), greedy against random too, with the compiled engine
  (`CompiledEngine.play_chunk`, N games a call, the runner's table included) and with
  the object engine (`runner.play_chunk`, 20 games a call), and their ratio;
- the compile cost: a fresh process with an empty cache folder (NUMBA_CACHE_DIR) playing
  one game of each policy (every compiled function compiled), then a second process
  loading them from that cache; wall time and the child's CPU time, import included, and
  the number of functions numba compiled (a function compiles once for each combination
  of argument types it is called with: each of the engine's should compile once).
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import print_compile_cost, rate

from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.rules import Rules

PAIRS = (["random", "random"], ["greedy", "random"], ["heuristic", "heuristic"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--games", type=int, default=20_000, help="games per compiled play_chunk call")
    args = parser.parse_args()
    print_compile_cost("zooloretto_duell", [["random", "random"], ["greedy", "heuristic"]])
    rules, rng = Rules(), np.random.default_rng(1)
    game = SPEC.make_game(rules, 2)
    print(f"{'policies':<22}{'compiled games/s':>18}{'object games/s':>16}{'ratio':>8}")
    for texts in PAIRS:
        policies = [SPEC.make_policy(t) for t in texts]
        n = args.games if "heuristic" not in texts else max(1, args.games // 4)
        compiled = rate(lambda n=n, texts=texts: SPEC.compiled.play_chunk(rules, texts, 0, n, rng), n, args.seconds)
        reference = rate(lambda texts=texts, policies=policies: object_chunk(game, texts, policies, 0, 20, rng), 20,
                         args.seconds)
        print(f"{' v '.join(texts):<22}{compiled:>18,.0f}{reference:>16,.0f}{compiled / reference:>8.0f}")


if __name__ == "__main__":
    main()
