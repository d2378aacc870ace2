"""The `combat` analysis: odds tables for a set of matchups, exact and/or simulated, with figures."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from tyrsim.core.analysis import Analysis, ArgumentError, Metric, Param
from tyrsim.core.limits import MAX_MATCHUPS
from tyrsim.games.tyranno_ex import combat
from tyrsim.games.tyranno_ex.rules import Rules

METHODS = ("exact", "mc", "both")


def _matchups(rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    return combat.matchups(
        args["attacker_strength"], args["attacker_dice"], args["defender_strength"], args["defender_dice"], rules
    )


def run(rules: Rules, args: Mapping[str, Any], first: int, count: int, rng: np.random.Generator) -> pd.DataFrame:
    """Raw counts of `count` simulated fights per matchup (empty counts for the exact method)."""
    fights = count if args["method"] != "exact" else 0
    return combat.simulate_counts(_matchups(rules, args), fights, rng, rules)


def odds_tables(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """The odds table: exact rows, simulated rows, or both (exact first, per matchup)."""
    parts = []
    if args["method"] in ("exact", "both"):
        parts.append(combat.odds_table(_matchups(rules, args), rules))
    if args["method"] in ("mc", "both"):
        parts.append(combat.summarize_counts(raw, rules))
    table = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    if len(parts) > 1:
        table = table.sort_values(combat.MATCHUP + ["method"], kind="stable", ignore_index=True)
    return {"odds": table, "summary": summary(table, rules)}


def underdog_is_attacker(table: pd.DataFrame, rules: Rules) -> np.ndarray:
    """Per matchup: True where the attacker is less likely than the defender to win a counting round."""
    a, d = _round_chances(table, rules)
    return a < d


def _round_chances(table: pd.DataFrame, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    p_a, p_d, p_t = combat.round_probabilities(*(table[c].to_numpy() for c in combat.MATCHUP), rules)
    a, d, _ = combat.counting_round_chances(p_a, p_d, p_t, rules)
    return np.nan_to_num(a), np.nan_to_num(d)


def summary(odds: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """Per method, over the decisive matchups: how often the underdog wins and how long fights last.

    The underdog is the side less likely to win a single counting round; an
    upset is the underdog winning the fight. Matchups with no underdog (even
    rounds) are left out of the upset rate.
    """
    rows = []
    for method, part in odds[odds["decisive"]].groupby("method", sort=False):
        a, d = _round_chances(part, rules)
        uneven = ~np.isclose(a, d)
        upset = np.where(a < d, part["p_attacker_wins"], 1 - part["p_attacker_wins"])[uneven]
        rows.append({
            "method": method,
            "matchups": len(part),
            "mean_p_upset": float(np.mean(upset)) if len(upset) else np.nan,
            "mean_expected_rolls": float(part["expected_rolls"].mean()),
        })
    return pd.DataFrame(rows, columns=["method", "matchups", "mean_p_upset", "mean_expected_rolls"])


def heatmap_grid(odds: pd.DataFrame):
    """One panel per (attacker strength, defender strength): P(attacker wins) over attacker x defender dice."""
    import matplotlib.pyplot as plt

    odds = odds.drop_duplicates(combat.MATCHUP)  # one method's value per matchup is enough for a picture
    a_strengths = sorted(odds["attacker_strength"].unique())
    d_strengths = sorted(odds["defender_strength"].unique())
    a_dice = sorted(odds["attacker_dice"].unique())
    d_dice = sorted(odds["defender_dice"].unique())
    rows, cols = len(a_strengths), len(d_strengths)
    size = (2.2 * cols + 1.5, 2.2 * rows + 0.8)
    fig, axes = plt.subplots(rows, cols, figsize=size, squeeze=False, sharex=True, sharey=True)
    cmap = plt.get_cmap("RdBu").with_extremes(bad="0.6")  # grey: matchups that can never end
    image = None
    for i, sa in enumerate(a_strengths):
        for j, sd in enumerate(d_strengths):
            panel = odds[(odds["attacker_strength"] == sa) & (odds["defender_strength"] == sd)]
            grid = panel.pivot(index="attacker_dice", columns="defender_dice", values="p_attacker_wins")
            grid = grid.reindex(index=a_dice, columns=d_dice)
            ax = axes[i][j]
            image = ax.imshow(
                grid.to_numpy(dtype=float), origin="lower", cmap=cmap, vmin=0, vmax=1, aspect="auto",
                extent=(d_dice[0] - 0.5, d_dice[-1] + 0.5, a_dice[0] - 0.5, a_dice[-1] + 0.5),
            )
            if i == 0:
                ax.set_title(f"defender strength {sd}", fontsize=9)
            if j == 0:
                ax.set_ylabel(f"attacker strength {sa}\nattacker dice", fontsize=9)
            if i == rows - 1:
                ax.set_xlabel("defender dice", fontsize=9)
    fig.suptitle("P(attacker wins the fight); white: even, grey cells: the fight can never end")
    fig.colorbar(image, ax=axes, shrink=0.8, label="P(attacker wins)")
    return fig


def dice_curve(odds: pd.DataFrame, defender_strength: int, defender_dice: int):
    """P(attacker wins) against attacker dice, one line per attacker strength, for one defender."""
    import matplotlib.pyplot as plt

    odds = odds.drop_duplicates(combat.MATCHUP)
    panel = odds[(odds["defender_strength"] == defender_strength) & (odds["defender_dice"] == defender_dice)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for sa, line in panel.groupby("attacker_strength"):
        ax.plot(line["attacker_dice"], line["p_attacker_wins"], marker="o", markersize=3, label=f"strength {sa}")
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_ylim(0, 1)
    ax.set_xlabel("attacker dice")
    ax.set_ylabel("P(attacker wins)")
    ax.set_title(f"Against a defender of strength {defender_strength} with {defender_dice} dice")
    ax.legend(title="attacker", fontsize=8)
    fig.tight_layout()
    return fig


def reference_defender(odds: pd.DataFrame) -> tuple[int, int]:
    """The defender the dice curve is drawn for: weakest strength, median dice in the table."""
    dice = sorted(odds["defender_dice"].unique())
    return int(odds["defender_strength"].min()), int(dice[len(dice) // 2])


def figures(tables: dict[str, pd.DataFrame], rules: Rules, args: Mapping[str, Any]) -> dict[str, Any]:
    odds = tables["odds"]
    if odds["p_attacker_wins"].notna().sum() == 0:
        return {}
    return {"heatmaps": heatmap_grid(odds), "dice_curve": dice_curve(odds, *reference_defender(odds))}


def _attacker_wins(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    r = rules.rounds_to_win
    raw = raw.groupby(combat.MATCHUP, sort=False, as_index=False)[combat.count_columns(rules)].sum()
    wins = raw[[f"n_attacker_{r}_{k}" for k in range(r)]].sum(axis=1)
    return raw[combat.MATCHUP].assign(successes=wins, n=raw["n_fights"])


def _round_ties(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    raw = raw.groupby(combat.MATCHUP, sort=False, as_index=False)[["n_tied_rolls", "n_rolls"]].sum()
    return raw[combat.MATCHUP].assign(successes=raw["n_tied_rolls"], n=raw["n_rolls"])


def _clean_wins(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    r = rules.rounds_to_win
    raw = raw.groupby(combat.MATCHUP, sort=False, as_index=False)[combat.count_columns(rules)].sum()
    clean = raw[f"n_attacker_{r}_0"] + raw[f"n_defender_{r}_0"]
    return raw[combat.MATCHUP].assign(successes=clean, n=raw["n_fights"])


def _upsets(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    wins = _attacker_wins(raw, rules, args)
    attacker_under = underdog_is_attacker(wins, rules)
    upsets = np.where(attacker_under, wins["successes"], wins["n"] - wins["successes"])
    return wins.assign(successes=upsets)


STRENGTHS = (1, 2, 3, 4, 5, 6)
DICE = tuple(range(31))
SIDES = ("attacker_strength", "attacker_dice", "defender_strength", "defender_dice")


def check_matchups(args: Mapping[str, Any]) -> None:
    """At most MAX_MATCHUPS matchups, checked before any is made: the odds table holds a row for each."""
    count = math.prod(len(args[name]) for name in SIDES)
    if count > MAX_MATCHUPS:
        longest = max(SIDES, key=lambda name: len(args[name]))
        raise ArgumentError(longest, f"argument {longest!r}: {count:,} matchups (the product of the attacker's and "
                            f"defender's strengths and dice); at most {MAX_MATCHUPS:,}: give fewer values")

COMBAT = Analysis(
    name="combat",
    summary="odds of every matchup (strength and dice on both sides), exact and/or Monte Carlo",
    params=(
        Param("attacker_strength", STRENGTHS, "attacker strengths (1 = no strength die)", low=1, high=20, item=int),
        Param("attacker_dice", DICE, "attacker dice counts", low=0, high=200, item=int),
        Param("defender_strength", STRENGTHS, "defender strengths (1 = no strength die)", low=1, high=20, item=int),
        Param("defender_dice", DICE, "defender dice counts", low=0, high=200, item=int),
        Param("method", "exact", "exact odds, Monte Carlo ('mc') or both", choices=METHODS),
        Param("fights", 10_000, "simulated fights per matchup (methods mc and both)", low=1, high=10**9),
    ),
    run=run,
    tables=odds_tables,
    figures=figures,
    trials="fights",
    trial_unit="fights",
    chunk_size=100_000,
    quick_trials=2_000,
    count=lambda args: 0 if args["method"] == "exact" else args["fights"],
    metrics={
        "p_attacker_wins": Metric(
            "proportion", tuple(combat.MATCHUP), _attacker_wins, "share of fights the attacker wins"
        ),
        "p_round_tie": Metric("proportion", tuple(combat.MATCHUP), _round_ties, "share of rolls with equal hits"),
        "p_upset": Metric(
            "proportion", tuple(combat.MATCHUP), _upsets,
            "share of fights won by the side less likely to win a single round",
        ),
        "p_clean_win": Metric(
            "proportion", tuple(combat.MATCHUP), _clean_wins, "share of fights won without losing a round (2:0)"
        ),
    },
    headline="p_attacker_wins",
    validate=check_matchups,
    outputs=lambda args: (("odds", "summary"), ("heatmaps", "dice_curve")),
)
