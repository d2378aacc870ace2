"""Tyros speed on one core: the compiled engine against the object engine, and its compile cost.

Run: python benchmarks/bench_tyros_compiled.py [--seconds S] [--games N]

Measured in the same run, CPU time of this process (`time.process_time`), one core:
- games per second of four random players, four planners and four greedy players (the
  targets: 50 times the object engine each), with the compiled engine
  (`compiled_policies.play_chunk`, N games a call, the runner's table included) and with the
  object engine (`runner.play_chunk`, a few games a call), and their ratio;
- the compile cost: a fresh process with an empty cache folder (NUMBA_CACHE_DIR) playing
  one game of each policy (every compiled function compiled), then a second process
  loading them from that cache; wall time and the child's CPU time, import included.
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
from tyrsim.games.tyros import SPEC
from tyrsim.games.tyros.compiled_policies import play_chunk
from tyrsim.games.tyros.rules import Rules

# (seats, object games a call, compiled games per `--games`)
MATCHES = ((["random"] * 4, 10, 1.0), (["planner"] * 4, 2, 0.25), (["greedy"] * 4, 10, 1.0))
FIRST_GAMES = """
import time
start = time.process_time()
import numpy as np
from tyrsim.games.tyros.compiled_policies import play_chunk
from tyrsim.games.tyros.rules import Rules
imported = time.process_time()
play_chunk(Rules(), ["random", "planner", "greedy", "random"], 0, 1, np.random.default_rng(0))
print(imported - start, time.process_time() - imported)
"""


def rate(work, games: int, seconds: float) -> float:
    """Games per CPU second of `work()`, which plays `games` games, repeated for about `seconds`."""
    work()  # warm-up (and, the first time, loading the compiled functions)
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds or calls == 0:
        work()
        calls += 1
    return calls * games / elapsed


def first_call(cache: str) -> tuple[float, float, float, float]:
    """(wall seconds, CPU seconds, CPU seconds of the imports, CPU seconds of the first games) of a process
    playing its first compiled games with the cache folder `cache`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", FIRST_GAMES], env=os.environ | {"NUMBA_CACHE_DIR": cache},
                          check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    imports, games = (float(v) for v in done.stdout.split())
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), imports, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--games", type=int, default=2_000, help="random games per compiled play_chunk call")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        fresh, cached = first_call(cache), first_call(cache)
    for name, (wall, cpu, imports, games) in (("compile, fresh cache", fresh), ("load from the cache", cached)):
        print(f"{name + ':':<22}{wall:5.1f} s wall, {cpu:5.1f} s CPU: imports {imports:.1f} s, "
              f"first games (compiling or loading) {games:.1f} s")
    rules, rng = Rules(), np.random.default_rng(1)
    game = SPEC.make_game(rules, 4)
    print(f"{'policies':<30}{'compiled games/s':>18}{'object games/s':>16}{'ratio':>8}")
    for texts, object_games, share in MATCHES:
        policies = [SPEC.make_policy(t) for t in texts]
        n = max(1, int(args.games * share))
        compiled = rate(lambda n=n, texts=texts: play_chunk(rules, texts, 0, n, rng), n, args.seconds)
        reference = rate(lambda texts=texts, policies=policies, k=object_games: object_chunk(
            game, texts, policies, 0, k, rng), object_games, args.seconds)
        print(f"{' v '.join(texts):<30}{compiled:>18,.0f}{reference:>16,.1f}{compiled / reference:>8.0f}")


if __name__ == "__main__":
    main()
