"""The `explore` analysis every full game engine gets: rule sensitivity. Rule points drawn over the ranges
asked for (a Sobol' design) are each played as a block of games (`blocks.play_blocks`), and the rules are
ranked by how much of each metric's variation they explain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.engine.analysis import Analysis, ArgumentError, Param, for_game
from tyrsim.core.engine.runner import GAMES_PER_CHUNK
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report.findings import sensitivity_findings
from tyrsim.core.report.readable import header
from tyrsim.core.stats.metrics import per_game_measures, seat_balance, win_shares
from tyrsim.core.stats.sensitivity import rank_rules, reading, sensitivity_figure, sobol_design
from tyrsim.core.studies.blocks import BLOCK_TASK_MOST, block_substitutions, play_blocks, prepare_blocks

if TYPE_CHECKING:
    import pandas as pd

# what `explore` can measure at each rule point: balance measures and scores, each with the
# Monte Carlo variance of its estimate at the point
EXPLORE_METRICS = ("largest_seat_gap", "balance", "mean_rounds", "mean_actions", "mean_margin",
                   "share_decided_by_tiebreak", "mean_score", "first_seat_win_rate")
# the per-game column (metrics.per_game_measures) each mean-type metric averages
_PER_GAME = {"mean_rounds": "rounds", "mean_actions": "actions", "mean_margin": "margin",
             "share_decided_by_tiebreak": "decided_by_tiebreak", "mean_score": "mean_score",
             "first_seat_win_rate": "first_seat_share"}


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


def parse_ranges(spec, texts: tuple[str, ...]) -> dict[str, tuple[float, float, type]]:
    """{rule: (low, high, type)} from "KEY=LOW:HIGH" texts, checked against the game's rules."""
    defaults = {row["rule"]: row["default"] for row in spec.rules.describe()}
    ranges = {}
    for text in texts:
        key, sep, span = text.partition("=")
        low, colon, high = span.partition(":")
        if not sep or not colon:
            raise ArgumentError("params", f"{text!r} is not KEY=LOW:HIGH")
        if key not in defaults:
            raise ArgumentError("params", f"unknown rule {key!r}; the rules are: "
                                f"{', '.join(defaults)}")
        if key in ranges:
            raise ArgumentError("params", f"rule {key!r} is given twice; give each rule once")
        kind = type(defaults[key])
        if kind not in (int, float):
            raise ArgumentError("params", f"rule {key!r} is not a number; only numeric rules "
                                "can be explored")
        try:
            lo, hi = kind(low), kind(high)
        except ValueError:
            raise ArgumentError("params", f"{text!r}: bounds must be {kind.__name__}s") from None
        if lo >= hi:
            raise ArgumentError("params", f"{text!r}: LOW must be below HIGH")
        try:
            spec.rules.from_overrides({key: lo})
            spec.rules.from_overrides({key: hi})
        except ValueError as exc:
            raise ArgumentError("params", str(exc)) from None
        ranges[key] = (lo, hi, kind)
    return ranges


def check_points(n: int) -> None:
    """The Sobol' design's base samples N: a power of two."""
    if n & (n - 1):
        raise ArgumentError("points", f"{n} is not a power of two; the Sobol' design needs "
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
        import pandas as pd

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
        # each rule and measure by its header ("city cost", "mean margin"), as the sentences name them
        named = tables_["sensitivity"].assign(parameter=lambda t: t["parameter"].map(header),
                                              metric=lambda t: t["metric"].map(header))
        return {f"sensitivity_{m}": sensitivity_figure(named, header(m)) for m in args["metrics"]}

    def check_params(texts: tuple[str, ...]) -> None:
        parse_ranges(spec, texts)

    return Analysis(
        name="explore",
        summary="rule sensitivity: the rule points of a Sobol' design, ranked by total Sobol' index (SRC beside it)",
        params=(
            Param("params", default_params, "rules to vary, as KEY=LOW:HIGH", item=str, validate=check_params),
            Param("metrics", ("mean_margin", "largest_seat_gap", "mean_rounds"), "metrics to rank the rules on",
                  item=str, choices=EXPLORE_METRICS),
            Param("policies", default_policies, "one policy per seat", item=str, validate=spec.check_seats),
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
