"""Search on one core: clone() against copy.deepcopy, and ismcts's strength against its time per decision.

Run: python benchmarks/bench_search.py [--game NAME ...] [--games N] [--multiples 0.25,0.5,1,2,4] [--out DIR]
     [--times-only] [--python-positions N]

1. clone: the median time of `state.clone()` over positions from random games (every
   decision from the 20th on), beside the baseline `copy.deepcopy(state)` (sharing the
   state's game and rules objects, which never change) on the same positions: the
   search clones once per determinization.
2. The search's time per decision at its default budget, in compiled code (where the game has a
   compiled search) against the baseline, the Python search making the same decisions from the
   same seeds: the median and 90th percentile of CPU time per decision on decisions of random
   games (the first call, which compiles or loads numba's cache, left out).
3. The trade-off curve: `ismcts` at multiples of its default budget in one seat against
   the game's strongest other policy in the others (the issue's strength test:
   two-player games head to head, four-player games one against three), N games per
   budget with seats rotating. Each row gives the median and 90th percentile CPU time
   of one ismcts decision (forced moves left out) and its win rate with a Wilson
   interval; par is 1 / players. The baseline beside it is the strongest policy's own
   median time per decision in the same games.

Seeds are fixed, so a rerun plays the same games. `--out DIR` also writes search.csv and
one trade-off figure per game (strength against time per decision).
"""

from __future__ import annotations

import argparse
import copy
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play, rotation
from tyrsim.core.stats import intervals as stats
from tyrsim.games import get_game

# the strongest other policy of each game as measured so far, and the table the strength target is set at
# (Zooloretto Duell: the flat search `mcts` beats `heuristic` about 84% of the time; Tyros: the planner with the
# tuned weights, whose three copies hold the search to 46% where three default planners let it win 69%; Tiny
# Epic Dinosaurs: hunter with the tuned weights, and Tyranno Ex: greedy with the tuned weights, each first among the
# policies that do not search in its round robin: docs/performance.md)
OPPONENTS = {"zooloretto-duell": ("mcts", 2),
             "tiny-epic-dinosaurs": ("hunter:weights=bundled:hunter_tuned.toml", 2),
             "tyranno-ex": ("greedy:weights=bundled:greedy_tuned.toml", 4),
             "tyros": ("planner:weights=bundled:planner_tuned.toml", 4)}
TARGETS = {2: 0.60, 4: 0.40}  # the win rate the search must reach at its default budget, by table size


@dataclass
class Timed:
    """A policy that records the CPU time of each decision with more than one legal action."""

    policy: object
    times: list

    @property
    def name(self) -> str:
        return self.policy.name

    def choose(self, state, rng):
        if len(state.legal_actions()) == 1:
            return self.policy.choose(state, rng)
        start = time.process_time()
        action = self.policy.choose(state, rng)
        self.times.append(time.process_time() - start)
        return action


def positions(spec, players: int, count: int, seed: int) -> list:
    """Positions of random games, every decision from the 20th on, until there are `count`."""
    game = spec.make_game(spec.rules(), players)
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.new_state(rng)
        step = 0
        while not state.is_terminal() and len(found) < count:
            if step >= 20:
                found.append(state.clone())
            state.apply(RandomPolicy().choose(state, rng))
            step += 1
    return found


def median_seconds(fn, items: list) -> float:
    times = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def shared_deepcopy(state):
    """copy.deepcopy of a state that shares its game and rules, as any clone may: the fair baseline."""
    memo = {id(v): v for v in (getattr(state, "game", None), getattr(state, "rules", None)) if v is not None}
    return copy.deepcopy(state, memo)


def clone_rows(names: list[str], count: int) -> list[dict]:
    rows = []
    for name in names:
        spec = get_game(name)
        states = positions(spec, OPPONENTS[name][1], count, seed=1)
        fast = median_seconds(lambda s: s.clone(), states)
        deep = median_seconds(shared_deepcopy, states)
        rows.append({"game": name, "clone_us": 1e6 * fast, "deepcopy_us": 1e6 * deep, "speedup": deep / fast})
    return rows


def search_time_rows(names: list[str], count: int, python_count: int) -> list[dict]:
    """The default ismcts's time per decision in compiled code (`compiled_choice`) and in Python
    (`reference_choice`, the baseline: the same decisions from the same seeds) on decisions of random games, for
    the games whose search has a compiled form."""
    rows = []
    for name in names:
        spec = get_game(name)
        policy = spec.make_policy("ismcts")
        states = [s for s in positions(spec, OPPONENTS[name][1], 4 * count, seed=3) if len(s.legal_actions()) > 1]
        if not states or policy.compiled_choice(states[0].clone(), np.random.default_rng(0)) is None:
            continue  # (that first call also compiles, or loads numba's cache)
        timed = {}
        for how, choose, n in (("compiled", policy.compiled_choice, count),
                               ("python", policy.reference_choice, python_count)):
            times = []
            for k, state in enumerate(states[:n]):
                start = time.process_time()
                choose(state.clone(), np.random.default_rng(k))
                times.append(time.process_time() - start)
            timed[how] = times
        fast, slow = (1e3 * float(np.median(timed[h])) for h in ("compiled", "python"))
        rows.append({"game": name, "iterations": policy.iterations, "compiled_ms": fast,
                     "compiled_p90_ms": 1e3 * float(np.percentile(timed["compiled"], 90)), "python_ms": slow,
                     "python_p90_ms": 1e3 * float(np.percentile(timed["python"], 90)), "speedup": slow / fast,
                     "decisions": f"{len(timed['compiled'])} / {len(timed['python'])}"})
    return rows


