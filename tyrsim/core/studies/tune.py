"""Tuning a policy's named weights by self-play: CMA-ES against a fixed pool, on common random numbers.

The weights a policy declares `tunable` (see `tyrsim.core.engine.weights`) are searched in
the unit cube, each mapped linearly onto its range, by the `cma` package's CMA-ES
(Hansen's covariance matrix adaptation evolution strategy), starting at the
policy's defaults. One generation asks CMA-ES for `population` candidates; each
plays `games` games in one seat against the pool in the others (seats rotate from
game to game), and its fitness is its mean win share. Every candidate of a
generation plays the *same* games (`rng.trial_rng`: the same deals, dice and pool
choices until the candidates' choices differ), so candidates are compared on
common random numbers; each generation plays new games, so the weights are not
fitted to one set of deals.

The answer is CMA-ES's final mean (its best estimate of the optimum on a noisy
objective; a single best candidate would mostly be the luckiest). It is then
checked against the untuned policy on `check_games` new games: the tuned policy
in one seat, untuned copies in the others, and the share of (tuned, untuned) seat
pairs in which the tuned seat finished ahead (ties half), with a 95% interval over
games.

CMA-ES samples through the generator of the run seed (its `randn` option), never
numpy's global state, so the same seed tunes to the same weights whatever the
jobs. Every candidate's games are a task in the result store (`store`), keyed by
everything that decides them: an interrupted tuning run resumes by replaying
CMA-ES, which asks for the same candidates and reads their finished games back.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

import tyrsim
from tyrsim.core.engine import weights
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.engine.rng import task_rng
from tyrsim.core.engine.rules import RuleSet
from tyrsim.core.engine.runner import GAMES_PER_CHUNK, chunks, rotation
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report.table_text import csv_text
from tyrsim.core.run.keys import file_digest
from tyrsim.core.run.output import atomic_folder
from tyrsim.core.run.progress import Progress
from tyrsim.core.run.store import STORE_FORMAT, ResultStore
from tyrsim.core.run.substitutions import Substitution
from tyrsim.core.stats import intervals as stats
from tyrsim.core.studies.blocks import play_games
from tyrsim.core.studies.trace import seats_ahead

CANDIDATE = "candidate"  # the label of the seat being tuned or checked in its games
SIGMA = 0.2  # CMA-ES's first step size, as a share of each weight's range
CHECK = 1_000_000  # the generation number of the check games (never a tuning generation)


class TuneError(ValueError):
    """A policy without tunable weights, or a budget that leaves no generation."""


@dataclass(frozen=True)
class TuneSetup:
    """What decides a tuning run's results."""

    game: str
    policy: str  # the name of the policy being tuned
    rules: RuleSet
    pool: tuple[str, ...]  # the policies in the other seats, cycled round the table
    players: int
    seed: int
    population: int
    games: int  # games per candidate and generation
    generations: int
    check_games: int

    def key(self, generation: int, weights_: dict[str, float], first: int, count: int,
            files: dict[str, str | None]) -> str:
        payload = {"store": STORE_FORMAT, "tyrsim": tyrsim.__version__, "task": "tune", "game": self.game,
                   "policy": self.policy, "rules": {k: repr(v) for k, v in self.rules.as_dict().items()},
                   "pool": list(self.pool), "players": self.players, "seed": self.seed, "generation": generation,
                   "weights": {k: repr(v) for k, v in weights_.items()}, "first": first, "count": count,
                   "files": files}
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:32]


@dataclass
class TuneResult:
    weights: dict[str, float]  # the tuned weights
    history: pd.DataFrame  # one row per generation and candidate: its weights and mean win share
    check: pd.DataFrame  # the check games: one row per game, the tuned seat's share of pairs won
    beats: tuple[float, float, float]  # share of (tuned, untuned) seat pairs the tuned seat won: mean, low, high

    @property
    def verdict(self) -> str:
        """Whether the tuned weights beat the untuned policy: only where the whole 95% interval of the share of
        seat pairs they won lies above one half."""
        return "beats" if self.beats[1] > 0.5 else "does not clearly beat"


@dataclass(frozen=True)
class TunePlan:
    """A tuning run as its budget allows: the setup, and the games of the budget that fill no generation."""

    setup: TuneSetup
    budget: int

    @property
    def played(self) -> int:
        """The tuning games played: whole generations of candidates x games."""
        return self.setup.generations * self.setup.population * self.setup.games

    def substitution(self) -> Substitution | None:
        """What the run plays in place of the budget asked, where generations do not fill it."""
        if self.played == self.budget:
            return None
        return Substitution(f"--budget {self.budget}", f"{self.played:,} games are played",
                            f"{self.budget - self.played:,} more would not fill a generation of "
                            f"{self.setup.population:,} candidates x {self.setup.games:,} games")


