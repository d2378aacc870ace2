"""The designer's analyses every full game engine gets: `rate` (a policy tournament) and
`explore` (rule sensitivity). Both play games through the shared runner; their trials
are games, numbered across the tournament's pairings or the study's rule points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from tyrsim.core.compiled.engines import COMPILED, compile_search
from tyrsim.core.engine.analysis import Analysis, ArgumentError, Metric, Param, for_game
from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.engine.rng import trial_rng
from tyrsim.core.engine.runner import GAMES_PER_CHUNK, play_chunk
from tyrsim.core.engine.search import IsmctsPolicy
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report.findings import rating_findings, sensitivity_findings
from tyrsim.core.run.substitutions import AUTO, Substitution, engine_refused, no_form_of
from tyrsim.core.stats import intervals as stats
from tyrsim.core.stats.metrics import per_game_measures, seat_balance, win_shares
from tyrsim.core.stats.ratings import fit_bradley_terry, pairings, pairwise_results, rating_figure
from tyrsim.core.stats.sensitivity import rank_rules, reading, sensitivity_figure, sobol_design
from tyrsim.core.studies.game import seat_policy_check

# what `explore` can measure at each rule point: balance measures and scores, each with the
# Monte Carlo variance of its estimate at the point
EXPLORE_METRICS = ("largest_seat_gap", "balance", "mean_rounds", "mean_actions", "mean_margin",
                   "share_decided_by_tiebreak", "mean_score", "first_seat_win_rate")
# the per-game column (metrics.per_game_measures) each mean-type metric averages
_PER_GAME = {"mean_rounds": "rounds", "mean_actions": "actions", "mean_margin": "margin",
             "share_decided_by_tiebreak": "decided_by_tiebreak", "mean_score": "mean_score",
             "first_seat_win_rate": "first_seat_share"}

BLOCK_TASK_MOST = 20_000  # games per task at most where the compiled engine plays a study's blocks


def point_metrics(raw: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """Every explore metric at one rule point: (estimate, Monte Carlo variance of the estimate).

    Means of per-game quantities: the mean and its variance (sample variance / games).
    The seat gap and balance: `metrics.seat_balance`'s bias-corrected estimates,
    unclipped, so that across rule points they scatter around the true value even
    near a fair game, where the observed gap is mostly noise and would flatten the
    response (their variance: that of the estimate's normal approximation). A
    quantity the game does not record (e.g. rounds) is NaN.
    """
    per_game = per_game_measures(raw)
    games = len(per_game)
    seats = seat_balance(win_shares(raw).to_numpy(), intervals=False)
    out = {"largest_seat_gap": (seats.gap, seats.gap_variance), "balance": (seats.balance, seats.balance_variance)}
    for metric, column in _PER_GAME.items():
        if column in per_game.columns and games > 1:
            values = per_game[column].to_numpy(dtype=float)
            out[metric] = (float(values.mean()), float(values.var(ddof=1)) / games)
        else:
            out[metric] = (np.nan, np.nan)
    return out


def play_blocks(spec: GameSpec, rules: Any, seatings: list[tuple[str, ...]], per_block: int, first: int, count: int,
                rng: np.random.Generator, block_column: str, *, paired: bool = False) -> pd.DataFrame:
    """Games first..first+count-1 of a study in blocks of `per_block` games: block b = game // per_block is
    played with seatings[b] (or the only one) under rules[b] (or `rules`), numbered from 0 within its block.

    `paired`: game g of every block draws from its own stream `trial_rng(rng, g)`, so all blocks play
    the same games (common random numbers) until their rules make them differ; otherwise the chunk's
    games draw one after another from `rng`. The game's compiled engine (`GameSpec.compiled`) plays a
    block where it can, else the object engine: the same games from the same draws either way
    (`block_substitutions` says where the object engine plays).
    """
    parts = []
    trial = first
    while trial < first + count:
        block, offset = divmod(trial, per_block)
        n = min(per_block - offset, first + count - trial)
        seats = seatings[block] if len(seatings) > 1 else seatings[0]
        table = play_games(spec, rules[block] if isinstance(rules, list) else rules, seats, offset, n, rng,
                           paired=paired)
        table.insert(0, block_column, block)
        parts.append(table)
        trial += n
    return pd.concat(parts, ignore_index=True)


def play_games(spec: GameSpec, rules: Any, seats: tuple[str, ...], first: int, count: int, rng: np.random.Generator,
               *, paired: bool = False) -> pd.DataFrame:
    """Games first..first+count-1 of one seating under `rules`, one row per game and seat (`runner.play_chunk`'s
    table): on the game's compiled engine where it can play them, else on the object engine, the same games from
    the same draws. `paired`: game g draws from its own stream `trial_rng(rng, g)`, else the games draw one
    after another from `rng`."""
    game_rng = (lambda g: trial_rng(rng, g)) if paired else None
    table = None if spec.compiled is None else spec.compiled.play_games(rules, list(seats), first, count, rng, game_rng)
    if table is None:
        table = play_chunk(spec.make_game(rules, len(seats)), list(seats), [spec.make_policy(s) for s in seats],
                           first, count, rng, game_rng=game_rng)
    return table


def block_substitutions(spec: GameSpec, blocks: list[tuple[Any, tuple[str, ...]]], unit: str) -> list[Substitution]:
    """Where the object engine plays a study's blocks, each (rules, seating), because the game's compiled engine
    cannot, by reason: "the object engine plays these games" where it plays them all, else "the games of k of n
    `unit`" (rule points, readings, pairings). The blocks its policies have no compiled form of share one line."""
    if spec.compiled is None:
        return []
    missing: dict[str, None] = {}  # the policies without a compiled form, in order
    without_forms = 0  # the blocks they keep from the compiled engine
    refused: dict[str, int] = {}  # a rule the compiled engine does not play -> its blocks
    for block_rules, seats in blocks:
        if gone := spec.compiled.missing_forms(seats):
            missing.update(dict.fromkeys(gone))
            without_forms += 1
        elif (reason := spec.compiled.refusal(block_rules, seats)) is not None:
            refused[reason] = refused.get(reason, 0) + 1
    if without_forms:
        refused = {no_form_of(COMPILED, list(missing)): without_forms, **refused}
    return [engine_refused(AUTO, reason, "the object engine plays these games" if k == len(blocks)
                           else f"the object engine plays the games of {k} of {len(blocks)} {unit}")
            for reason, k in refused.items()]


def block_task_size(spec: GameSpec, blocks: list[tuple[Any, tuple[str, ...]]], per_block: int,
                    object_games: int) -> int:
    """Games per task of a study whose games are numbered block by block: a block's games in one task (at most
    BLOCK_TASK_MOST) where the compiled engine plays every block, else the object engine's `object_games`, so
    that its slower games still spread over the workers."""
    compiled = spec.compiled is not None and all(spec.compiled.refusal(r, seats) is None for r, seats in blocks)
    return min(per_block, BLOCK_TASK_MOST) if compiled else object_games


def prepare_blocks(spec: GameSpec, blocks: list[tuple[Any, tuple[str, ...]]]) -> None:
    """`Analysis.prepare` of a study: compile the game's engine (or load numba's cache) in the main process
    if it plays any of the blocks, and its compiled search if a block seats it, so that the workers load the
    cache rather than each compiling."""
    if spec.compiled is None:
        return
    for block_rules, seats in blocks:
        if spec.compiled.refusal(block_rules, seats) is None:
            spec.compiled.prepare(block_rules, {"policies": seats})
            break
    for block_rules, seats in blocks:
        if any(isinstance(spec.make_policy(s), IsmctsPolicy) for s in seats):
            compile_search(spec, block_rules, len(seats))
            return


def seat_orders(raw: pd.DataFrame, seatings: list[tuple[str, ...]]) -> pd.DataFrame:
    """What sitting first did: per table and policy, its win rate when it held the first seat and when it did not.

    Seats rotate within each block of the round robin, so the two seat orders of
    a pair are the same experiment; blocks seating the same policies are pooled
    into one table. A policy's win rate in a game is the win share of all its
    seats. Wilson intervals for each rate, and the difference (first minus
    later) with a Newcombe interval.
    """
    per_seat = raw.assign(table=raw["pairing"].map(lambda b: " vs ".join(sorted(seatings[b]))),
                          first=raw["seat"] == 0)
    per_game = per_seat.groupby(["table", "pairing", "game_id", "policy"], sort=True).agg(
        win_share=("win_share", "sum"), first=("first", "any")).reset_index()
    rows = []
    for (table, policy), group in per_game.groupby(["table", "policy"], sort=True):
        first, later = group[group["first"]], group[~group["first"]]
        n1, k1, n0, k0 = len(first), first["win_share"].sum(), len(later), later["win_share"].sum()
        low1, high1 = stats.wilson_interval(k1, n1)
        low0, high0 = stats.wilson_interval(k0, n0)
        diff, low, high, _ = stats.compare_proportions(k1, n1, k0, n0)
        rate1, rate0 = k1 / n1 if n1 else np.nan, k0 / n0 if n0 else np.nan
        rows.append({"table": table, "policy": policy,
                     "games_first": n1, "win_rate_first": rate1, "first_low": float(low1), "first_high": float(high1),
                     "games_later": n0, "win_rate_later": rate0, "later_low": float(low0), "later_high": float(high0),
                     "first_minus_later": float(diff), "diff_low": float(low), "diff_high": float(high)})
    return pd.DataFrame(rows)


def pairwise_table(raw: pd.DataFrame) -> pd.DataFrame:
    """Each policy's wins over each other policy, with its win rate and Wilson interval."""
    pairs = pairwise_results(raw)
    pairs["win_rate"] = pairs["wins"] / pairs["games"]
    pairs["ci_low"], pairs["ci_high"] = stats.wilson_interval(pairs["wins"], pairs["games"])
    return pairs


PAIR_WIN_RATE = Metric(
    "proportion", ("policy", "opponent"),
    lambda raw, rules, args: pairwise_results(raw).rename(columns={"wins": "successes", "games": "n"}),
    "share of comparisons a policy wins against another",
)


@for_game
def rating_analysis(spec: GameSpec, default_policies: tuple[str, ...], seats: int) -> Analysis:
    """Round robin of `policies` at `seats`-player tables, fitted to Bradley-Terry."""

    def seatings(args: Mapping[str, Any]) -> list[tuple[str, ...]]:
        return pairings(list(args["policies"]), args["players"])

    def run(rules, args, first, count, rng):
        return play_blocks(spec, rules, seatings(args), args["games"], first, count, rng, "pairing")

    def blocks(rules, args) -> list[tuple[Any, tuple[str, ...]]]:
        return [(rules, seating) for seating in seatings(args)]

    def tables(raw, rules, args):
        pairs = pairwise_table(raw)
        return {"ratings": fit_bradley_terry(pairs), "pairwise": pairs, "seat_orders": seat_orders(raw, seatings(args))}

    def figures(tables_, rules, args):
        return {"ratings": rating_figure(tables_["ratings"])}

    def check(policies: tuple[str, ...]) -> None:
        if len(set(policies)) < 2:
            raise ArgumentError("policies", "argument 'policies': a tournament needs at least two different policies")
        twice = [t for t in dict.fromkeys(policies) if policies.count(t) > 1]
        if twice:  # its games against itself would count as wins and losses of one name
            raise ArgumentError("policies", f"argument 'policies': {', '.join(map(repr, twice))} is given twice; "
                                "a tournament rates each policy once")
        for text in policies:
            try:
                spec.make_policy(text)
            except PolicyError as exc:
                raise ArgumentError("policies", f"argument 'policies': {exc}") from None

    return Analysis(
        name="rate",
        summary="round-robin tournament of policies (all seat orders) rated by a Bradley-Terry fit",
        params=(
            Param("policies", default_policies, "the policies to rate", item=str, validate=check),
            Param("players", seats, "players at each table", low=2, high=8),
            Param("games", 200, "games per ordered pairing of two policies", low=1),
        ),
        run=run, tables=tables, figures=figures, trials="games", trial_unit="games",
        chunk_size=GAMES_PER_CHUNK, quick_trials=20,
        count=lambda args: len(seatings(args)) * args["games"],
        metrics={"pair_win_rate": PAIR_WIN_RATE},
        headline="pair_win_rate",
        outputs=lambda args: (("ratings", "pairwise", "seat_orders"), ("ratings",)),
        findings=lambda tables_, rules, args: rating_findings(tables_),
        substitutions=lambda rules, args: block_substitutions(spec, blocks(rules, args), "pairings"),
        prepare=lambda rules, args: prepare_blocks(spec, blocks(rules, args)),
    )


def parse_ranges(spec, texts: tuple[str, ...]) -> dict[str, tuple[float, float, type]]:
    """{rule: (low, high, type)} from "KEY=LOW:HIGH" texts, checked against the game's rules."""
    defaults = {row["rule"]: row["default"] for row in spec.rules.describe()}
    ranges = {}
    for text in texts:
        key, sep, span = text.partition("=")
        low, colon, high = span.partition(":")
        if not sep or not colon:
            raise ArgumentError("params", f"argument 'params': {text!r} is not KEY=LOW:HIGH")
        if key not in defaults:
            raise ArgumentError("params", f"argument 'params': unknown rule {key!r}; the rules are: "
                                f"{', '.join(defaults)}")
        if key in ranges:
            raise ArgumentError("params", f"argument 'params': rule {key!r} is given twice; give each rule once")
        kind = type(defaults[key])
        if kind not in (int, float):
            raise ArgumentError("params", f"argument 'params': rule {key!r} is not a number; only numeric rules "
                                "can be explored")
        try:
            lo, hi = kind(low), kind(high)
        except ValueError:
            raise ArgumentError("params", f"argument 'params': {text!r}: bounds must be {kind.__name__}s") from None
        if lo >= hi:
            raise ArgumentError("params", f"argument 'params': {text!r}: LOW must be below HIGH")
        try:
            spec.rules.from_overrides({key: lo})
            spec.rules.from_overrides({key: hi})
        except ValueError as exc:
            raise ArgumentError("params", f"argument 'params': {exc}") from None
        ranges[key] = (lo, hi, kind)
    return ranges


def check_points(n: int) -> None:
    """The Sobol' design's base samples N: a power of two."""
    if n & (n - 1):
        raise ArgumentError("points", f"argument 'points': {n} is not a power of two; the Sobol' design needs "
                            "N = 4, 8, 16, 32, ... base samples")


@for_game
def explore_analysis(spec: GameSpec, default_policies: tuple[str, ...], default_params: tuple[str, ...]) -> Analysis:
    """A sensitivity study: the rule points of a Sobol' (Saltelli) design, `games` games each, ranked by
    total Sobol' index with SRCs beside them.

    In a game with a compiled engine each rule point's games are one task (up to BLOCK_TASK_MOST games),
    played by the compiled engine wherever it can play the point; without one, the runner plays them in
    tasks of `chunk_size` games.
    """

    def design(rules, args) -> tuple[pd.DataFrame, dict, list]:
        ranges = parse_ranges(spec, args["params"])
        points = sobol_design(ranges, args["points"], args["design_seed"])
        point_rules = [rules.replace({k: ranges[k][2](row[k]) for k in ranges}) for row in points.to_dict("records")]
        return points, ranges, point_rules

    def run(rules, args, first, count, rng):
        _, _, point_rules = design(rules, args)
        return play_blocks(spec, point_rules, [tuple(args["policies"])], args["games"], first, count, rng, "point")

    def blocks(rules, args) -> list[tuple[Any, tuple[str, ...]]]:
        return [(point, tuple(args["policies"])) for point in design(rules, args)[2]]

    def tables(raw, rules, args):
        points, ranges, _ = design(rules, args)
        measured = [point_metrics(group) for _, group in raw.groupby("point", sort=True)]
        table = points.copy()
        for m in EXPLORE_METRICS:
            table[m] = [values[m][0] for values in measured]
        ranking, readings = [], []
        for m in args["metrics"]:
            noise = np.array([values[m][1] for values in measured])
            table[f"{m}_se"] = np.sqrt(noise)
            ranked = rank_rules(table, list(ranges), m, noise, seed=args["design_seed"])
            ranking.append(ranked)
            readings.append({"metric": m, "reading": reading(ranked, args["games"], args["points"])})
        table.insert(0, "point", range(len(table)))
        return {"sensitivity": pd.concat(ranking, ignore_index=True), "sensitivity_notes": pd.DataFrame(readings),
                "design": table}

    def figures(tables_, rules, args):
        return {f"sensitivity_{m}": sensitivity_figure(tables_["sensitivity"], m) for m in args["metrics"]}

    def check_params(texts: tuple[str, ...]) -> None:
        parse_ranges(spec, texts)

    return Analysis(
        name="explore",
        summary="rule sensitivity: the rule points of a Sobol' design, ranked by total Sobol' index (SRC beside it)",
        params=(
            Param("params", default_params, "rules to vary, as KEY=LOW:HIGH", item=str, validate=check_params),
            Param("metrics", ("mean_margin", "largest_seat_gap", "mean_rounds"), "metrics to rank the rules on",
                  item=str, choices=EXPLORE_METRICS),
            Param("policies", default_policies, "one policy per seat", item=str, validate=seat_policy_check(spec)),
            Param("points", 16, "base samples N of the Sobol' design, a power of two: N(d+2) rule points for d rules",
                  low=4, high=4096, validate=check_points),
            Param("games", 250, "games per rule point", low=2),
            Param("design_seed", 0, "seed of the scrambled Sobol' sequence and its bootstrap (the games use the run "
                  "seed)", low=0),
        ),
        run=run, tables=tables, figures=figures, trials="games", trial_unit="games",
        chunk_size=GAMES_PER_CHUNK * 2, quick_trials=4,
        task_size=None if spec.compiled is None else (lambda rules, args: min(args["games"], BLOCK_TASK_MOST)),
        count=lambda args: args["points"] * (len(args["params"]) + 2) * args["games"],
        outputs=lambda args: (("sensitivity", "sensitivity_notes", "design"),
                              tuple(f"sensitivity_{m}" for m in args["metrics"])),
        findings=lambda tables_, rules, args: sensitivity_findings(tables_),
        substitutions=lambda rules, args: block_substitutions(spec, blocks(rules, args), "rule points"),
        prepare=lambda rules, args: prepare_blocks(spec, blocks(rules, args)),
    )