def strength_rows(name: str, multiples: list[float], games: int) -> list[dict]:
    spec = get_game(name)
    opponent, players = OPPONENTS[name]
    game = spec.make_game(spec.rules(), players)
    base = spec.make_policy("ismcts")
    rows = []
    for multiple in multiples:
        iterations = max(1, round(base.iterations * multiple))
        search = Timed(replace(base, iterations=iterations), [])
        other = Timed(spec.make_policy(opponent), [])
        wins = 0.0
        for g in range(games):
            seats = [search if rotation(g, s, players) == 0 else other for s in range(players)]
            record = play(game, seats, np.random.default_rng([7, g]))
            mine = [s for s in range(players) if seats[s] is search]
            wins += sum(1 / len(record.winners) for s in mine if s in record.winners)
        low, high = stats.wilson_interval(wins, games)
        rows.append({"game": name, "multiple": multiple, "iterations": iterations, "games": games,
                     "win_rate": wins / games, "win_low": float(low), "win_high": float(high), "par": 1 / players,
                     "ms_per_decision": 1e3 * float(np.median(search.times)),
                     "ms_p90": 1e3 * float(np.percentile(search.times, 90)),
                     f"baseline_ms ({opponent})": 1e3 * float(np.median(other.times))})
        print(f"  {name}: {multiple:g}x ({iterations} iterations): win rate {wins / games:.3f} "
              f"[{low:.3f}, {high:.3f}] against {opponent}, {rows[-1]['ms_per_decision']:.1f} ms per decision",
              flush=True)
    return rows


def tradeoff_figure(table: pd.DataFrame, name: str):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4))
    x = table["ms_per_decision"].to_numpy()
    y = 100 * table["win_rate"].to_numpy()
    err = [y - 100 * table["win_low"].to_numpy(), 100 * table["win_high"].to_numpy() - y]
    ax.errorbar(x, y, yerr=err, fmt="o-", capsize=4)
    default = get_game(name).make_policy("ismcts").iterations
    for xi, yi, it in zip(x, y, table["iterations"], strict=True):
        label = f"{it} iterations" + (" (default)" if it == default else "")
        ax.annotate(label, (xi, yi), textcoords="offset points", xytext=(6, -12), fontsize=8)
    ax.axhline(100 * table["par"].iloc[0], color="grey", linestyle=":", linewidth=0.8, label="par")
    target = TARGETS[OPPONENTS[name][1]]
    ax.axhline(100 * target, color="black", linestyle="--", linewidth=0.8, label=f"target ({target:.0%})")
    ax.set_xscale("log")
    ax.minorticks_off()
    ax.set_xticks(x, [f"{v:.0f}" for v in x])
    ax.set_xlabel("median CPU time per ismcts decision (ms, one core)")
    ax.set_ylabel(f"win rate against {OPPONENTS[name][0]} (%)")
    ax.set_title(f"{get_game(name).title}: strength against thinking time")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=sorted(OPPONENTS), help="a game (repeat) [all]")
    parser.add_argument("--games", type=int, default=40, help="games per budget")
    parser.add_argument("--multiples", default="0.25,0.5,1,2,4", help="budgets as multiples of the default")
    parser.add_argument("--positions", type=int, default=300, help="positions for the clone timing")
    parser.add_argument("--python-positions", type=int, default=20, help="decisions timed in the Python search")
    parser.add_argument("--times-only", action="store_true", help="stop after the time per decision")
    parser.add_argument("--out", type=Path, help="write search.csv and the trade-off figures here")
    args = parser.parse_args()
    names = args.game or sorted(OPPONENTS)
    multiples = [float(m) for m in args.multiples.split(",")]

    clones = pd.DataFrame(clone_rows(names, args.positions))
    print("clone() against copy.deepcopy (median over positions of random games):")
    print(clones.to_string(index=False, float_format=lambda v: f"{v:,.1f}"))
    print("\nthe default ismcts per decision, compiled against the Python search (CPU time, one core):")
    times = pd.DataFrame(search_time_rows(names, args.positions // 3, args.python_positions))
    print(times.to_string(index=False, float_format=lambda v: f"{v:,.2f}"))
    if args.times_only:
        return
    print("\nismcts at multiples of its default budget against the strongest other policy:")
    curves = pd.DataFrame([row for name in names for row in strength_rows(name, multiples, args.games)])
    print(curves.to_string(index=False, float_format=lambda v: f"{v:,.3f}"))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        curves.to_csv(args.out / "search.csv", index=False)
        clones.to_csv(args.out / "clone.csv", index=False)
        for name, table in curves.groupby("game"):
            tradeoff_figure(table, name).savefig(args.out / f"tradeoff_{name}.png", dpi=110)


if __name__ == "__main__":
    main()