def plan_tune(spec: GameSpec, policy: str, rules: RuleSet, pool: Sequence[str], players: int | None, *, budget: int,
              games: int, population: int | None, check_games: int, seed: int) -> TunePlan:
    """The tuning run of `policy`'s weights that `budget` games allow: generations of `population` candidates
    (CMA-ES's own number if None) x `games` games against `pool` (the untuned policy if empty) at `players`
    players (the game's most if None); ArgumentError ("policy", "players", "pool", "budget") naming what is wrong,
    before any game is played."""
    cls = spec.policies.get(policy)
    if cls is None or not weights.tunable(cls):
        tunable = [n for n, c in spec.policies.items() if weights.tunable(c)]
        raise ArgumentError("policy", f"{policy!r} is not a policy of {spec.name} with tunable weights; those that "
                            f"have them: {', '.join(tunable) or 'none'}")
    players = players or spec.default_players
    if players not in spec.players:
        raise ArgumentError("players", f"{spec.title} is for {spec.player_counts()} players")
    for text in pool:
        try:
            spec.make_policy(text)
        except PolicyError as exc:
            raise ArgumentError("pool", str(exc)) from None
    if len(pool) > players - 1:  # the pool is cycled round the other seats: the extra ones would never play
        raise ArgumentError("pool", f"{len(pool)} given, but a {players}-player table has {players - 1} other "
                            f"seat{'s' if players > 2 else ''}; give at most {players - 1}")
    population = population or default_population(len(weights.tunable(cls)))
    generations = budget // (population * games)
    if generations < 1:
        raise ArgumentError("budget", f"{budget} games leave no generation of {population} candidates x {games} "
                            f"games; give at least {population * games}")
    return TunePlan(TuneSetup(game=spec.name, policy=policy, rules=rules, pool=tuple(pool) or (policy,),
                              players=players, seed=seed, population=population, games=games,
                              generations=generations, check_games=check_games), budget)


def write_tuned(out: Path, setup: TuneSetup, result: TuneResult, command: str) -> None:
    """Write a tuning run's folder atomically: POLICY.toml (the tuned weights, with the `command` that made
    them and how they were found and checked), tune_history.csv and check.csv."""
    mean, low, high = result.beats
    with atomic_folder(out) as folder:
        weights.write_weights(folder / f"{setup.policy}.toml", setup.game, setup.policy, result.weights, {
            "command": command, "seed": setup.seed, "players": setup.players, "pool": list(setup.pool),
            "generations": setup.generations, "population": setup.population, "games_per_candidate": setup.games,
            "check_games": setup.check_games, "beats_untuned": round(mean, 4), "beats_untuned_low": round(low, 4),
            "beats_untuned_high": round(high, 4),
            "rules_changed": [f"{k}={v}" for k, v in setup.rules.differences().items()]})
        (folder / "tune_history.csv").write_text(csv_text(result.history))
        (folder / "check.csv").write_text(csv_text(result.check))


def default_population(dimensions: int) -> int:
    """CMA-ES's own default population size for this many weights."""
    return 4 + int(3 * math.log(dimensions))


def candidate_weights(cls: type, x: Sequence[float]) -> dict[str, float]:
    """The weights at the unit-cube point `x` (whole-number weights rounded)."""
    types = {f.name: f.type for f in dataclasses.fields(cls)}
    out = {}
    for (name, (low, high)), u in zip(weights.tunable(cls).items(), x, strict=True):
        value = low + float(np.clip(u, 0.0, 1.0)) * (high - low)
        out[name] = round(value) if types[name] in (int, "int") else round(value, 6)
    return out


def _unit(cls: type) -> list[float]:
    """The policy's default weights as a unit-cube point."""
    return [(weights.defaults(cls)[n] - lo) / (hi - lo) for n, (lo, hi) in weights.tunable(cls).items()]


def play_candidate(spec: GameSpec, setup: TuneSetup, weights_: dict[str, float], generation: int, first: int,
                   count: int) -> pd.DataFrame:
    """Games first..first+count-1 of `generation` with the candidate in one seat; a row per game.

    `pairs_won`: the share of the pool's seats the candidate finished ahead of (ties half);
    `win_share`: its share of the win. The candidate is a policy text giving every weight, so the
    game's compiled engine plays its games wherever it has a form of the policy and the pool's."""
    texts = [candidate_text(setup.policy, weights_)] + [setup.pool[i % len(setup.pool)]
                                                         for i in range(setup.players - 1)]
    rows = play_games(spec, setup.rules, tuple(texts), first, count, task_rng(setup.seed, generation), paired=True)
    # the candidate's seat by the rotation, not by its text, which a pool's policy could share
    candidate = rotation(rows["game_id"], rows["seat"], setup.players) == 0
    rows["policy"] = np.where(candidate, CANDIDATE, rows["policy"])
    mine = rows[candidate].sort_values("game_id")
    ahead = seats_ahead(rows, CANDIDATE)
    return pd.DataFrame({"game_id": mine["game_id"].to_numpy(), "win_share": mine["win_share"].to_numpy(),
                         "pairs_won": ahead["ahead"].to_numpy()})


