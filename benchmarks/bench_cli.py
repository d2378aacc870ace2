"""How quickly the command line answers: its start, a small run, and a large run against the engine alone.

Run: python benchmarks/bench_cli.py [--repeats R] [--games N]

Measured in the same run, wall and CPU time of fresh processes (the command as a user types it, numba's cache
warm):
- `python -c pass` (the interpreter's own start: the baseline), `tyrsim --help` and `tyrsim games`, best of R;
- `tyrsim simulate zooloretto-duell --games 6000 --policy random --policy random --jobs 1`, best of R;
- N Zooloretto Duell random games end to end (`simulate --jobs 1`, one core) against the compiled engine alone
  playing the same N games in this process (`CompiledEngine.play_chunk`, 20,000 games a call), as games per
  second and their ratio: what a run adds to the engine (scenario, tasks, store keys, the tables with their
  intervals). Where the rest goes: the tasks' summaries of those games (`game` analysis's task summary, each
  chunk's rows summarised as a run's task does), timed in this process too; what remains of the run is its start
  (imports, numba's cache) and its tables.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

from tyrsim.core.engine.rng import task_rng
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.rules import Rules

TYRSIM = [sys.executable, "-m", "tyrsim.cli"]
# the commands run as after an install, with Python's bytecode cache (an environment that forbids writing it
# would time the compiling of every module's source instead)
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], repeats: int) -> tuple[float, float]:
    """The shortest wall time and the shortest CPU time (user and system), in seconds, of `repeats` runs of
    `command` (its output discarded). On a shared machine the CPU time says more: others' work stretches the
    wall time."""
    walls, cpus = [], []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=CHILD_ENV)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return min(walls), min(cpus)


def engine_alone(games: int) -> dict[str, tuple[float, float]]:
    """{"wall": (playing, summarising), "CPU": (playing, summarising)}: seconds of the compiled engine playing
    `games` random games in this process, 20,000 a call, and of summarising each call's rows as a run's task does."""
    study = SPEC.analyses["game"]
    args = study.check_args({"policies": ["random", "random"], "games": games})
    rng = task_rng(0, 0, 0)
    SPEC.compiled.play_chunk(Rules(), ["random", "random"], 0, 1, rng)  # load the compiled functions
    clocks = {"wall": time.perf_counter, "CPU": time.process_time}
    spent = {name: [0.0, 0.0] for name in clocks}
    for first in range(0, games, 20_000):
        start = {name: clock() for name, clock in clocks.items()}
        rows = SPEC.compiled.play_chunk(Rules(), ["random", "random"], first, min(20_000, games - first), rng)
        played = {name: clock() for name, clock in clocks.items()}
        study.task_summary.summarize(rows, Rules(), args)
        for name, clock in clocks.items():
            spent[name][0] += played[name] - start[name]
            spent[name][1] += clock() - played[name]
    return {name: (playing, summarising) for name, (playing, summarising) in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each short command (the best is shown)")
    parser.add_argument("--games", type=int, default=1_000_000, help="games of the large run")
    args = parser.parse_args()
    simulate = [*TYRSIM, "simulate", "zooloretto-duell", "--policy", "random", "--policy", "random", "--jobs", "1"]
    timed([*simulate, "--games", "10"], 1)  # numba's cache warm before anything is timed
    bare, bare_cpu = timed([sys.executable, "-c", "pass"], args.repeats)
    print(f"{'':<42}{'wall':>8}{'CPU':>8}  beyond the interpreter's start (wall, CPU)")
    print(f"{'python -c pass (baseline)':<42}{bare:8.3f}{bare_cpu:8.3f}")
    for label, command in (("tyrsim --help", [*TYRSIM, "--help"]), ("tyrsim games", [*TYRSIM, "games"]),
                           ("simulate, 6,000 random games, one core", [*simulate, "--games", "6000"])):
        seconds, cpu = timed(command, args.repeats)
        print(f"{label:<42}{seconds:8.3f}{cpu:8.3f}  {seconds - bare:.3f} s, {cpu - bare_cpu:.3f} s")
    runs = dict(zip(("wall", "CPU"), timed([*simulate, "--games", str(args.games)], 1), strict=True))
    for clock, (alone, summaries) in engine_alone(args.games).items():
        run = runs[clock]
        print(f"{args.games:,} random games by {clock} time: simulate end to end {args.games / run:,.0f} games/s, "
              f"the engine alone {args.games / alone:,.0f} games/s: {alone / run:.0%} of the engine's speed")
        print(f"  of the run's {run:.1f} s: the engine {alone:.1f} s, the tasks' summaries {summaries:.1f} s, "
              f"the rest (start, numba's cache, tables) {run - alone - summaries:.1f} s")

if __name__ == "__main__":
    main()
