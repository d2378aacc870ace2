"""Zooloretto Duell speed on one core: the compiled engine against the object engine, and its compile cost.

Run: python benchmarks/bench_zooloretto_compiled.py [--seconds S] [--games N]

Measured in the same run, CPU time of this process (`time.process_time`), one core:
- games per second of random against random and heuristic against heuristic (the targets:
  100,000 and 20,000), greedy against random too, with the compiled engine
  (`compiled_policies.play_chunk`, N games a call, the runner's table included) and with
  the object engine (`runner.play_chunk`, 20 games a call), and their ratio;
- the compile cost: a fresh process with an empty cache folder (NUMBA_CACHE_DIR) playing
  one game of each policy (every compiled function compiled), then a second process
  loading them from that cache; wall time and the child's CPU time, import included, and
  the number of functions numba compiled (a function compiles once for each combination
  of argument types it is called with: each of the engine's should compile once).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

from tyrsim.core.runner import play_chunk as object_chunk
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.compiled_policies import play_chunk
from tyrsim.games.zooloretto_duell.rules import Rules

PAIRS = (["random", "random"], ["greedy", "random"], ["heuristic", "heuristic"])
FIRST_GAMES = """
import time
start = time.process_time()
from numba.core import event
recording = event.install_recorder("numba:compile")  # kept: the recording ends when it is collected
compiled = recording.__enter__()
import numpy as np
from tyrsim.games.zooloretto_duell.compiled_policies import play_chunk
from tyrsim.games.zooloretto_duell.rules import Rules
imported = time.process_time()
for policies in (["random", "random"], ["greedy", "heuristic"]):
    play_chunk(Rules(), policies, 0, 1, np.random.default_rng(0))
print(imported - start, time.process_time() - imported, sum(not e.is_start for _, e in compiled.buffer))
"""


def rate(work, games: int, seconds: float) -> float:
    """Games per CPU second of `work()`, which plays `games` games, repeated for about `seconds`."""
    work()  # warm-up (and, the first time, loading the compiled functions)
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds or calls == 0:
        work()
        calls += 1
    return calls * games / elapsed


def first_call(cache: str) -> tuple[float, float, float, float, int]:
    """(wall seconds, CPU seconds, CPU seconds of the imports, CPU seconds of the first games, functions
    compiled) of a process playing its first compiled games with the cache folder `cache`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # run in the (empty) cache folder: `python -c` imports from its working folder first, and run from another
    # checkout the child would measure that checkout's engine, not the one this process imports
    done = subprocess.run([sys.executable, "-c", FIRST_GAMES], env=os.environ | {"NUMBA_CACHE_DIR": cache},
                          cwd=cache, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    imports, games, compiled = done.stdout.split()
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, float(imports), float(games), int(compiled)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--games", type=int, default=20_000, help="games per compiled play_chunk call")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        fresh, cached = first_call(cache), first_call(cache)
    for name, (wall, cpu, imports, games, compiled) in (("compile, fresh cache", fresh),
                                                        ("load from the cache", cached)):
        print(f"{name + ':':<22}{wall:5.1f} s wall, {cpu:5.1f} s CPU: imports {imports:.1f} s, "
              f"first games (compiling or loading) {games:.1f} s, {compiled} functions compiled")
    rules, rng = Rules(), np.random.default_rng(1)
    game = SPEC.make_game(rules, 2)
    print(f"{'policies':<22}{'compiled games/s':>18}{'object games/s':>16}{'ratio':>8}")
    for texts in PAIRS:
        policies = [SPEC.make_policy(t) for t in texts]
        n = args.games if "heuristic" not in texts else max(1, args.games // 4)
        compiled = rate(lambda n=n, texts=texts: play_chunk(rules, texts, 0, n, rng), n, args.seconds)
        reference = rate(lambda texts=texts, policies=policies: object_chunk(game, texts, policies, 0, 20, rng), 20,
                         args.seconds)
        print(f"{' v '.join(texts):<22}{compiled:>18,.0f}{reference:>16,.0f}{compiled / reference:>8.0f}")


if __name__ == "__main__":
    main()
