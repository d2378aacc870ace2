"""The `combat` analysis: odds tables for a set of matchups, exact and/or simulated, with figures."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.engine.analysis import Analysis, ArgumentError, Metric, Param
from tyrsim.core.engine.limits import MAX_MATCHUPS
from tyrsim.core.report.figures import legend_outside, line_style
from tyrsim.core.report.table_text import csv_text, markdown_table
from tyrsim.core.run.output import atomic_folder
from tyrsim.games.tyranno_ex import combat
from tyrsim.games.tyranno_ex.cheat_sheet import CMAP, sheet_files
from tyrsim.games.tyranno_ex.combat_words import COMBAT_GLOSSARY, combat_findings
from tyrsim.games.tyranno_ex.odds_page import page_files
from tyrsim.games.tyranno_ex.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

METHODS = ("exact", "mc", "both")
FIGHT_RULES = {f.name for f in dataclasses.fields(combat.FightRules)}  # the rules a fight reads


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
    import pandas as pd

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
    if not len(table):  # e.g. only matchups that can never end
        return np.zeros(0), np.zeros(0)
    p_a, p_d, p_t = combat.round_probabilities(*(table[c].to_numpy() for c in combat.MATCHUP), rules)
    a, d, _ = combat.counting_round_chances(p_a, p_d, p_t, rules)
    return np.nan_to_num(a), np.nan_to_num(d)


SUMMARY_COLUMNS = [
    "method", "matchups", "mean_p_attacker_wins", "mean_p_attacker_wins_low", "mean_p_attacker_wins_high",
    "attacker_favoured", "mean_p_upset", "mean_p_upset_low", "mean_p_upset_high", "mean_p_round_tie",
    "mean_expected_rolls", "endless",
]


def summary(odds: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """Per method, over the decisive matchups: the attacker's mean chance, how often the underdog wins, how long
    fights last; and how many matchups can never end (left out of the means).

    The underdog is the side less likely to win a single counting round; an upset is the
    underdog winning the fight. Matchups with no underdog (even rounds) are left out of the
    upset rate. Simulated means get a 95% interval from the matchups' own: the matchups are
    simulated independently, so the mean's half-width is sqrt(sum of squared half-widths) / N
    (a normal approximation; each matchup's Wilson half-width stands for 1.96 standard errors,
    and stays above 0 where a matchup's share is 0 or 1). Exact means have no interval.
    """
    import pandas as pd

    rows = []
    for method, part in odds.groupby("method", sort=False):
        endless = int((~part["decisive"].astype(bool)).sum())
        part = part[part["decisive"].astype(bool)]
        wins = part["p_attacker_wins"].to_numpy(dtype=float)
        a, d = _round_chances(part, rules)
        uneven = ~np.isclose(a, d)
        upset = np.where(a < d, wins, 1 - wins)[uneven]
        if method == "mc":
            half = (part["ci_high"].to_numpy(dtype=float) - part["ci_low"].to_numpy(dtype=float)) / 2
            wins_half, upset_half = _mean_half_width(half), _mean_half_width(half[uneven])
        else:
            wins_half = upset_half = np.nan
        rows.append({
            "method": method,
            "matchups": len(part),
            **_mean_interval("mean_p_attacker_wins", wins, wins_half),
            "attacker_favoured": int((wins > 0.5).sum()),
            **_mean_interval("mean_p_upset", upset, upset_half),
            "mean_p_round_tie": _mean(part["p_round_tie"].to_numpy(dtype=float)),
            "mean_expected_rolls": _mean(part["expected_rolls"].to_numpy(dtype=float)),
            "endless": endless,
        })
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def _mean(values: np.ndarray) -> float:
    return float(np.mean(values)) if len(values) else np.nan


def _mean_interval(name: str, values: np.ndarray, half_width: float) -> dict[str, float]:
    """{name: mean, name_low, name_high}: the mean of shares with an interval clipped to [0, 1] (NaN: none)."""
    mean = _mean(values)
    low, high = (np.nan, np.nan) if np.isnan(half_width) else (max(0.0, mean - half_width), min(1.0, mean + half_width))
    return {name: mean, f"{name}_low": low, f"{name}_high": high}


def _mean_half_width(half_widths: np.ndarray) -> float:
    """Half-width of the mean of independent estimates with these half-widths."""
    return float(np.sqrt(np.sum(half_widths**2)) / len(half_widths)) if len(half_widths) else np.nan


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
    cmap = plt.get_cmap(CMAP).with_extremes(bad="white")  # the cheat sheet's colours: a grey print keeps the order
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
    fig.suptitle("P(attacker wins the fight): darker is lower; white: it can never end")
    fig.colorbar(image, ax=axes, shrink=0.8, label="P(attacker wins)")
    return fig


def dice_curve(odds: pd.DataFrame, defender_strength: int, defender_dice: int):
    """P(attacker wins) against attacker dice, one line per attacker strength, for one defender."""
    import matplotlib.pyplot as plt

    odds = odds.drop_duplicates(combat.MATCHUP)
    panel = odds[(odds["defender_strength"] == defender_strength) & (odds["defender_dice"] == defender_dice)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for sa, line in panel.groupby("attacker_strength"):
        ax.plot(line["attacker_dice"], line["p_attacker_wins"], line_style(len(line)), markersize=3,
                label=f"strength {sa}")
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_ylim(0, 1)
    ax.set_xlabel("attacker dice")
    ax.set_ylabel("P(attacker wins)")
    ax.set_title(f"Against a defender of strength {defender_strength} with {defender_dice} dice")
    legend_outside(ax, title="attacker")
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


def player_files(rules: Rules | combat.FightRules) -> dict[str, bytes]:
    """The printable cheat sheet (cheat_sheet.pdf, cheat_sheet.png) and the odds calculator (odds.html).

    Always the whole table under `rules` — every strength, 1-12 dice on the sheet, 0 to the
    rules' most dice in the calculator — never only a page's matchups: a player wants the
    sheet whole, and exact odds for it take a fraction of a second. The files depend on the
    fight rules alone, so pages under the same fight rules share one rendering.
    """
    return dict(_player_files(combat.FightRules.of(rules)))


@functools.lru_cache(maxsize=4)
def _player_files(rules: combat.FightRules) -> tuple[tuple[str, bytes], ...]:
    return tuple({**sheet_files(rules), **page_files(rules)}.items())


def report_files(tables: dict[str, pd.DataFrame], rules: Rules, args: Mapping[str, Any]) -> dict[str, bytes]:
    """The player files for a report page (`rules`: its points'), or none where the page sweeps a fight rule.

    A sweep of a fight rule (rounds to win, the tie rule, the dice) gives each point other odds,
    so no one sheet stands for the page; the report's swept values are the odds table's
    leading columns.
    """
    odds = tables.get("odds")
    swept = set(odds.columns[: list(odds.columns).index("attacker_strength")]) if odds is not None else set()
    return {} if swept & FIGHT_RULES else player_files(rules)


STRENGTHS = (1, 2, 3, 4, 5, 6)
DICE = tuple(range(31))
SIDES = ("attacker_strength", "attacker_dice", "defender_strength", "defender_dice")


def check_matchups(args: Mapping[str, Any]) -> None:
    """At most MAX_MATCHUPS matchups, checked before any is made: the odds table holds a row for each."""
    count = math.prod(len(args[name]) for name in SIDES)
    if count > MAX_MATCHUPS:
        longest = max(SIDES, key=lambda name: len(args[name]))
        raise ArgumentError(longest, f"{count:,} matchups (the product of the attacker's and "
                            f"defender's strengths and dice); at most {MAX_MATCHUPS:,}: give fewer values")



SIMULATED_ONLY = ("fights", "seed")  # what only the Monte Carlo odds use


def check_simulated_only(method: str, given: Collection[str], method_option: str = "method") -> None:
    """Refuse a fight count or a seed given for the exact odds: they simulate no fights, so it would be ignored.

    One rule for `tyrsim combat` (`method_option` "--method") and a scenario's arguments.
    """
    if method != "exact":
        return
    for name in SIMULATED_ONLY:
        if name in given:
            raise ArgumentError(name, f"only the Monte Carlo odds use it ({method_option} mc or "
                                "both); the exact odds simulate no fights")


def _check_given(args: Mapping[str, Any], given: Collection[str]) -> None:
    check_simulated_only(args["method"], given)


def side_values(name: str, spans: Sequence[tuple[int, int]], rules: Rules) -> tuple[int, ...]:
    """The values of one side's strengths or dice given as (low, high) spans, in order without repeats, once
    every span lies within the rules (strength 1 to max_strength, dice 0 to max_dice): checked before a value
    is made, so 1-10000000 is refused without building ten million values."""
    low, high, what = ((1, rules.max_strength, "a strength") if name.endswith("strength")
                       else (0, rules.max_dice, "a number of dice"))
    for lo, hi in spans:
        if lo < low or hi > high:
            bad = lo if lo < low else hi
            raise ArgumentError(name, f"{bad} is out of range; {what} must be from {low} to "
                                f"{high}")
    return tuple(dict.fromkeys(v for lo, hi in spans for v in range(lo, hi + 1)))


Progress = Callable[[int], tuple[Callable[[int], None] | None, Callable[[], None]]]


def odds_command(rules: Rules, options: Mapping[str, Any], seed: int, given: Collection[str],
                 progress: Progress, out: Path | None = None) -> pd.DataFrame:
    """`tyrsim combat`: the odds of every matchup of the given strengths and dice, exact and/or from
    `options["fights"]` simulated fights per matchup (`options["method"]`), the fights drawn from one generator
    seeded `seed`.

    `options` holds the four sides as (low, high) spans (`side_values`), the method and the fight count;
    `given` names the options the user set (a fight count or seed given for the exact odds is refused);
    progress(total fights) -> (update, done). With `out`, the folder also gets odds.csv, odds.md, the
    figures (none where no matchup can end) and the player files (the whole table under `rules`, whatever
    the matchups). Every bad option is an ArgumentError naming it.
    """
    import pandas as pd

    method, fights = options["method"], options["fights"]
    check_simulated_only(method, given, "--method")
    sides = {name: side_values(name, options[name], rules) for name in SIDES}
    check_matchups(sides)
    table = combat.matchups(*sides.values(), rules)
    parts = []
    if method in ("exact", "both"):
        parts.append(combat.odds_table(table, rules))
    if method in ("mc", "both"):
        update, done = progress(len(table) * fights)
        try:
            counts = combat.simulate_counts(table, fights, np.random.default_rng(seed), rules, update)
        finally:
            done()
        parts.append(combat.summarize_counts(counts, rules))
    odds = pd.concat(parts, ignore_index=True)
    if method == "both":
        odds = odds.sort_values(combat.MATCHUP + ["method"], kind="stable", ignore_index=True)
    if out is not None:
        _write_odds_folder(odds, rules, {**sides, "method": method, "fights": fights}, out)
    return odds


def _write_odds_folder(odds: pd.DataFrame, rules: Rules, args: Mapping[str, Any], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    with atomic_folder(out) as folder:
        (folder / "odds.csv").write_text(csv_text(odds))
        (folder / "odds.md").write_text(markdown_table(odds) + "\n")
        for name, fig in figures({"odds": odds}, rules, args).items():
            fig.savefig(folder / f"{name}.png", dpi=110)
        for name, data in player_files(rules).items():
            (folder / name).write_bytes(data)


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
    check_given=_check_given,
    outputs=lambda args: (("odds", "summary"), ("heatmaps", "dice_curve")),
    findings=combat_findings,
    files=report_files,
    player_files={"odds.html": "Combat odds calculator", "cheat_sheet.pdf": "Printable combat odds sheet (PDF)",
                  "cheat_sheet.png": "Printable combat odds sheet (PNG)"},
    glossary=COMBAT_GLOSSARY,
    command=odds_command,
)
