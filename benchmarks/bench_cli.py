"""How quickly the command line answers: its start, a small run, and a large run against the engine alone.

Run: python benchmarks/bench_cli.py [--repeats R] [--games N]

Measured in the same run, wall time of fresh processes (the command as a user types it, numba's cache warm):
- `python -c pass` (the interpreter's own start: the baseline), `tyrsim --help` and `tyrsim games`, best of R;
- `tyrsim simulate zooloretto-duell --games 6000 --policy random --policy random --jobs 1`, best of R;
- N Zooloretto Duell random games end to end (`simulate --jobs 1`, one core) against the compiled engine alone
  playing the same N games in this process (`compiled_policies.play_chunk`, 20,000 games a call), as games per
  second and their ratio: what a run adds to the engine (scenario, tasks, store keys, the tables with their
  intervals). Where the rest goes: the tasks' summaries of those games (`game` analysis's task summary, each
  chunk's rows summarised as a run's task does), timed in this process too; what remains of the run is its start
  (imports, numba's cache) and its tables.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from tyrsim.core.engine.rng import task_rng
from tyrsim.games import get_game
from tyrsim.games.zooloretto_duell.compiled_policies import play_chunk
from tyrsim.games.zooloretto_duell.rules import Rules

TYRSIM = [sys.executable, "-m", "tyrsim.cli"]


def wall(command: list[str], repeats: int) -> float:
    """The shortest wall time, in seconds, of `repeats` runs of `command` (its output discarded)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def engine_alone(games: int) -> tuple[float, float]:
    """Wall seconds of the compiled engine playing `games` random games in this process, 20,000 a call, and of
    summarising each call's rows as a run's task does."""
    study = get_game("zooloretto-duell").analyses["game"]
    args = study.check_args({"policies": ["random", "random"], "games": games})
    rng = task_rng(0, 0, 0)
    play_chunk(Rules(), ["random", "random"], 0, 1, rng)  # load the compiled functions
    playing = summarising = 0.0
    for first in range(0, games, 20_000):
        start = time.perf_counter()
        rows = play_chunk(Rules(), ["random", "random"], first, min(20_000, games - first), rng)
        played = time.perf_counter()
        study.task_summary.summarize(rows, Rules(), args)
        playing, summarising = playing + played - start, summarising + time.perf_counter() - played
    return playing, summarising


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each short command (the best is shown)")
    parser.add_argument("--games", type=int, default=1_000_000, help="games of the large run")
    args = parser.parse_args()
    simulate = [*TYRSIM, "simulate", "zooloretto-duell", "--policy", "random", "--policy", "random", "--jobs", "1"]
    wall([*simulate, "--games", "10"], 1)  # numba's cache warm before anything is timed
    bare = wall([sys.executable, "-c", "pass"], args.repeats)
    print(f"{'python -c pass (baseline)':<48}{bare:8.3f} s")
    for label, command in (("tyrsim --help", [*TYRSIM, "--help"]), ("tyrsim games", [*TYRSIM, "games"]),
                           ("simulate, 6,000 random games, one core", [*simulate, "--games", "6000"])):
        seconds = wall(command, args.repeats)
        print(f"{label:<48}{seconds:8.3f} s  ({seconds - bare:.3f} s beyond the interpreter's start)")
    run = wall([*simulate, "--games", str(args.games)], 1)
    alone, summaries = engine_alone(args.games)
    print(f"{args.games:,} random games: simulate end to end {args.games / run:,.0f} games/s, the engine alone "
          f"{args.games / alone:,.0f} games/s: {alone / run:.0%} of the engine's speed")
    print(f"  of the run's {run:.1f} s: the engine {alone:.1f} s, the tasks' summaries {summaries:.1f} s, "
          f"the rest (start, numba's cache, tables) {run - alone - summaries:.1f} s")


if __name__ == "__main__":
    main()
