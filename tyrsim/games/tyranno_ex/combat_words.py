"""Tyranno Ex combat in words: the fight rules as the cheat sheet and the calculator name them, and the
findings and glossary a combat report page opens with."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.report import words
from tyrsim.core.report.findings import MAX_POINTS, points_of
from tyrsim.core.report.words import row_percent
from tyrsim.games.tyranno_ex.combat import FightRules
from tyrsim.games.tyranno_ex.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

TIE_WORDS = {
    "reroll": "a tied roll doesn't count and is rolled again",
    "attacker": "a tied roll is won by the attacker",
    "defender": "a tied roll is won by the defender",
}


def tie_words(tie_rule: str) -> str:
    """The tie rule in words, marked where it is the rulebook's."""
    rulebook = " (rulebook)" if tie_rule == Rules().tie_rule else ""
    return TIE_WORDS[tie_rule] + rulebook


def rounds_words(rules: Rules | FightRules) -> str:
    """How a fight ends, in words."""
    r = rules.rounds_to_win
    return f"The first side to win {r} round{'s' if r > 1 else ''} wins the fight"


def dice_words(rules: Rules | FightRules) -> str:
    """The dice and strengths, in words."""
    return f"{rules.die_faces}-sided dice: a die hits when it shows at most the card's strength (1 = no strength die)"


# --- the findings a combat report page opens with ---------------------------------------

TIE_SHORT = {"reroll": "ties rerolled", "attacker": "ties won by the attacker", "defender": "ties won by the defender"}
ENDLESS = ("neither side has dice, or both hit with every die and roll as many dice, and tied rolls are "
           "rolled again")


def combat_findings(tables: dict[str, pd.DataFrame], rules: Rules | FightRules,
                    args: Mapping[str, Any]) -> list[str]:
    """How often the attacker wins, how often the underdog does, how long fights last; fights that never end;
    whether the simulation agrees with the exact odds. A sweep's points (the first few) share the sentences,
    one figure per point, so they fit beside the comparison's."""
    summary = tables.get("summary")
    if summary is None or not len(summary):
        return []
    points = list(points_of(summary, "method"))
    chosen = [(prefix, row) for prefix, rows in points[:MAX_POINTS] if (row := _preferred(rows)) is not None]
    out = []
    if len(points) == 1 and chosen:
        out += [_attacker_sentence(chosen[0][1], rules), _underdog_sentence(chosen[0][1])]
    elif chosen:
        out += _sweep_sentences(chosen, len(points))
    endless = [(prefix, int(rows["endless"].max()), int(rows["matchups"].max() + rows["endless"].max()))
               for prefix, rows in points if rows["endless"].max() > 0]
    if endless:
        k, n = max(k for _, k, _ in endless), max(n for _, _, n in endless)
        same = len({(k, n) for _, k, n in endless}) == 1
        counts = f"{'' if same else 'Up to '}{k:,} of the {n:,} matchups"
        where = "" if len(endless) == len(points) else " " + " or ".join(_point(prefix) for prefix, _, _ in endless)
        out.append(f"{counts} can never end{where} ({ENDLESS}); they are left out of these averages.")
    odds = tables.get("odds")
    if odds is not None and {"exact", "mc"} <= set(odds["method"].unique()):
        out.append(_agreement(odds))
    return out[:5]


def _preferred(rows: pd.DataFrame) -> pd.Series | None:
    """The point's exact row if it has one (exact numbers need no interval), else its simulated row."""
    rows = rows[rows["matchups"] > 0]
    if not len(rows):
        return None
    exact = rows[rows["method"] == "exact"]
    return (exact if len(exact) else rows).iloc[0]


def _rolls(row: pd.Series) -> str:
    return words.number(row["mean_expected_rolls"], digits=2)


def _point(prefix: str) -> str:
    """A sweep point's prefix ("With 'defender' for a round with equal hits: ") inside a sentence: "with 'defender'
    for a round with equal hits"."""
    return prefix.rstrip(": ").replace("With ", "with ", 1)


def _how(rows: list[pd.Series]) -> str:
    return "exact odds" if all(row["method"] == "exact" for row in rows) else "simulated"


def _attacker_sentence(row: pd.Series, rules: Rules | FightRules) -> str:
    rulebook = " (the rulebook's)" if (rules.tie_rule, rules.rounds_to_win) == (Rules().tie_rule,
                                                                                Rules().rounds_to_win) else ""
    sentence = (f"With {TIE_SHORT[rules.tie_rule]} and {rules.rounds_to_win} won rounds to win{rulebook}, the "
                f"attacker wins {row_percent(row, 'mean_p_attacker_wins', own=True)} of fights ({_how([row])}) "
                f"on average over the "
                f"{int(row['matchups']):,} matchups that can end")
    if row["method"] == "exact":
        favoured = int(row["attacker_favoured"])
        sentence += f", and is the favourite in {favoured:,} ({words.percent(favoured / row['matchups'])})"
    return sentence + "."


def _underdog_sentence(row: pd.Series) -> str:
    sentence = (f"The underdog, the side less likely to win a single round, still wins "
                f"{row_percent(row, 'mean_p_upset', own=True)} of its fights on average")
    if row["method"] == "exact":
        sentence += (f"; a fight takes {_rolls(row)} rolls on average, and "
                     f"{words.percent(row['mean_p_round_tie'])} of rolls are tied")
    return sentence + "."


