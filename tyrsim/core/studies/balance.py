"""Searching a designer's rule space for the variants that meet their targets: `tyrsim balance`.

The space is a few rules, each an integer range (`KEY=LOW:HIGH`) or a list of values (`KEY=a,b,c`: any
allowed values, a ruling's readings among them). The targets are game metrics the `game` analysis reports
(`METRIC=VALUE`, `METRIC<=VALUE`, `METRIC>=VALUE`), and skill targets as in TAG's balancing competition
(`STRONG>WEAK>=SHARE`: policy STRONG, in one seat against WEAK in the others, takes at least SHARE of the wins;
its metric is named `skill:STRONG>WEAK`): each candidate then also plays that matchup, game g of the matchup
beside game g of the designer's table, so the two are resampled together.

The objective. A variant's *distance from the targets* is the sum over the targets of its shortfall (how far
the metric lies outside the target: |m - v| for `=`, max(0, m - v) for `<=`, max(0, v - m) for `>=`), each in
units of that metric's per-game standard deviation under the run's rules (measured on the baseline's search
games, so that a target on rounds and one on a win rate weigh alike; a metric that does not vary counts in its
own units). 0 means every target is met. The metrics are read as plug-in values of the games' means (the seat
gap and the balance from the seats' mean win shares), so a distance is a function of column means and its
interval comes from resampling games (`stats.resampling`).

The search. Optuna proposes candidates by ask-and-tell with its TPE sampler (Tree-structured Parzen
Estimator: mixed integer and categorical spaces, few evaluations, no gradients). One objective is searched,
the distance; the second, the number of rules changed from the rulebook, is not: it is known exactly before a
game is played, so a multi-objective sampler (NSGA-II or TPE's) would spend games to learn what costs nothing
to count. The answer's smallest change and the front of rules changed against distance are read from every
candidate the search played, grouped by that count. The run's rules are always a candidate (0 rules changed)
and Optuna is told their distance when they lie in the space.

The noise is ours. Every candidate plays the same games (common random numbers: game g of every variant draws
from the same stream, `rng.trial_rng`), in growing blocks: `block` games, then up to 2 x, 4 x ... `block` x
2^(rungs - 1) games in all. The racing rule: after each block, the paired bootstrap interval (95%) of
(candidate's distance - incumbent's distance) on the games both played is computed; a candidate whose whole
interval lies above 0 stops there (it is clearly worse), and Optuna is told its distance on the games it
played. The incumbent is the candidate with the least distance among those that played every block, the fewest
rules changed breaking a tie (first the run's rules); it changes only between batches. No multiplicity
correction: racing spends the budget, it decides nothing the answer reports.

The answer is read only from fresh games. The finalists (the run's rules, the best candidates, the best for
each number of rules changed, the parts of the best's change (`parts_of_change`: the smallest change that meets
the targets may be one the search never played), and the best's neighbours, one step down and up each varied
rule) play
`check_games` new games from a held-out stream; the best is the search's incumbent, and every number the
answer gives comes from those games: each target metric with its interval (`stats.metrics`' own intervals),
the distance, and each finalist's paired distance difference from the best with a Holm-adjusted p-value (tied:
not significantly different). A target is "met" where its whole interval lies on the target's side (for `=`, where
the interval holds the value), "missed" where it lies wholly off it, and "within noise" in between; a variant
meets the targets where none is missed.

Same answer whatever the jobs: a batch of candidates is asked for in one go, its games go out to the
workers, and Optuna is told the results in trial order; the sampler is seeded afresh from the run seed at
every batch, so the proposals depend only on what was told before. A killed run resumes: every block of games
is a task in the result store (keyed by everything that decides it), Optuna's study lives in a journal file
beside it, and a rerun replays the finished batches from the store, drops the unfinished one and asks it
again, so it ends where an uninterrupted run would. A wall-clock limit stops the search between batches; with
one, the answer depends on the machine's speed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

import tyrsim
from tyrsim.core.engine import weights
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.engine.rng import task_rng, task_seed
from tyrsim.core.engine.rules import RuleError, RuleSet
from tyrsim.core.engine.runner import rotation
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.run.keys import bundled_data_digest, file_digest
from tyrsim.core.run.progress import Progress
from tyrsim.core.run.store import STORE_FORMAT, ResultStore
from tyrsim.core.run.workers import Workers
from tyrsim.core.stats import intervals as stats
from tyrsim.core.stats.metrics import (
    balance_metrics,
    balance_of,
    gap_of,
    per_game_measures,
    seat_advantage,
    win_shares,
)
from tyrsim.core.stats.resampling import resample_trials
from tyrsim.core.studies.blocks import play_games

SEARCH, CHECK, SAMPLER, BOOTSTRAP = 0, 1, 2, 3  # the run seed's streams: search games, fresh games, sampler, resamples
TASK_GAMES = 500  # games per task at most (a block of more is split; never depends on the jobs)
MOST_PARTS = 6  # parts of the best's change re-played beside it: all of them up to three rules changed
JOURNAL = "balance-study.journal"  # Optuna's journal, in the result store's folder
# the metrics a target may name: a rate or share of games, or a mean of a per-game quantity (the column of
# `metrics.per_game_measures` it averages); any counter the engine reports reads as mean_COUNTER
RATES = ("first_seat_win_rate", "largest_seat_gap", "balance", "share_decided_by_tiebreak")
SEAT_METRICS = ("largest_seat_gap", "balance")  # functions of every seat's win rate
PER_GAME = {"first_seat_win_rate": "first_seat_share", "share_decided_by_tiebreak": "decided_by_tiebreak",
            "mean_margin": "margin", "mean_score": "mean_score", "mean_actions": "actions"}
# a metric `metrics.balance_metrics` reports with its own interval, read from there
FROM_BALANCE_TABLE = ("largest_seat_gap", "balance", "mean_margin", "share_decided_by_tiebreak")
TARGET = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|=)\s*([-+0-9.eE]+)\s*$")
# a skill target, STRONG>WEAK>=SHARE: a policy's share of the wins in games against another (a policy's text may
# hold "=" and ":", so the weaker policy is read up to the last operator)
SKILL = re.compile(r"^\s*([^>]+?)\s*>\s*(.+?)\s*(<=|>=|=)\s*([-+0-9.eE]+)\s*$")
SKILL_PREFIX = "skill:"  # a skill target's metric: skill:STRONG>WEAK


@dataclass(frozen=True)
class Dimension:
    """One varied rule: the values tried, in order (an integer range low..high, or the values as listed)."""

    rule: str
    values: tuple[Any, ...]
    integer: bool  # a LOW:HIGH range, proposed as an integer; else a list of values, proposed as categories

    def label(self, value: Any) -> str:
        """A value as written on the command line (and proposed to Optuna as a category)."""
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    def suggest(self, trial: Any) -> Any:
        """The value Optuna's `trial` proposes for this rule."""
        if self.integer:
            return trial.suggest_int(self.rule, self.values[0], self.values[-1])
        labels = [self.label(v) for v in self.values]
        return self.values[labels.index(trial.suggest_categorical(self.rule, labels))]

    def distribution(self) -> Any:
        import optuna

        if self.integer:
            return optuna.distributions.IntDistribution(self.values[0], self.values[-1])
        return optuna.distributions.CategoricalDistribution([self.label(v) for v in self.values])

    def param(self, value: Any) -> Any:
        """`value` as Optuna holds it."""
        return value if self.integer else self.label(value)

    def text(self) -> str:
        if self.integer:
            return f"{self.rule}={self.values[0]}:{self.values[-1]}"
        return f"{self.rule}=" + ",".join(self.label(v) for v in self.values)