def candidate_text(policy: str, weights_: Mapping[str, float]) -> str:
    """The policy text of `policy` with the weights `weights_` (repr writes a float that reads back exactly; a
    numpy float is written as the float it is, not as its repr)."""
    return f"{policy}:" + ",".join(f"{name}={value if isinstance(value, int) else float(value)!r}"
                                   for name, value in weights_.items())


def game_chunks(games: int) -> list[tuple[int, int, int]]:
    """A candidate's games as tasks: chunks of a fifth of them, at most GAMES_PER_CHUNK, so that the
    candidates of a generation spread over the workers (the chunks never depend on the jobs)."""
    return chunks(games, min(GAMES_PER_CHUNK, max(1, -(-games // 5))))


def tune(spec: GameSpec, setup: TuneSetup, *, n_jobs: int = 1, store: ResultStore | None = None,
         progress: Progress | None = None, on_generation: Callable[[int, float], None] | None = None) -> TuneResult:
    """Tune `setup.policy`'s weights (see the module's docstring)."""
    import cma
    from joblib import Parallel, delayed

    cls = spec.policies[setup.policy]
    if not weights.tunable(cls):
        raise TuneError(f"policy {setup.policy!r} of {spec.name} has no tunable weights; those that have: "
                        + (", ".join(n for n, c in spec.policies.items() if weights.tunable(c)) or "none"))
    if len(weights.tunable(cls)) < 2:
        raise TuneError(f"policy {setup.policy!r} has one tunable weight; CMA-ES needs at least two "
                        "(sweep a single weight with `tyrsim explore` instead)")
    store = store or ResultStore(None)
    files = {path: file_digest(path) for text in setup.pool for path in weights.named_files({"p": text})}
    runner = Parallel(n_jobs=n_jobs)

    def evaluate(setup: TuneSetup, generation: int, candidates: list[dict[str, float]],
                 games: int) -> list[pd.DataFrame]:
        """Each candidate's games (read from the store where they are there)."""
        plan = [(i, first, count) for i in range(len(candidates)) for _, first, count in game_chunks(games)]
        keys = [setup.key(generation, candidates[i], first, count, files) for i, first, count in plan]
        tables = {k: store.get(k) for k in keys}
        todo = [(k, item) for k, item in zip(keys, plan, strict=True) if tables[k] is None]
        if progress is not None:
            progress.skip(len(plan) - len(todo))
        results = runner(delayed(play_candidate)(spec, setup, candidates[i], generation, first, count)
                         for _, (i, first, count) in todo)
        for (k, (_, _, count)), table in zip(todo, results, strict=True):
            store.put(k, table)
            tables[k] = table
            if progress is not None:
                progress.update(1, count)
        return [pd.concat([tables[k] for k, (j, _, _) in zip(keys, plan, strict=True) if j == i], ignore_index=True)
                for i in range(len(candidates))]

    if progress is not None:
        progress.grow(setup.generations * setup.population * len(game_chunks(setup.games))
                      + len(game_chunks(setup.check_games)))
    rng = task_rng(setup.seed, CHECK + 1)  # CMA-ES's own stream, apart from every generation's games
    es = cma.CMAEvolutionStrategy(_unit(cls), SIGMA, {
        "bounds": [0.0, 1.0], "popsize": setup.population, "randn": lambda *shape: rng.standard_normal(shape),
        "verbose": -9, "verb_log": 0, "verb_disp": 0, "tolfun": 0.0, "tolx": 0.0, "tolflatfitness": 10**9})
    history = []
    for generation in range(setup.generations):
        points = es.ask()
        candidates = [candidate_weights(cls, x) for x in points]
        shares = [float(t["win_share"].mean()) for t in evaluate(setup, generation, candidates, setup.games)]
        es.tell(points, [-s for s in shares])  # CMA-ES minimises
        for i, (cand, share) in enumerate(zip(candidates, shares, strict=True)):
            history.append({"generation": generation, "candidate": i, **cand, "win_share": share})
        if on_generation is not None:
            on_generation(generation, max(shares))
    tuned = candidate_weights(cls, es.result.xfavorite)
    # the check: the tuned weights against untuned copies of the policy, whatever the pool was
    check = evaluate(dataclasses.replace(setup, pool=(setup.policy,)), CHECK, [tuned], setup.check_games)[0]
    return TuneResult(weights=tuned, history=pd.DataFrame(history), check=check,
                      beats=stats.share_interval(check["pairs_won"].to_numpy()))
