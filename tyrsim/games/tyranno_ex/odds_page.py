"""The live combat odds calculator: one self-contained HTML page (no server, no network, no outside file).

A player picks both sides' strengths and dice and the tie rule, and reads P(attacker wins),
the R:k split both ways, the chance of a tied roll and the expected number of rolls. The
selection lives in the address fragment (`odds.html#as=3&ad=2&ds=1&dd=7&tie=reroll`), read on
load and rewritten on every change, so a link shares a matchup.

What is embedded. Every number on the page follows from each side's hit distribution in one
roll, Binomial(dice, strength / faces), by the formulas of `combat.py`: one roll's chances
(attacker ahead, defender ahead, tie) are sums over the two distributions, the tie rule turns
them into the chance to win a counting round, and the fight is a race to `rounds_to_win`. So
the page embeds the hit distributions — for every strength and 0 to the rules' most dice,
computed by scipy as `combat` does, as little-endian float64 in base64 (about 32 kB for the
rulebook's 6 strengths and 30 dice) — and its script repeats those few formulas, rather than
embedding 34,596 matchups x 3 tie rules of finished odds (megabytes). The figures equal
`combat.odds` to rounding in the last bits of a double (the browser tests compare every
matchup); the page shows them rounded to 0.1%.

The page is the template `templates/odds.html` on the report pages' `base.html`, its script
`templates/odds.js`; this module fills it with the rules in words and the hit distributions.
"""

from __future__ import annotations

import base64

import numpy as np

import tyrsim
from tyrsim.core.report.render import render
from tyrsim.games.tyranno_ex.combat import FightRules
from tyrsim.games.tyranno_ex.combat_words import TIE_WORDS, dice_words, rounds_words
from tyrsim.games.tyranno_ex.rules import TIE_RULES, Rules

PAGE_FILE = "odds.html"
TITLE = "Tyranno Ex combat odds"
MOST_DICE = 60  # dice a side may roll on the page: twice the box's 30, so the page stays small under any rules
DEFAULT_SELECTION = {"as": 3, "ad": 2, "ds": 1, "dd": 7}  # the rulebook's example fight


def page_dice(rules: Rules | FightRules) -> int:
    """The most dice a side may roll on the page: the rules' most dice, up to MOST_DICE."""
    return min(rules.max_dice, MOST_DICE)


def hit_distributions(rules: Rules | FightRules) -> np.ndarray:
    """P(h hits) for every strength 1..max_strength and dice 0..page_dice, in that nested order, h = 0..dice.

    The same scipy binomial, at the same chance min(strength, faces) / faces, as `combat`'s table.
    """
    from scipy import stats  # here, not at the top: see tyrsim.core.stats.intervals

    most = page_dice(rules)
    parts = []
    for strength in range(1, rules.max_strength + 1):
        chance = min(strength, rules.die_faces) / rules.die_faces
        for dice in range(most + 1):
            parts.append(stats.binom.pmf(np.arange(dice + 1), dice, chance))
    return np.concatenate(parts).astype("<f8")


def config(rules: Rules | FightRules) -> dict:
    """Everything the page's script reads: the rules, the words for them, and the hit distributions."""
    rules = FightRules.of(rules)
    return {
        "faces": rules.die_faces,
        "rounds": rules.rounds_to_win,
        "strengths": rules.max_strength,
        "maxDice": page_dice(rules),
        "tieRules": list(TIE_RULES),
        "tieDefault": rules.tie_rule,
        "rulebookTie": Rules().tie_rule,
        "tieWords": TIE_WORDS,
        "default": {**{k: min(v, rules.max_strength if k[1] == "s" else page_dice(rules))
                       for k, v in DEFAULT_SELECTION.items()}, "tie": rules.tie_rule},
        "pmf": base64.b64encode(hit_distributions(rules).tobytes()).decode("ascii"),
    }


def odds_page(rules: Rules | FightRules) -> str:
    """The calculator page for `rules` (its tie rule is the page's default; the other two are a click away), from
    the template `templates/odds.html`."""
    rules = FightRules.of(rules)
    about = f"{rounds_words(rules)}. {dice_words(rules)}."
    if rules.max_dice > MOST_DICE:
        about += f" This page covers up to {MOST_DICE} dice per side."
    return render("odds.html", templates_of=__package__, title=TITLE, about=about, version=tyrsim.__version__,
                  config=config(rules))


def page_files(rules: Rules | FightRules) -> dict[str, bytes]:
    """{"odds.html": the page} for `rules`."""
    return {PAGE_FILE: odds_page(rules).encode("utf-8")}