@dataclass(frozen=True)
class Target:
    """One target on a game metric."""

    metric: str
    op: str  # "=", "<=" or ">="
    value: float

    def text(self) -> str:
        return f"{self.metric} {self.op} {self.value:g}"

    def shortfall(self, measured: np.ndarray) -> np.ndarray:
        """How far `measured` lies outside the target (0 inside it)."""
        if self.op == "=":
            return np.abs(measured - self.value)
        if self.op == "<=":
            return np.maximum(measured - self.value, 0.0)
        return np.maximum(self.value - measured, 0.0)

    def verdict(self, low: float, high: float) -> str:
        """What a 95% interval [low, high] of the metric says of the target: "met" (the whole interval on the
        target's side; for `=`, the interval holds the value), "missed" (the whole interval off it) or "within
        noise" (the interval straddles an inequality's bound)."""
        if self.op == "=":
            return "met" if low <= self.value <= high else "missed"
        inside, outside = (high <= self.value, low > self.value) if self.op == "<=" else (
            low >= self.value, high < self.value)
        return "met" if inside else "missed" if outside else "within noise"

    def met(self, low: float, high: float) -> bool:
        """Whether the target is not clearly missed (`verdict`)."""
        return self.verdict(low, high) != "missed"


def counters(spec: GameSpec, players: int) -> list[str]:
    """The counters the game's engine reports per game (a seat's counter, NAME_pK, read as NAME), found from
    a new game's state: no game is played."""
    state = spec.make_game(spec.rules(), players).new_state(np.random.default_rng(0))
    return list(dict.fromkeys(re.sub(r"_p\d+$", "", name) for name in state.stats()))


def metric_names(spec: GameSpec, players: int) -> list[str]:
    """Every metric a target may name in this game."""
    return [*RATES, *(m for m in PER_GAME if m not in RATES), *(f"mean_{c}" for c in counters(spec, players))]


def parse_space(rules: RuleSet, texts: Sequence[str]) -> tuple[Dimension, ...]:
    """The varied rules from "KEY=LOW:HIGH" (an integer rule) and "KEY=a,b,c" (any rule's allowed values)
    texts, checked against the rules' bounds and choices; ArgumentError ("vary") naming what is wrong."""
    if not texts:
        raise ArgumentError("vary", "the space is empty; give at least one rule to vary, as KEY=LOW:HIGH "
                            "(an integer rule) or KEY=a,b,c (any rule's values)")
    fields = {row["rule"]: row for row in type(rules).describe()}
    space: dict[str, Dimension] = {}
    for text in texts:
        key, sep, given = (part.strip() for part in text.partition("="))
        if not sep or not key or not given:
            raise ArgumentError("vary", f"{text!r} is not KEY=LOW:HIGH or KEY=a,b,c")
        if key not in fields:
            raise ArgumentError("vary", f"unknown rule {key!r}; the rules are: {', '.join(fields)}")
        if key in space:
            raise ArgumentError("vary", f"rule {key!r} is given twice; give each rule once")
        default = fields[key]["default"]
        if isinstance(default, tuple):
            raise ArgumentError("vary", f"rule {key!r} holds a list of values; only a rule of one value can be "
                                "varied")
        low, colon, high = given.partition(":")
        if colon and "," not in given:  # a range; a list's values may hold colons ("bundled:NAME.toml")
            if type(default) is not int:
                raise ArgumentError("vary", f"{text!r}: LOW:HIGH is for an integer rule, and {key!r} is "
                                    f"{fields[key]['allowed']}; list its values as {key}=a,b,c")
            try:
                lo, hi = int(low), int(high)
            except ValueError:
                raise ArgumentError("vary", f"{text!r}: LOW and HIGH must be integers") from None
            if lo >= hi:
                raise ArgumentError("vary", f"{text!r}: LOW must be below HIGH")
            values = tuple(range(lo, hi + 1))
            for end in (lo, hi):
                _checked(rules, key, end, fields)
            space[key] = Dimension(key, values, True)
        else:
            listed = [part.strip() for part in given.split(",")]
            values = tuple(_checked(rules, key, part, fields) for part in listed)
            if len(set(values)) < 2:
                raise ArgumentError("vary", f"{text!r} gives one value; give at least two different values "
                                    f"({fields[key]['allowed']})")
            if len(set(values)) < len(values):
                raise ArgumentError("vary", f"{text!r} gives a value twice; give each value once")
            space[key] = Dimension(key, values, False)
    return tuple(space.values())


