"""Timing for the benchmark scripts: CPU time of this process (or of a child), so other work on the machine does
not count; and the compile cost of a compiled engine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    """The shortest CPU time, in seconds, of `repeats` calls of `fn`."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def rate(work: Callable[[], object], games: int, seconds: float) -> float:
    """Games per CPU second of `work()`, which plays `games` games, repeated for about `seconds`."""
    work()  # warm-up (and, the first time, loading the compiled functions)
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds or calls == 0:
        work()
        calls += 1
    return calls * games / elapsed


FIRST_GAMES = """
import time
start = time.process_time()
from numba.core import event
recording = event.install_recorder("numba:compile")  # kept: the recording ends when it is collected
compiled = recording.__enter__()
import numpy as np
from tyrsim.games.{package} import SPEC
from tyrsim.games.{package}.rules import Rules
imported = time.process_time()
for policies in {seatings!r}:
    SPEC.compiled.play_chunk(Rules(), policies, 0, 1, np.random.default_rng(0))
print(imported - start, time.process_time() - imported, sum(not e.is_start for _, e in compiled.buffer))
"""


def first_call(package: str, seatings: list[list[str]], cache: str) -> tuple[float, float, float, float, int]:
    """(wall seconds, CPU seconds, CPU seconds of the imports, CPU seconds of the first games, functions
    compiled) of a process playing one game of each seating of `tyrsim.games.<package>`'s compiled engine
    with the cache folder `cache` (numba compiles a function once for each combination of argument types
    it is called with: each of an engine's functions should compile once)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # run in the (empty) cache folder: `python -c` imports from its working folder first, and run from another
    # checkout the child would measure that checkout's engine, not the one this process imports
    done = subprocess.run([sys.executable, "-c", FIRST_GAMES.format(package=package, seatings=seatings)],
                          env=os.environ | {"NUMBA_CACHE_DIR": cache}, cwd=cache, check=True, capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    imports, games, compiled = done.stdout.split()
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, float(imports), float(games), int(compiled)


def print_compile_cost(package: str, seatings: list[list[str]]) -> None:
    """The compile cost of a compiled engine: a fresh process with an empty cache folder (NUMBA_CACHE_DIR),
    then a second one loading from that cache; wall and CPU time, imports included."""
    with tempfile.TemporaryDirectory() as cache:
        fresh, cached = first_call(package, seatings, cache), first_call(package, seatings, cache)
    for name, (wall, cpu, imports, games, compiled) in (("compile, fresh cache", fresh),
                                                        ("load from the cache", cached)):
        print(f"{name + ':':<22}{wall:5.1f} s wall, {cpu:5.1f} s CPU: imports {imports:.1f} s, "
              f"first games (compiling or loading) {games:.1f} s, {compiled} functions compiled")
