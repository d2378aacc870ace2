"""Tyranno Ex speed on one core: the compiled engine against the object engine, and its compile cost.

Run: python benchmarks/bench_tyranno_ex_compiled.py [--seconds S] [--games N]

Measured in the same run, CPU time of this process (`time.process_time`), one core:
- games per second of four random players, and of four of each of greedy, aggressive and builder
  (self-play, the game's usual seating), with the compiled engine (`CompiledEngine.play_chunk`,
  N games a call, the runner's table included) and with the object engine (`runner.play_chunk`,
  a few games a call), and their ratio (the target: 50x each);
- the compile cost: a fresh process with an empty cache folder (NUMBA_CACHE_DIR) playing one game
  of random and one of greedy players (every compiled function compiled), then a second process
  loading them from that cache; wall time and the child's CPU time, imports included, and the
  number of functions numba compiled (a function compiles once for each combination of argument
  types it is called with: each of the engine's should compile once).
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import print_compile_cost, rate

from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.tyranno_ex import SPEC
from tyrsim.games.tyranno_ex.rules import Rules

TABLES = (["random"] * 4, ["greedy"] * 4, ["aggressive"] * 4, ["builder"] * 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--games", type=int, default=2_000, help="games per compiled play_chunk call")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-cost measurement")
    args = parser.parse_args()
    if not args.no_compile:
        print_compile_cost("tyranno_ex", [["random"] * 4, ["greedy"] * 4])
    rules, rng = Rules(), np.random.default_rng(1)
    game = SPEC.make_game(rules, 4)
    print(f"{'policies':<34}{'compiled games/s':>18}{'object games/s':>16}{'ratio':>8}")
    for texts in TABLES:
        policies = [SPEC.make_policy(t) for t in texts]
        n = args.games if texts[0] == "random" else max(1, args.games // 4)
        compiled = rate(lambda n=n, texts=texts: SPEC.compiled.play_chunk(rules, texts, 0, n, rng), n, args.seconds)
        reference = rate(lambda texts=texts, policies=policies: object_chunk(game, texts, policies, 0, 5, rng), 5,
                         args.seconds)
        print(f"{' v '.join(texts):<34}{compiled:>18,.0f}{reference:>16,.1f}{compiled / reference:>8.0f}")


if __name__ == "__main__":
    main()