def _checked(rules: RuleSet, key: str, value: Any, fields: dict[str, dict[str, Any]]) -> Any:
    """`value` of rule `key` as the rules hold it, or ArgumentError ("vary") saying what is allowed."""
    try:
        return getattr(rules.replace({key: value}), key)
    except RuleError:
        raise ArgumentError("vary", f"rule {key!r}: {value!r} is not allowed; expected "
                            f"{fields[key]['allowed']}") from None


def parse_targets(spec: GameSpec, players: int, texts: Sequence[str]) -> tuple[Target, ...]:
    """Targets from "METRIC=VALUE", "METRIC<=VALUE" and "METRIC>=VALUE" texts, checked against the metrics the
    game reports and against each other; ArgumentError ("target") naming what is wrong."""
    if not texts:
        raise ArgumentError("target", "give at least one target, e.g. first_seat_win_rate=0.5 (or a skill target)")
    known = metric_names(spec, players)
    targets = []
    for text in texts:
        match = TARGET.match(text)
        if match is None:
            raise ArgumentError("target", f"{text!r} is not METRIC=VALUE, METRIC<=VALUE or METRIC>=VALUE")
        metric, op, number = match.groups()
        if metric not in known:
            raise ArgumentError("target", f"{metric!r} is not a metric {spec.title} reports; the metrics are: "
                                f"{', '.join(known)}")
        try:
            value = float(number)
        except ValueError:
            raise ArgumentError("target", f"{text!r}: {number!r} is not a number") from None
        if metric in RATES and not 0 <= value <= 1:
            raise ArgumentError("target", f"{text!r}: {metric} is a share of games, from 0 to 1")
        targets.append(Target(metric, op, value))
    _check_agreement(targets, "target")
    return tuple(targets)


@dataclass(frozen=True)
class BalanceSetup:
    """What decides a balance study's results."""

    game: str
    rules: RuleSet  # the run's rules: the rulebook's, with any rule the user fixed
    space: tuple[Dimension, ...]
    targets: tuple[Target, ...]
    policies: tuple[str, ...]  # one per seat
    seed: int
    budget: int  # games the search may play (the run's rules' games included; the fresh games apart)
    block: int  # games of a candidate's first block
    rungs: int  # blocks, each doubling the games played: block x 2^(rungs - 1) games in all
    batch: int  # candidates asked for at a time
    check_games: int  # fresh games of each finalist
    finalists: int  # best candidates re-played on fresh games (beside the front and the neighbours)
    time_limit: float | None = None  # seconds of search, checked between batches (not part of any key)

    @property
    def players(self) -> int:
        return len(self.policies)

    @property
    def full(self) -> int:
        """Games of a candidate that plays every block."""
        return self.block * 2 ** (self.rungs - 1)

    def ends(self) -> list[int]:
        """The games played after each block."""
        return [self.block * 2**r for r in range(self.rungs)]

    def columns(self) -> list[str]:
        """The per-game columns the targets are measured from: each seat's win share, then the targets' own."""
        own = [_column(t.metric) for t in self.targets if t.metric not in SEAT_METRICS]
        return [f"seat_{s}" for s in range(self.players)] + list(dict.fromkeys(c for c in own if c != "seat_0"))

    def matchups(self) -> list[tuple[str, str]]:
        """The (strong, weak) policies of the skill targets, each once."""
        return list(dict.fromkeys(skill_pair(t.metric) for t in self.targets if t.metric.startswith(SKILL_PREFIX)))

    @property
    def tables(self) -> int:
        """Games a candidate plays for each game of its blocks: the designer's table and each skill matchup."""
        return 1 + len(self.matchups())

    def variant(self, values: dict[str, Any]) -> RuleSet:
        return self.rules.replace(values)

    def key(self, stream: int, variant: RuleSet, first: int, count: int, files: dict[str, Any]) -> str:
        payload = {"store": STORE_FORMAT, "tyrsim": tyrsim.__version__, "task": "balance", "game": self.game,
                   "rules": {k: repr(v) for k, v in variant.as_dict().items()}, "policies": list(self.policies),
                   "seed": self.seed, "stream": stream, "first": first, "count": count, "files": files,
                   "columns": self.columns() if stream == SEARCH else "rows"}
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:32]

    def study_name(self) -> str:
        """The Optuna study's name: everything that decides the search's proposals."""
        payload = {"game": self.game, "rules": {k: repr(v) for k, v in self.rules.as_dict().items()},
                   "space": [d.text() for d in self.space], "targets": [t.text() for t in self.targets],
                   "policies": list(self.policies), "seed": self.seed, "budget": self.budget, "block": self.block,
                   "rungs": self.rungs, "batch": self.batch}
        return "balance-" + hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def skill_pair(metric: str) -> tuple[str, str]:
    """The (strong, weak) policies of a skill target's metric."""
    strong, _, weak = metric.removeprefix(SKILL_PREFIX).partition(">")
    return strong, weak


def is_skill(text: str) -> bool:
    """Whether a target's text is a skill target (a ">" that is not ">=")."""
    return re.search(r">(?!=)", text) is not None


