"""Tiny Epic Dinosaurs speed on one core: the compiled engine against the object engine, and its compile cost.

Run: python benchmarks/bench_tiny_epic_dinosaurs_compiled.py [--seconds S] [--games N] [--no-compile]

Measured in the same run, CPU time of this process (`time.process_time`), one core, two players:
- games per second of random against random and of each heuristic policy against itself (greedy,
  hunter, breeder, contractor) with the compiled engine (`CompiledEngine.play_chunk`, N games
  a call for random and N / 10 for the heuristics, the runner's table included) and with the
  object engine (`runner.play_chunk`, 20 games a call), and their ratio (the target: 50);
- the compile cost: a fresh process with an empty cache folder (NUMBA_CACHE_DIR) playing one
  game of random and of greedy against hunter (every compiled function compiled), then a second
  process loading them from that cache; wall time and the child's CPU time, import included, and
  the number of functions numba compiled (a function compiles once for each combination of
  argument types it is called with: each of the engine's should compile once).
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import print_compile_cost, rate

from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

PAIRS = (["random", "random"], ["greedy", "greedy"], ["hunter", "hunter"], ["breeder", "breeder"],
         ["contractor", "contractor"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--games", type=int, default=5_000, help="random games per compiled play_chunk call")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-cost measurement")
    args = parser.parse_args()
    if not args.no_compile:
        print_compile_cost("tiny_epic_dinosaurs", [["random", "random"], ["greedy", "hunter"]])
    rules, rng = Rules(), np.random.default_rng(1)
    game = SPEC.make_game(rules, 2)
    print(f"{'policies':<24}{'compiled games/s':>18}{'object games/s':>16}{'ratio':>8}")
    for texts in PAIRS:
        policies = [SPEC.make_policy(t) for t in texts]
        n = args.games if texts[0] == "random" else max(1, args.games // 10)
        compiled = rate(lambda n=n, texts=texts: SPEC.compiled.play_chunk(rules, texts, 0, n, rng), n, args.seconds)
        reference = rate(lambda texts=texts, policies=policies: object_chunk(game, texts, policies, 0, 20, rng), 20,
                         args.seconds)
        print(f"{' v '.join(texts):<24}{compiled:>18,.0f}{reference:>16,.0f}{compiled / reference:>8.0f}")


if __name__ == "__main__":
    main()
