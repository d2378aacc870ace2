"""The `rate` analysis every full game engine gets: a policy tournament. Each pairing of policies is played
as a block of games (`blocks.play_blocks`) through the shared runner; its trials are games, numbered across
the tournament's pairings, and the policies are rated by Bradley-Terry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.engine.analysis import Analysis, ArgumentError, Metric, Param, for_game
from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.engine.runner import GAMES_PER_CHUNK
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report import words
from tyrsim.core.report.findings import rating_findings
from tyrsim.core.stats import intervals as stats
from tyrsim.core.stats.ratings import fit_bradley_terry, pairings, pairwise_results, rating_figure
from tyrsim.core.studies.blocks import block_substitutions, play_blocks, prepare_blocks

if TYPE_CHECKING:
    import pandas as pd


def seat_orders(raw: pd.DataFrame, seatings: list[tuple[str, ...]]) -> pd.DataFrame:
    """What sitting first did: per table and policy, its win rate when it held the first seat and when it did not.

    Seats rotate within each block of the round robin, so the two seat orders of
    a pair are the same experiment; blocks seating the same policies are pooled
    into one table. A policy's win rate in a game is the win share of all its
    seats. Wilson intervals for each rate, and the difference (first minus
    later) with a Newcombe interval.
    """
    import pandas as pd

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
        # each policy by the name a sentence gives it ("tuned greedy"), the exact policy text in the table
        named = tables_["ratings"].assign(policy=lambda t: t["policy"].map(words.policy_name))
        return {"ratings": rating_figure(named)}

    def check(policies: tuple[str, ...]) -> None:
        if len(set(policies)) < 2:
            raise ArgumentError("policies", "a tournament needs at least two different policies")
        twice = [t for t in dict.fromkeys(policies) if policies.count(t) > 1]
        if twice:  # its games against itself would count as wins and losses of one name
            raise ArgumentError("policies", f"{', '.join(map(repr, twice))} is given twice; "
                                "a tournament rates each policy once")
        for text in policies:
            try:
                spec.make_policy(text)
            except PolicyError as exc:
                raise ArgumentError("policies", str(exc)) from None

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