def parse_skills(spec: GameSpec, texts: Sequence[str], name: str = "skill") -> tuple[Target, ...]:
    """Skill targets from "STRONG>WEAK>=SHARE" (or <=, =) texts; ArgumentError (`name`) naming what is wrong."""
    out = []
    for text in texts:
        match = SKILL.match(text)
        if match is None:
            raise ArgumentError(name, f"{text!r} is not STRONG>WEAK>=SHARE (or <=, =), e.g. heuristic>random>=0.9")
        strong, weak, op, number = match.groups()
        for policy in (strong, weak):
            try:
                spec.make_policy(policy)
            except PolicyError as exc:
                raise ArgumentError(name, f"{text!r}: {exc}") from None
        if strong == weak:
            raise ArgumentError(name, f"{text!r} sets a policy against itself; name two policies")
        try:
            value = float(number)
        except ValueError:
            raise ArgumentError(name, f"{text!r}: {number!r} is not a number") from None
        if not 0 <= value <= 1:
            raise ArgumentError(name, f"{text!r}: a share of the wins is from 0 to 1")
        out.append(Target(f"{SKILL_PREFIX}{strong}>{weak}", op, value))
    _check_agreement(out, name)
    return tuple(out)


def _check_agreement(targets: Sequence[Target], name: str) -> None:
    """ArgumentError (`name`) where the targets on one metric leave no value that meets them all."""
    for metric in dict.fromkeys(t.metric for t in targets):
        mine = [t for t in targets if t.metric == metric]
        low = max((t.value for t in mine if t.op in ("=", ">=")), default=-math.inf)
        high = min((t.value for t in mine if t.op in ("=", "<=")), default=math.inf)
        equal = {t.value for t in mine if t.op == "="}
        if low > high or len(equal) > 1:
            raise ArgumentError(name, f"the targets on {metric} contradict each other: "
                                f"{', '.join(t.text() for t in mine)}; no value meets them all")


def _column(metric: str) -> str:
    """The per-game column a metric averages (a seat metric: seat 0's win share, for its scale)."""
    if metric in SEAT_METRICS:
        return "seat_0"
    return PER_GAME.get(metric, metric.removeprefix("mean_"))


def plan_balance(spec: GameSpec, rules: RuleSet, vary: Sequence[str], targets: Sequence[str],
                 policies: Sequence[str], *, budget: int, block: int, rungs: int, batch: int, check_games: int,
                 finalists: int, seed: int, skills: Sequence[str] = (), time_limit: float | None = None
                 ) -> BalanceSetup:
    """A balance study's setup, every argument checked before any game is played; ArgumentError ("vary",
    "target", "skill", "policies", "games", "block") naming what is wrong and what is allowed."""
    spec.check_seats(tuple(policies))
    space = parse_space(rules, vary)
    # a skill target may come among the targets too (a scenario's one list)
    on_metrics, on_skill = [t for t in targets if not is_skill(t)], [t for t in targets if is_skill(t)]
    goals = ((parse_targets(spec, len(policies), on_metrics) if on_metrics or not (on_skill or skills) else ())
             + parse_skills(spec, on_skill, "target") + parse_skills(spec, skills))
    if block < 2:
        raise ArgumentError("block", f"{block} games per block; give at least 2 (a paired interval needs two)")
    setup = BalanceSetup(game=spec.name, rules=rules, space=space, targets=goals, policies=tuple(policies),
                         seed=seed, budget=budget, block=block, rungs=rungs, batch=batch, check_games=check_games,
                         finalists=finalists, time_limit=time_limit)
    # the run's rules in full, and one batch's first blocks (each game of a block also played in every matchup)
    least = (setup.full + batch * block) * setup.tables
    if budget < least:
        matchups = f" (x {setup.tables}: each game also in every skill matchup)" if setup.tables > 1 else ""
        raise ArgumentError("games", f"a budget of {budget:,} games cannot play the run's rules' {setup.full:,} "
                            f"games and one batch of {batch} candidates x {block} games{matchups}; give at least "
                            f"{least:,} (or a smaller --block or fewer --rungs)")
    return setup


# --- playing ---------------------------------------------------------------------------------------------------

