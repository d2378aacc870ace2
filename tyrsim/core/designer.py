"""The designer's analyses every full game engine gets: `rate` (a policy tournament) and
`explore` (rule sensitivity). Both play games through the shared runner; their trials
are games, numbered across the tournament's pairings or the study's rule points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from tyrsim.core import stats
from tyrsim.core.analysis import Analysis, ArgumentError, Metric, Param
from tyrsim.core.game import PolicyError
from tyrsim.core.metrics import balance_metrics
from tyrsim.core.playouts import seat_policy_check
from tyrsim.core.ratings import fit_bradley_terry, pairings, pairwise_results, rating_figure
from tyrsim.core.runner import GAMES_PER_CHUNK, play_chunk
from tyrsim.core.sensitivity import rank_parameters, sample_points, sensitivity_figure

# what `explore` can measure at each rule point: balance measures (without their intervals) and scores
EXPLORE_METRICS = ("largest_seat_gap", "balance", "mean_rounds", "mean_actions", "mean_margin",
                   "share_decided_by_tiebreak", "mean_score", "first_seat_win_rate")


def _spec(game: str):
    from tyrsim.games import get_game

    return get_game(game)


def _play_range(game: str, rules: Any, seatings: list[tuple[str, ...]], per_block: int, first: int, count: int,
                rng: np.random.Generator, block_column: str) -> pd.DataFrame:
    """Games first..first+count-1 where block b = game // per_block is played with seatings[b]."""
    spec = _spec(game)
    parts = []
    trial = first
    while trial < first + count:
        block, offset = divmod(trial, per_block)
        n = min(per_block - offset, first + count - trial)
        seats = seatings[block] if len(seatings) > 1 else seatings[0]
        block_rules = rules[block] if isinstance(rules, list) else rules
        table = play_chunk(spec.make_game(block_rules, len(seats)), list(seats),
                           [spec.make_policy(s) for s in seats], offset, n, rng)
        table.insert(0, block_column, block)
        parts.append(table)
        trial += n
    return pd.concat(parts, ignore_index=True)


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


def rating_analysis(game: str, default_policies: tuple[str, ...], seats: int) -> Analysis:
    """Round robin of `policies` at `seats`-player tables, fitted to Bradley-Terry."""

    def seatings(args: Mapping[str, Any]) -> list[tuple[str, ...]]:
        return pairings(list(args["policies"]), args["players"])

    def run(rules, args, first, count, rng):
        return _play_range(game, rules, seatings(args), args["games"], first, count, rng, "pairing")

    def tables(raw, rules, args):
        pairs = pairwise_results(raw)
        pairs["win_rate"] = pairs["wins"] / pairs["games"]
        pairs["ci_low"], pairs["ci_high"] = stats.wilson_interval(pairs["wins"], pairs["games"])
        return {"ratings": fit_bradley_terry(pairs), "pairwise": pairs, "seat_orders": seat_orders(raw, seatings(args))}

    def figures(tables_, rules, args):
        return {"ratings": rating_figure(tables_["ratings"])}

    def check(policies: tuple[str, ...]) -> None:
        if len(set(policies)) < 2:
            raise ArgumentError("policies", "argument 'policies': a tournament needs at least two different policies")
        for text in policies:
            try:
                _spec(game).make_policy(text)
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
        metrics={"pair_win_rate": Metric(
            "proportion", ("policy", "opponent"),
            lambda raw, rules, args: pairwise_results(raw).rename(columns={"wins": "successes", "games": "n"}),
            "share of comparisons a policy wins against another",
        )},
        headline="pair_win_rate",
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


def explore_analysis(game: str, default_policies: tuple[str, ...], default_params: tuple[str, ...]) -> Analysis:
    """A sensitivity study: Latin-hypercube rule points, `games` games each, ranked by regression."""

    def design(rules, args) -> tuple[pd.DataFrame, list]:
        spec = _spec(game)
        ranges = parse_ranges(spec, args["params"])
        points = sample_points(ranges, args["points"], args["design_seed"])
        point_rules = [rules.replace({k: ranges[k][2](v) for k, v in row.items()})
                       for row in points.to_dict("records")]
        return points, point_rules

    def run(rules, args, first, count, rng):
        _, point_rules = design(rules, args)
        return _play_range(game, point_rules, [tuple(args["policies"])], args["games"], first, count, rng, "point")

    def point_metrics(raw: pd.DataFrame) -> dict[str, float]:
        table = balance_metrics(raw, intervals=False).set_index("metric")["value"].to_dict()
        table["mean_score"] = float(raw["score"].mean())
        table["first_seat_win_rate"] = float(raw.loc[raw["seat"] == 0, "win_share"].mean())
        return {m: table.get(m, np.nan) for m in EXPLORE_METRICS}

    def tables(raw, rules, args):
        points, _ = design(rules, args)
        measured = pd.DataFrame([point_metrics(group) for _, group in raw.groupby("point", sort=True)])
        table = pd.concat([points.reset_index(drop=True), measured], axis=1)
        ranking = pd.concat([rank_parameters(table, list(points.columns), m) for m in args["metrics"]],
                            ignore_index=True)
        table.insert(0, "point", range(len(table)))
        return {"sensitivity": ranking, "design": table}

    def figures(tables_, rules, args):
        return {f"sensitivity_{m}": sensitivity_figure(tables_["sensitivity"], m) for m in args["metrics"]}

    def check_params(texts: tuple[str, ...]) -> None:
        parse_ranges(_spec(game), texts)

    return Analysis(
        name="explore",
        summary="rule sensitivity: Latin-hypercube rule points, ranked by standardised regression coefficients",
        params=(
            Param("params", default_params, "rules to vary, as KEY=LOW:HIGH", item=str, validate=check_params),
            Param("metrics", ("mean_margin", "largest_seat_gap", "mean_rounds"), "metrics to rank the rules on",
                  item=str, choices=EXPLORE_METRICS),
            Param("policies", default_policies, "one policy per seat", item=str, validate=seat_policy_check(game)),
            Param("points", 32, "rule points sampled", low=4, high=10_000),
            Param("games", 500, "games per rule point", low=2),
            Param("design_seed", 0, "seed of the Latin hypercube (the games use the run seed)", low=0),
        ),
        run=run, tables=tables, figures=figures, trials="games", trial_unit="games",
        chunk_size=GAMES_PER_CHUNK * 2, quick_trials=20,
        count=lambda args: args["points"] * args["games"],
    )
