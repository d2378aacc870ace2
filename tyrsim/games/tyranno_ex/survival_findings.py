"""The findings and glossary a Tyranno Ex `survival` report page opens with.

Which symbol pattern survives an environment phase, and how much the chips laid change that
(the kernel), or how often cards pass their survival checks in games and which policy keeps
its cards best (games). Every share carries its 95% interval.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.report import words
from tyrsim.core.report.findings import MAX_POINTS, points_of
from tyrsim.core.report.words import row_percent
from tyrsim.core.stats import intervals as stats

if TYPE_CHECKING:
    import pandas as pd

PATTERN_WORDS = {"abc": "three different symbols", "aab": "a doubled symbol", "aaa": "one symbol three times"}


def survival_findings(tables: dict[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """Sentences for the kernel's `survival` table or the games' `survival_in_play` table."""
    if tables.get("survival") is not None and len(tables["survival"]):
        return _kernel_findings(tables["survival"])
    if tables.get("survival_in_play") is not None and len(tables["survival_in_play"]):
        return _games_findings(tables["survival_in_play"])
    return []


def _patterns(rows: pd.DataFrame) -> list[pd.Series]:
    """The rows of the patterns in the order of PATTERN_WORDS (most distinct symbols first)."""
    by_pattern = rows.set_index("pattern")
    return [by_pattern.loc[p] for p in PATTERN_WORDS if p in by_pattern.index]


def _list(rows: list[pd.Series]) -> str:
    """ "99.5% [99.4, 99.6] with three different symbols, 93.8% [...] with a doubled symbol and ..." """
    return words.listing([f"{row_percent(row, 'survival', own=True)} with {PATTERN_WORDS[row.name]}" for row in rows])


def _where(chips: int) -> str:
    return "on a fresh environment card (no chips laid)" if chips == 0 else f"after {chips} chips laid at random"


def _kernel_findings(table: pd.DataFrame) -> list[str]:
    points = list(points_of(table, "chips"))
    out, moved = [], []
    for prefix, rows in points[:MAX_POINTS]:
        first, last = int(rows["chips"].min()), int(rows["chips"].max())
        start, end = _patterns(rows[rows["chips"] == first]), _patterns(rows[rows["chips"] == last])
        sentence = f"{prefix}{_where(first)}, a card survives an environment phase {_list(start)}"
        if last != first:
            sentence += f"; {_where(last)}, {words.listing([row_percent(row, 'survival', own=True) for row in end])}"
            moved += [(prefix, a.name) for a, b in zip(start, end, strict=True)
                      if a["survival_high"] < b["survival_low"] or b["survival_high"] < a["survival_low"]]
        out.append(sentence[0].upper() + sentence[1:] + ".")
    if any(rows["chips"].nunique() > 1 for _, rows in points[:MAX_POINTS]):
        if not moved:
            out.append("Laying chips at random does not measurably change these chances (the intervals overlap): "
                       "the mix of conditions stays random.")
        else:
            out.append("Laying chips at random changes the chance for " + words.listing([
                PATTERN_WORDS[pattern] + (" " + prefix.rstrip(": ").replace("With", "with", 1) if prefix else "")
                for prefix, pattern in moved]) + " (the intervals are apart).")
    out.append(_dice(*points[0]))
    return out[:5]


def _dice(prefix: str, rows: pd.DataFrame) -> str:
    """How many dice a card would fight with, from the fewest chips laid to the most (at one sweep point)."""
    def dice(chips: int) -> str:
        at = rows[rows["chips"] == chips]
        if np.allclose(at["mean_dice"], at["mean_dice"].iloc[0]):  # every pattern alike (it is, by symmetry)
            return _dice_number(at.iloc[0])
        return ", ".join(f"{_dice_number(row)} ({PATTERN_WORDS.get(row['pattern'], row['pattern'])})"
                         for _, row in at.iterrows())

    first, last = int(rows["chips"].min()), int(rows["chips"].max())
    same = all(np.allclose(g["mean_dice"], g["mean_dice"].iloc[0]) for _, g in rows.groupby("chips"))
    who = "whatever its symbol pattern, a card" if same else "a card"
    sentence = f"{prefix}{who} would fight with {dice(first)} dice on average {_where(first)}"
    if last != first:
        sentence += f" and {dice(last)} {_where(last)}"
    return sentence[0].upper() + sentence[1:] + "."


def _dice_number(row: pd.Series) -> str:
    """Mean dice with its interval; none where every trial had the same dice (at set-up: one chip per space)."""
    low, high = row["mean_dice_low"], row["mean_dice_high"]
    return words.number(row["mean_dice"], *((low, high) if high > low else (None, None)), digits=2)


def _games_findings(table: pd.DataFrame) -> list[str]:
    points = list(points_of(table, "policy"))
    out = []
    for prefix, rows in points[:MAX_POINTS]:
        pooled = rows.groupby("pattern")[["checked", "survived"]].sum()
        pooled = pooled[pooled["checked"] > 0]
        if not len(pooled):
            continue
        pooled["survival_low"], pooled["survival_high"] = stats.wilson_interval(pooled["survived"], pooled["checked"])
        pooled["survival"] = pooled["survived"] / pooled["checked"]
        present = [pooled.loc[p] for p in PATTERN_WORDS if p in pooled.index]
        missing = [PATTERN_WORDS[p] for p in PATTERN_WORDS if p not in pooled.index]
        sentence = f"{prefix}in play, cards pass their survival checks {_list(present)}"
        if missing:
            sentence += f" (no card with {' or '.join(missing)} was checked: the deck may have none)"
        out.append(sentence[0].upper() + sentence[1:] + ".")
        out.append(_best_policy(prefix, rows))
    return [s for s in out if s][:5]


def _best_policy(prefix: str, rows: pd.DataFrame) -> str:
    """Which policy keeps its cards best, over all patterns; "cannot be told apart" when the intervals overlap."""
    by_policy = rows.groupby("policy")[["checked", "survived"]].sum()
    by_policy = by_policy[by_policy["checked"] > 0]
    if len(by_policy) < 2:
        return ""
    by_policy["share"] = by_policy["survived"] / by_policy["checked"]
    by_policy["low"], by_policy["high"] = stats.wilson_interval(by_policy["survived"], by_policy["checked"])
    ranked = by_policy.sort_values("share", ascending=False)
    best, worst = ranked.iloc[0], ranked.iloc[-1]
    shares = (f"the {ranked.index[0]} policy's cards pass {words.percent(best['share'], best['low'], best['high'])} "
              f"of their checks, the {ranked.index[-1]} policy's "
              f"{words.percent(worst['share'], worst['low'], worst['high'])}")
    if best["low"] > ranked.iloc[1]["high"]:
        lead = f"the {ranked.index[0]} policy keeps its cards best"
    else:
        lead = (f"no policy keeps its cards measurably best ({ranked.index[0]} and {ranked.index[1]} "
                "cannot be told apart: their intervals overlap)")
    sentence = f"{prefix}{lead}: {shares}."
    return sentence[0].upper() + sentence[1:]


SURVIVAL_GLOSSARY = {
    "chips": "chips laid at random (each of a random symbol, on a random space) on a fresh environment card",
    "pattern": "the card's symbol pattern: abc three different symbols, aab a doubled symbol, aaa one symbol "
               "three times",
    "n": "environment cards simulated",
    "distinct_symbols": "how many different symbols the card shows",
    "survival": "chance that the card survives the environment phase (at least one of its symbols among the "
                "current conditions), averaged over every way to give the pattern's letters symbols, with a 95% "
                "interval (survival_low, survival_high); in games, the share of survival checks passed",
    "mean_dice": "dice the card would fight with: the current chips matching its symbols, a repeated symbol "
                 "counted each time, with a 95% t interval",
    "policy": "the policy whose cards were checked",
    "checked": "survival checks: one per card on the board and environment phase",
    "survived": "survival checks the card passed",
}