def game_columns(raw: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """One row per game (in game order): each seat's win share (seat_S) and the per-game quantities named."""
    per_game = per_game_measures(raw)
    shares = win_shares(raw)
    out = pd.DataFrame({"game_id": per_game.index.to_numpy()})
    counts = raw.groupby("game_id", sort=True)
    for name in columns:
        if name.startswith("seat_"):
            out[name] = shares[int(name.removeprefix("seat_"))].to_numpy(dtype=float)
        elif name in per_game.columns:
            out[name] = per_game[name].to_numpy(dtype=float)
        else:  # an engine counter: its mean over the seats (a whole game's counter is the same at every seat)
            out[name] = counts[name].mean().to_numpy(dtype=float)
    return out


def play_block(spec: GameSpec, setup: BalanceSetup, variant: RuleSet, stream: int, first: int,
               count: int) -> pd.DataFrame:
    """Games first..first+count-1 of `variant` from the stream `stream` (game g from its own stream, so every
    variant plays the same games): the search's per-game columns, or the fresh games' rows."""
    raw = play_games(spec, variant, setup.policies, first, count, task_rng(setup.seed, stream), paired=True)
    for k, (strong, weak) in enumerate(setup.matchups(), start=1):
        # the matchup's game g: the strong policy in one seat (rotating), the weak one in every other
        seats = (strong,) + (weak,) * (setup.players - 1)
        games = play_games(spec, variant, seats, first, count, task_rng(setup.seed, stream, k), paired=True)
        strong_rows = games[rotation(games["game_id"], games["seat"], setup.players) == 0]
        wins = strong_rows.groupby("game_id", sort=True)["win_share"].sum()
        raw[f"{SKILL_PREFIX}{strong}>{weak}"] = raw["game_id"].map(wins).astype(float)
    return game_columns(raw, setup.columns()) if stream == SEARCH else raw


def _tasks(first: int, end: int) -> list[tuple[int, int]]:
    """(first, count) of the tasks covering games first..end-1."""
    return [(start, min(TASK_GAMES, end - start)) for start in range(first, end, TASK_GAMES)]


def _numbered(number: int, *args: Any) -> tuple[int, pd.DataFrame]:
    """`play_block(*args)` with the task's number, as the workers hand results back in the order they finish."""
    return number, play_block(*args)


class Player:
    """Plays the games of many variants at once on the workers (`run.workers`: loky processes or a Dask
    cluster), reading finished games from the store."""

    def __init__(self, spec: GameSpec, setup: BalanceSetup, workers: Workers, store: ResultStore,
                 progress: Progress | None):
        self.spec, self.setup, self.store, self.progress = spec, setup, store, progress
        self.workers = workers
        self.bundled = bundled_data_digest(spec)

    def files(self, variant: RuleSet) -> dict[str, Any]:
        named = [getattr(variant, r) for r in variant.data_file_rules() if getattr(variant, r)]
        named += weights.named_files({"policies": list(self.setup.policies)})
        return {"bundled": self.bundled, **{path: file_digest(path) for path in named
                                            if not path.startswith("bundled:")}}

    def play(self, stream: int, work: list[tuple[RuleSet, int, int]]) -> list[pd.DataFrame]:
        """For each (variant, first, end): its games first..end-1 from `stream`."""
        from joblib import delayed

        plan = [(i, start, count) for i, (_, first, end) in enumerate(work) for start, count in _tasks(first, end)]
        keys = [self.setup.key(stream, work[i][0], start, count, self.files(work[i][0])) for i, start, count in plan]
        tables = {k: self.store.get(k) for k in keys}
        todo = [(k, item) for k, item in zip(keys, plan, strict=True) if tables[k] is None]
        if self.progress is not None:
            self.progress.grow(len(plan))
            self.progress.skip(len(plan) - len(todo))
        calls = [delayed(_numbered)(n, self.spec, self.setup, work[i][0], stream, start, count)
                 for n, (_, (i, start, count)) in enumerate(todo)]
        for n, table in (self.workers.map(calls) if calls else ()):
            k, (_, _, count) = todo[n]
            self.store.put(k, table)
            tables[k] = table
            if self.progress is not None:
                self.progress.update(1, count)
        return [pd.concat([tables[k] for k, (j, _, _) in zip(keys, plan, strict=True) if j == i], ignore_index=True)
                for i in range(len(work))]


# --- measuring -------------------------------------------------------------------------------------------------

class Objective:
    """The targets' metrics and the distance from them, as functions of per-game column means."""

    def __init__(self, setup: BalanceSetup, baseline: pd.DataFrame):
        self.setup = setup
        self.columns = setup.columns()
        self.seats = [self.columns.index(f"seat_{s}") for s in range(setup.players)]
        # each target's scale: its per-game column's sd under the run's rules (1 where it does not vary)
        self.scales = []
        for target in setup.targets:
            sd = float(baseline[_column(target.metric)].std(ddof=1))
            self.scales.append(sd if sd > 0 and math.isfinite(sd) else 1.0)

    def matrix(self, table: pd.DataFrame) -> np.ndarray:
        return table[self.columns].to_numpy(dtype=float)

    def metrics(self, means: np.ndarray) -> np.ndarray:
        """Each target's metric (last axis) from column means (last axis: the columns)."""
        out = []
        for target in self.setup.targets:
            if target.metric == "largest_seat_gap":
                out.append(gap_of(means[..., self.seats]))
            elif target.metric == "balance":
                out.append(balance_of(means[..., self.seats]))
            else:
                out.append(means[..., self.columns.index(_column(target.metric))])
        return np.stack(out, axis=-1)

    def distance(self, means: np.ndarray) -> np.ndarray:
        values = self.metrics(means)
        return sum(t.shortfall(values[..., i]) / s
                   for i, (t, s) in enumerate(zip(self.setup.targets, self.scales, strict=True)))

    def of(self, x: np.ndarray) -> float:
        return float(self.distance(x.mean(axis=0)))

    def compare(self, x: np.ndarray, y: np.ndarray, seed: np.random.SeedSequence,
                measure: Callable[[np.ndarray], np.ndarray] | None = None):
        """`measure` (the distance unless given) of x minus that of y, from column means over the same games
        (rows), with a paired bootstrap interval."""
        measure = measure or self.distance
        return resample_trials(lambda w: measure(w @ x / len(x)) - measure(w @ y / len(y)), len(x), seed)


def metric_intervals(raw: pd.DataFrame, targets: Sequence[Target]) -> dict[str, tuple[float, float, float]]:
    """Each target's metric on a variant's games with its 95% interval: as the `game` analysis reports it
    (`metrics.balance_metrics`, `metrics.seat_advantage`), or for a mean of a per-game quantity its t interval."""
    wanted = list(dict.fromkeys(t.metric for t in targets))
    out: dict[str, tuple[float, float, float]] = {}
    if any(m in FROM_BALANCE_TABLE for m in wanted):
        table = balance_metrics(raw).set_index("metric")
        for metric in (m for m in wanted if m in FROM_BALANCE_TABLE):
            row = table.loc[metric]
            out[metric] = (float(row["value"]), float(row["ci_low"]), float(row["ci_high"]))
    if "first_seat_win_rate" in wanted:
        seat = seat_advantage(raw).set_index("seat").loc[0]
        out["first_seat_win_rate"] = (float(seat["win_rate"]), float(seat["ci_low"]), float(seat["ci_high"]))
    rest = [m for m in wanted if m not in out]
    if rest:
        columns = game_columns(raw, [_column(m) for m in rest])
        for metric in rest:
            out[metric] = stats.mean_interval(columns[_column(metric)])
    return out


# --- the search ------------------------------------------------------------------------------------------------

@dataclass
class Candidate:
    """A variant the search played: how far it got and its distance on the games it played."""

    trial: int  # Optuna's trial number (-1: the run's rules, told to Optuna only where they lie in the space)
    batch: int
    values: dict[str, Any]  # the varied rules' values
    changed: int  # rules changed from the rulebook
    games: int  # search games played (the same games as every other candidate's first `games`)
    distance: float  # on those games
    full: bool  # played every block
    stopped: str  # "" (played every block), "racing" (clearly worse than the incumbent) or "budget"
    spent: int  # search games played in all when its batch was done


@dataclass
class Finalist:
    """A variant played on the fresh games."""

    values: dict[str, Any]
    roles: list[str]
    changed: int
    metrics: dict[str, tuple[float, float, float]]  # per target metric: value, low, high
    distance: tuple[float, float, float]
    meets: bool
    search: Candidate | None
    matrix: np.ndarray = field(repr=False)


@dataclass
class BalanceResult:
    setup: BalanceSetup
    candidates: list[Candidate]
    finalists: list[Finalist]  # [0]: the run's rules, [1]: the best (where it is not the run's rules)
    best: int  # index of the best among the finalists
    comparisons: pd.DataFrame  # each finalist's distance against the best's on the fresh games, Holm-adjusted
    neighbours: pd.DataFrame  # around the best: each rule one step down and up, per metric and the distance
    spent: int  # search games played
    batches: int
    stopped_by: str  # why the search ended: "budget", "space" (every variant played), "trials", "time"

    def table(self) -> pd.DataFrame:
        """One row per finalist: its rules, roles, distance and every target metric on the fresh games."""
        rows = []
        for f in self.finalists:
            row = {"variant": variant_text(f.values, self.setup), "roles": "; ".join(f.roles),
                   "rules_changed": f.changed, "search_games": f.search.games if f.search else 0,
                   "search_distance": f.search.distance if f.search else math.nan,
                   "distance": f.distance[0], "distance_low": f.distance[1], "distance_high": f.distance[2],
                   "meets_targets": f.meets}
            for target in self.setup.targets:
                value, low, high = f.metrics[target.metric]
                row.update({target.metric: value, f"{target.metric}_low": low, f"{target.metric}_high": high,
                            f"{target.metric}_target": target.verdict(low, high)})
            rows.append(row)
        return pd.DataFrame(rows)

    def search_table(self) -> pd.DataFrame:
        return pd.DataFrame([{"trial": c.trial, "batch": c.batch, **c.values, "rules_changed": c.changed,
                              "games": c.games, "distance": c.distance, "played_every_block": c.full,
                              "stopped": c.stopped, "games_spent": c.spent} for c in self.candidates])

    def front(self) -> pd.DataFrame:
        """Per number of rules changed: the least distance a candidate that played every block reached."""
        table = self.search_table()
        table = table[table["played_every_block"]]
        best = table.sort_values(["rules_changed", "distance", "games_spent"], kind="stable").groupby(
            "rules_changed", sort=True).head(1)
        return best[["rules_changed", "distance", *[d.rule for d in self.setup.space], "trial"]].reset_index(
            drop=True)


def variant_text(values: dict[str, Any], setup: BalanceSetup) -> str:
    """A variant by the varied rules it changes from the run's rules ("the run's rules" where none)."""
    changed = [f"{d.rule}={d.label(values[d.rule])}" for d in setup.space
               if values[d.rule] != getattr(setup.rules, d.rule)]
    return ", ".join(changed) or "the run's rules"


def balance(spec: GameSpec, setup: BalanceSetup, *, n_jobs: int = 1, backend: str = "loky",
            scheduler: str | None = None, store: ResultStore | None = None, progress: Progress | None = None,
            on_batch: Callable[[int, int, float], None] | None = None,
            on_check: Callable[[int], None] | None = None,
            clock: Callable[[], float] = time.monotonic) -> BalanceResult:
    """Search the setup's rule space for the variants that meet its targets (see the module's docstring), its
    games played on `n_jobs` loky processes or a Dask cluster (`backend`, at `scheduler` or a local one).
    `on_batch(batch, games spent, incumbent's distance)` is called after every batch, `on_check(fresh games)`
    once the search has ended, before the finalists' fresh games are played."""
    with Workers(backend, scheduler, n_jobs) as workers:
        return _search(spec, setup, Player(spec, setup, workers, store or ResultStore(None), progress), on_batch,
                        clock, on_check)


def _search(spec: GameSpec, setup: BalanceSetup, player: Player,
            on_batch: Callable[[int, int, float], None] | None, clock: Callable[[], float],
            on_check: Callable[[int], None] | None = None) -> BalanceResult:
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    store = player.store
    start = clock()
    base_values = {d.rule: getattr(setup.rules, d.rule) for d in setup.space}
    baseline_table = player.play(SEARCH, [(setup.rules, 0, setup.full)])[0]
    objective = Objective(setup, baseline_table)
    played: dict[tuple, np.ndarray] = {}  # a variant's search games so far (rows: games in order)
    key = _variant_key
    played[key(base_values)] = objective.matrix(baseline_table)
    spent = setup.full * setup.tables
    baseline = Candidate(-1, -1, base_values, len(setup.rules.differences()), setup.full,
                         objective.of(played[key(base_values)]), True, "", spent)
    candidates = [baseline]
    records: dict[tuple, Candidate] = {key(base_values): baseline}
    incumbent = baseline

    study = _study(setup, store, fresh=not store.read)
    in_space = all(base_values[d.rule] in d.values for d in setup.space)
    # a killed run left its last batch unfinished: it is asked again, as an uninterrupted run asked it
    for trial in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study.tell(trial.number, state=optuna.trial.TrialState.FAIL)
    finished = _finished_batches(study, setup)
    if finished is None:  # a batch was told in part when the run was killed: the study is rebuilt from the store
        study = _study(setup, store, fresh=True)
        finished = {}
    if in_space and not any(t.user_attrs.get("rulebook") for t in study.get_trials(deepcopy=False)):
        study.add_trial(optuna.trial.create_trial(
            params={d.rule: d.param(base_values[d.rule]) for d in setup.space},
            distributions={d.rule: d.distribution() for d in setup.space}, value=baseline.distance,
            user_attrs={"rulebook": True}))
    size = math.prod(len(d.values) for d in setup.space)
    most_trials = setup.budget // (setup.block * setup.tables)  # each trial plays a first block at least
    asked = 0
    batch = 0
    stopped_by = "trials"
    while True:
        if len(records) - (0 if in_space else 1) >= size:
            stopped_by = "space"
            break
        if asked + setup.batch > most_trials:
            stopped_by = "trials"
            break
        if spent + setup.batch * setup.block * setup.tables > setup.budget:
            stopped_by = "budget"
            break
        if batch not in finished and setup.time_limit is not None and clock() - start > setup.time_limit:
            stopped_by = "time"
            break
        if batch in finished:
            trials = sorted(finished[batch], key=lambda t: t.number)
            values_list = [{d.rule: _value(d, t.params[d.rule]) for d in setup.space} for t in trials]
        else:
            study.sampler = optuna.samplers.TPESampler(seed=_seed(setup.seed, SAMPLER, batch))
            trials = [study.ask() for _ in range(setup.batch)]
            values_list = [{d.rule: d.suggest(t) for d in setup.space} for t in trials]
        asked += len(trials)
        new = list(dict.fromkeys(key(v) for v in values_list if key(v) not in records))
        reached, spent, stops = _race(setup, player, objective, played, incumbent, new, spent)
        for k in new:
            values = dict(k)
            matrix = played[k]
            records[k] = Candidate(-2, batch, values, len(setup.variant(values).differences()), len(matrix),
                                   objective.of(matrix), reached[k], stops[k], spent)
        for trial, values in zip(trials, values_list, strict=True):
            record = records[key(values)]
            if record.trial == -2:  # the first trial to propose this variant
                record.trial = trial.number
                candidates.append(record)
            if batch not in finished:
                trial.set_user_attr("batch", batch)
                study.tell(trial, record.distance)
        # the least distance, then the fewest rules changed (targets met by several variants: the smallest change)
        best = min((records[k] for k in new if records[k].full), key=lambda c: (c.distance, c.changed), default=None)
        if best is not None and (best.distance, best.changed) < (incumbent.distance, incumbent.changed):
            incumbent = best
        if on_batch is not None:
            on_batch(batch, spent, incumbent.distance)
        batch += 1
        if any(s == "budget" for s in stops.values()):
            stopped_by = "budget"
            break
    finalists, best_index, comparisons, neighbours = _check(spec, setup, player, objective, candidates, incumbent,
                                                            on_check)
    return BalanceResult(setup, candidates, finalists, best_index, comparisons, neighbours, spent, batch, stopped_by)


def _variant_key(values: dict[str, Any]) -> tuple:
    return tuple(sorted(values.items()))


def _value(dimension: Dimension, param: Any) -> Any:
    """The rule value of an Optuna parameter."""
    if dimension.integer:
        return int(param)
    return dimension.values[[dimension.label(v) for v in dimension.values].index(param)]


def _seed(seed: int, *key: int) -> int:
    return int(task_seed(seed, *key).generate_state(1)[0])


def _study(setup: BalanceSetup, store: ResultStore, *, fresh: bool) -> Any:
    """The Optuna study: in a journal file in the store's folder (so a killed run resumes), else in memory;
    `fresh`: started again."""
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    storage = None
    if store.folder is not None:
        store.folder.mkdir(parents=True, exist_ok=True)
        storage = JournalStorage(JournalFileBackend(str(store.folder / JOURNAL)))
        if fresh:
            try:
                optuna.delete_study(study_name=setup.study_name(), storage=storage)
            except KeyError:
                pass
    return optuna.create_study(study_name=setup.study_name(), storage=storage, direction="minimize",
                               load_if_exists=True)


def _finished_batches(study: Any, setup: BalanceSetup) -> dict[int, list[Any]] | None:
    """The journal's finished batches, {batch: its trials}, numbered 0, 1, ...; None where one was told only in
    part (the run was killed between two of its tells)."""
    import optuna

    finished: dict[int, list[Any]] = {}
    for trial in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)):
        if "batch" in trial.user_attrs:
            finished.setdefault(trial.user_attrs["batch"], []).append(trial)
    whole = sorted(finished) == list(range(len(finished))) and all(
        len(trials) == setup.batch for trials in finished.values())
    return finished if whole else None