def _sweep_sentences(chosen: list[tuple[str, pd.Series]], total: int) -> list[str]:
    """The attacker's mean chance per point, then the underdog's (and, exactly, the fight length) per point."""
    rows = [row for _, row in chosen]
    counts = {int(row["matchups"]) for row in rows}
    over = f"the {counts.pop():,} matchups" if len(counts) == 1 else "the matchups"
    shown = "" if total == len(chosen) else f"; the first {len(chosen)} of {total} points"
    attacker = words.listing([f"{row_percent(row, 'mean_p_attacker_wins', own=True)}{' of fights' if i == 0 else ''} "
                              f"{_point(prefix)}" for i, (prefix, row) in enumerate(chosen)])
    underdog = words.listing([row_percent(row, "mean_p_upset", own=True) for row in rows])
    sentence = (f"The underdog, the side less likely to win a single round, still wins {underdog} of its fights "
                "(in the same order)")
    if _how(rows) == "exact odds":
        sentence += f", and a fight takes {words.listing([_rolls(row) for row in rows])} rolls"
    return [f"On average over {over} that can end, the attacker wins {attacker} ({_how(rows)}{shown}).",
            sentence + "."]


def _agreement(odds: pd.DataFrame) -> str:
    """How often the exact chance lies inside the simulation's 95% interval, and the largest gap."""
    keys = [c for c in odds.columns[: list(odds.columns).index("method")]]
    exact = odds[(odds["method"] == "exact") & odds["decisive"].astype(bool)].set_index(keys)["p_attacker_wins"]
    mc = odds[(odds["method"] == "mc") & odds["decisive"].astype(bool)].set_index(keys)
    both = mc.join(exact.rename("exact"), how="inner")
    inside = int(((both["ci_low"] <= both["exact"]) & (both["exact"] <= both["ci_high"])).sum())
    gap = float((both["p_attacker_wins"] - both["exact"]).abs().max()) if len(both) else np.nan
    return (f"The simulation agrees with the exact odds: the exact chance lies inside the simulation's 95% "
            f"interval in {inside:,} of the {len(both):,} matchups ({words.percent(inside / len(both))}; about 95% "
            f"expected), and the largest gap is {words.points(gap, digits=2)}.") if len(both) else \
        "No matchup has both an exact and a simulated chance to compare."


def _outcome_glossary() -> dict[str, str]:
    out = {}
    most = next(f for f in dataclasses.fields(Rules) if f.name == "rounds_to_win").metadata["high"]
    for r in range(1, most + 1):
        for k in range(r):
            end = "eliminated" if k == 0 else "turned face down"
            out[f"p_attacker_{r}_{k}"] = (f"chance that the attacker wins the fight {r}:{k} (the defender won "
                                          f"{words.count(k, 'round')}; it is {end})")
            out[f"p_defender_{r}_{k}"] = f"chance that the defender wins the fight {r}:{k} (the attacker is {end})"
    return out


COMBAT_GLOSSARY = {
    "attacker_strength": "the attacking card's strength: its strength die's value, 1 without a die; a die hits "
                         "when it shows at most the strength",
    "attacker_dice": "dice the attacker rolls (in the game: its current chips matching the card's symbols)",
    "defender_strength": "the defending card's strength: its strength die's value, 1 without a die",
    "defender_dice": "dice the defender rolls",
    "method": "exact: computed from the dice's binomial distributions; mc: simulated fights (Monte Carlo)",
    **_outcome_glossary(),
    "p_attacker_wins": "chance that the attacker wins the fight (its R:k columns added up)",
    "p_round_tie": "chance that a roll gives both sides as many hits (rerolled under the rulebook's tie rule, "
                   "won by one side under a variant)",
    "expected_rolls": "mean number of rolls a fight takes, tied rolls included",
    "decisive": "no for a fight that can never end: neither side has dice, or both have strength 6 (every die a "
                "hit) and as many dice, while tied rolls are rerolled. The full table (strengths 1-6, 0-30 dice) "
                "has 66 of them (36 without dice, 30 at strength 6); they have no outcome chances, and the "
                "summary leaves them out",
    "n_fights": "fights simulated for the matchup (0 for one that can never end)",
    "ci_low": "lower end of the 95% Wilson interval of the simulated P(attacker wins)",
    "ci_high": "upper end of the 95% Wilson interval of the simulated P(attacker wins)",
    "matchups": "matchups that can end, which the means are taken over (the 66 that can never end in the full "
                "table are left out)",
    "mean_p_attacker_wins": "the attacker's chance to win, averaged over the matchups that can end; a simulated "
                            "mean comes with its 95% interval",
    "attacker_favoured": "matchups in which the attacker's chance to win is above 50%",
    "mean_p_upset": "the underdog's chance to win the fight, averaged over the matchups that have an underdog: "
                    "the underdog is the side less likely to win a single counting round, so this is how often "
                    "the weaker side still wins (matchups with even rounds are left out); a simulated mean comes "
                    "with its 95% interval",
    "mean_p_round_tie": "chance of a tied roll, averaged over the matchups that can end",
    "mean_expected_rolls": "rolls a fight takes, averaged over the matchups that can end",
    "endless": "matchups in the table that can never end (left out of the means)",
}