def _race(setup: BalanceSetup, player: Player, objective: Objective, played: dict[tuple, np.ndarray],
          incumbent: Candidate, new: list[tuple], spent: int) -> tuple[dict, int, dict]:
    """Play the new variants block by block against the incumbent (see the module's docstring); returns
    whether each played every block, the games spent in all, and why each stopped."""
    alive = list(new)
    stops = dict.fromkeys(new, "")
    before = 0
    best = played[_variant_key(incumbent.values)]
    for end in setup.ends():
        fits = max(0, min(len(alive), (setup.budget - spent) // ((end - before) * setup.tables)))
        for k in alive[fits:]:
            stops[k] = "budget"
        alive = alive[:fits]
        if not alive:
            break
        tables = player.play(SEARCH, [(setup.variant(dict(k)), before, end) for k in alive])
        for k, table in zip(alive, tables, strict=True):
            more = objective.matrix(table)
            played[k] = more if k not in played else np.concatenate([played[k], more])
        spent += len(alive) * (end - before) * setup.tables
        if end < setup.full:
            seed = task_seed(setup.seed, BOOTSTRAP, end)
            worse = [k for k in alive if objective.compare(played[k], best[:end], seed).low > 0]
            for k in worse:
                stops[k] = "racing"
            alive = [k for k in alive if k not in worse]
        before = end
    reached = {k: len(played.get(k, ())) == setup.full for k in new}
    for k in new:
        played.setdefault(k, np.empty((0, len(objective.columns))))
    return reached, spent, stops


# --- the fresh games -------------------------------------------------------------------------------------------

def _check(spec: GameSpec, setup: BalanceSetup, player: Player, objective: Objective, candidates: list[Candidate],
           incumbent: Candidate, on_check: Callable[[int], None] | None = None
           ) -> tuple[list[Finalist], int, pd.DataFrame, pd.DataFrame]:
    """Play the finalists on the fresh games and read the answer from them."""
    roles: dict[tuple, list[str]] = {}

    def add(values: dict[str, Any], role: str) -> None:
        roles.setdefault(_variant_key(values), []).append(role)

    full = sorted((c for c in candidates if c.full), key=lambda c: (c.distance, c.changed, c.spent))
    add(candidates[0].values, "the run's rules")
    add(incumbent.values, "best")
    for c in full[:setup.finalists]:
        if c is not incumbent:
            add(c.values, "among the best")
    for changed in sorted({c.changed for c in full}):
        first = next(c for c in full if c.changed == changed)
        add(first.values, f"least distance with {changed} rule{'s' if changed != 1 else ''} changed")
    for values in parts_of_change(candidates[0].values, incumbent.values):
        add(values, "part of the best's change")
    steps = neighbour_steps(setup, incumbent.values)
    for _, _, values in steps:
        add(values, "next to the best")
    keys = list(roles)
    if on_check is not None:
        on_check(len(keys) * setup.check_games * setup.tables)
    raws = player.play(CHECK, [(setup.variant(dict(k)), 0, setup.check_games) for k in keys])
    search = {_variant_key(c.values): c for c in candidates}
    finalists = []
    for k, raw in zip(keys, raws, strict=True):
        values = dict(k)
        matrix = objective.matrix(game_columns(raw, setup.columns()))
        metrics = metric_intervals(raw, setup.targets)
        distance = resample_trials(lambda w, m=matrix: objective.distance(w @ m / len(m)), len(matrix),
                                   task_seed(setup.seed, BOOTSTRAP, CHECK))
        meets = all(t.met(metrics[t.metric][1], metrics[t.metric][2]) for t in setup.targets)
        finalists.append(Finalist(values, roles[k], len(setup.variant(values).differences()), metrics,
                                  (distance.value, distance.low, distance.high), meets, search.get(k), matrix))
    best = keys.index(_variant_key(incumbent.values))
    return finalists, best, _comparisons(setup, objective, finalists, best), _neighbours(
        setup, objective, finalists, best, steps)


def parts_of_change(base: dict[str, Any], best: dict[str, Any]) -> list[dict[str, Any]]:
    """The variants that make only part of the change from `base` (the run's rules) to `best`: every proper,
    non-empty part while there are at most `MOST_PARTS` of them, else each changed rule alone. The search may
    never have played them, yet one may meet the targets with fewer rules changed: the smallest change is read
    among them too."""
    changed = [rule for rule in best if best[rule] != base[rule]]
    if 2 ** len(changed) - 2 <= MOST_PARTS:
        parts = [part for size in range(1, len(changed)) for part in itertools.combinations(changed, size)]
    else:
        parts = [(rule,) for rule in changed]
    return [{**base, **{rule: best[rule] for rule in part}} for part in parts]


def neighbour_steps(setup: BalanceSetup, values: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(rule, "down" or "up", variant) for each varied rule one step down and up from `values` in its list of
    values (an integer's next value; a listed rule's value before or after it as listed), where there is one."""
    steps = []
    for d in setup.space:
        if values[d.rule] not in d.values:  # the run's rules, outside the space: no step within it
            continue
        at = d.values.index(values[d.rule])
        for way, to in (("down", at - 1), ("up", at + 1)):
            if 0 <= to < len(d.values):
                steps.append((d.rule, way, {**values, d.rule: d.values[to]}))
    return steps


def _comparisons(setup: BalanceSetup, objective: Objective, finalists: list[Finalist], best: int) -> pd.DataFrame:
    """Each other finalist's distance minus the best's on the same fresh games: a paired bootstrap interval and
    p-value, Holm-adjusted over the finalists; tied where the adjusted p-value is not below 0.05."""
    rows = []
    seed = task_seed(setup.seed, BOOTSTRAP, CHECK, 1)
    for f in finalists:
        if f is finalists[best]:
            continue
        paired = objective.compare(f.matrix, finalists[best].matrix, seed)
        rows.append({"variant": variant_text(f.values, setup), "rules_changed": f.changed,
                     "difference": paired.value, "diff_low": paired.low, "diff_high": paired.high,
                     "p_value": paired.p_value})
    table = pd.DataFrame(rows, columns=["variant", "rules_changed", "difference", "diff_low", "diff_high",
                                        "p_value"])
    table["p_holm"] = stats.holm(table["p_value"].to_numpy()) if len(table) else []
    table["tied"] = ~(table["p_holm"] < 1 - stats.CONFIDENCE)
    return table


def _neighbours(setup: BalanceSetup, objective: Objective, finalists: list[Finalist], best: int,
                steps: list[tuple[str, str, dict[str, Any]]]) -> pd.DataFrame:
    """Around the best: each step's change of every target metric and of the distance, paired on the fresh
    games (bootstrap intervals)."""
    by_key = {_variant_key(f.values): f for f in finalists}
    here = finalists[best].matrix
    rows = []
    seed = task_seed(setup.seed, BOOTSTRAP, CHECK, 2)
    for rule, way, values in steps:
        there = by_key[_variant_key(values)].matrix
        dim = next(d for d in setup.space if d.rule == rule)
        measures = [("distance", lambda m: objective.distance(m))]
        measures += [(t.metric, lambda m, i=i: objective.metrics(m)[..., i]) for i, t in enumerate(setup.targets)]
        seen = set()
        for name, measure in measures:
            if name in seen:
                continue
            seen.add(name)
            paired = objective.compare(there, here, seed, measure)
            rows.append({"rule": rule, "step": way, "value": dim.label(values[rule]), "measure": name,
                         "difference": paired.value, "diff_low": paired.low, "diff_high": paired.high,
                         "p_value": paired.p_value})
    return pd.DataFrame(rows, columns=["rule", "step", "value", "measure", "difference", "diff_low", "diff_high",
                                       "p_value"])
