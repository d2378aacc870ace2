"""What the Tyranno Ex `game` analysis's own tables say, in sentences that open its report page.

The core writes who wins, whether the seats are fair, and how long a game lasts; these
sentences add where the points come from (and what a card is worth by the row it entered),
how fights go and how cards fare against the environment, and who wins the fights they
start, in that order: a page keeps only its first few sentences. Each number carries its
interval, written through `tyrsim.core.report.words`; for a sweep each point gets its own
sentences ("With tie rule = defender: ..."), as the core's findings do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tyrsim.core.report import words
from tyrsim.core.report.findings import MAX_POINTS, points_by_name
from tyrsim.core.report.words import listing, row_percent
from tyrsim.core.stats import intervals as stats

if TYPE_CHECKING:
    import pandas as pd

# what the columns of the game analysis's Tyranno Ex tables mean (the core explains its own); an interval's
# `*_low` / `*_high` columns share the cell of the estimate before them on the page
GLOSSARY = {
    "source": "where points come from: rows (a grid card scores its row's number), empty (1 per empty space in "
              "its row), special (a special space's printed value: 13, 10, 7), five (an unused \"5\" marker at the "
              "end); total is the final score",
    "mean": "mean per game (per seat where the row names a policy), with its 95% t interval; a row named "
            "\"share of ...\" holds a share with its Wilson interval",
    "n": "how many games, seats, fights or survival checks the row's figure comes from",
    "entry_row": "the row a card was placed in: 0, or 3 (the second card of the first round and after a double "
                 "shift)",
    "cards": "cards placed in that row, over every game",
    "mean_points": "points a card scores from its placement until it leaves the game, with its 95% t interval "
                   "(the cards of one game are not independent, so the interval is somewhat narrow)",
    "place": "where a card stood when its survival was checked: row 0, 3, 6 or 9 of the grid, or a special space",
    "checked": "survival checks: one per card on the board at the end of each environmental change",
    "survived": "share of the checks a card passed (one of its symbols among the current conditions), with its "
                "Wilson interval; checks of one game are not independent, so the interval is somewhat narrow",
    "distinct_symbols": "how many different symbols a card shows (1 to 3; the bundled deck has no card with 1)",
    "quantity": "what the row measures: fights per game by outcome (clean: won 2:0, the loser eliminated; close: "
                "won 2:1, the loser face down; endless: can never end; track tie fights: equally strong cards "
                "leaving row 9 fighting for the order), changes of the current conditions, rapid changes "
                "(cascades), ties for the most chips on a space, the longest cascade",
    "rounds": "game length in rounds (one row per length seen, then the mean)",
    "share": "share of games of that length, with its Wilson interval; in the mean row, the mean length with its "
             "t interval",
    "used": "share of seats that gave up the \"5\" marker for 2 extra chips, with its Wilson interval",
    "round_used": "the game round the marker was given up in, on average, with its t interval",
    "games": "games behind the row: a seat's games, or a policy's (one per seat it held in a game)",
}

SOURCE_WORDS = {"rows": "from the rows its cards stand in", "special": "on the special spaces",
                "empty": "for empty spaces", "five": "from an unused \"5\" marker"}  # fmt: skip
SYMBOL_WORDS = {3: "three different symbols", 2: "two different symbols", 1: "a single symbol"}


def _apart(first: pd.Series, second: pd.Series, low: str = "ci_low", high: str = "ci_high") -> bool:
    """The two rows' intervals do not overlap."""
    return bool(first[low] > second[high] or second[low] > first[high])


def _mean(row: pd.Series, column: str = "mean") -> str:
    return words.number(row[column], row["ci_low"], row["ci_high"])


def leader(by_policy: pd.DataFrame | None) -> str | None:
    """The policy with the highest win rate (the first by name on a tie); None without the table."""
    if by_policy is None or not len(by_policy):
        return None
    return str(by_policy.sort_values(["win_rate", "policy"], ascending=[False, True]).iloc[0]["policy"])


def points_sentence(points: pd.DataFrame, worth: pd.DataFrame | None, lead: str, several: bool) -> str | None:
    """Where the leading policy's points come from, largest source first, and what a card is worth by its row."""
    rows = points[points["policy"].astype(str) == lead].set_index("source")
    if "total" not in rows.index:
        return None
    who = f"{lead}, the policy with the most wins," if several else lead
    sources = sorted((s for s in SOURCE_WORDS if s in rows.index and rows.loc[s, "mean"] > 0),
                     key=lambda s: -rows.loc[s, "mean"])  # fmt: skip
    parts = [f"{_mean(rows.loc[s])} {SOURCE_WORDS[s]}" for s in sources]
    sentence = f"{who} scores {_mean(rows.loc['total'])} points a game" + (f": {listing(parts)}" if parts else "")
    cards = None if worth is None else worth[(worth["policy"].astype(str) == lead) & (worth["cards"] > 0)]
    if cards is not None and set(cards["entry_row"]) >= {0, 3}:
        row0 = cards[cards["entry_row"] == 0].iloc[0].rename({"mean_points": "mean"})
        row3 = cards[cards["entry_row"] == 3].iloc[0].rename({"mean_points": "mean"})
        if not _apart(row3, row0):
            verdict = "the two cannot be told apart (their intervals overlap)"
        else:
            verdict = f"a card placed in row {3 if row3['mean'] > row0['mean'] else 0} is worth more"
        sentence += (f"; a card it places in row 3 scores {_mean(row3)} points over the game, one in row 0 "
                     f"{_mean(row0)}: {verdict}")  # fmt: skip
    return sentence + "."


def _pooled_survival(by_symbols: pd.DataFrame) -> pd.DataFrame:
    """Survival checks passed per number of distinct symbols, every policy's checks together (Wilson)."""
    table = by_symbols.assign(distinct=by_symbols["distinct_symbols"].astype(int),
                              passed=(by_symbols["survived"].fillna(0) * by_symbols["checked"]).round())
    total = table.groupby("distinct")[["checked", "passed"]].sum()
    total = total[total["checked"] > 0]
    low, high = stats.wilson_interval(total["passed"], total["checked"])
    return total.assign(survived=total["passed"] / total["checked"], ci_low=low, ci_high=high)


def _survival(by_symbols: pd.DataFrame) -> str | None:
    """ "cards with three different symbols pass 97.3% [..] of their survival checks, cards with two ...: ..." """
    pooled = _pooled_survival(by_symbols)
    if not len(pooled):
        return None
    (first, row), *others = pooled.sort_index(ascending=False).iterrows()  # most different symbols first
    said = f"cards with {SYMBOL_WORDS[first]} pass {row_percent(row, 'survived')} of their survival checks"
    said += "".join(f", cards with {SYMBOL_WORDS[k]} {row_percent(other, 'survived')}" for k, other in others)
    if others:  # the two with the most different symbols
        second, other = others[0]
        if not _apart(row, other):
            return said + ": the two cannot be told apart"
        safer = first if row["survived"] > other["survived"] else second
        said += f": a card with {SYMBOL_WORDS[safer]} survives more often"
    return said


def play_sentence(fights: pd.DataFrame | None, by_symbols: pd.DataFrame | None,
                  cascades: pd.DataFrame | None) -> str | None:
    """How many fights a game has and how many end 2:0, how many rapid changes, and how cards fare in the
    survival checks by their distinct symbols."""
    parts = []
    every = None if fights is None else fights[fights["policy"].astype(str) == "all"].set_index("quantity")
    changes = None if cascades is None else cascades.set_index("quantity")
    if every is not None and "fights per game" in every.index:
        said = f"a game has {_mean(every.loc['fights per game'])} fights"
        clean = "share of decided fights won 2:0"
        if clean in every.index and every.loc[clean, "n"] > 0:
            said += f" ({row_percent(every.loc[clean], 'mean')} of the decided ones end 2:0, the loser eliminated)"
        if changes is not None and "cascades per game" in changes.index:
            said += f" and {_mean(changes.loc['cascades per game'])} rapid changes of the environment"
        parts.append(said)
    survival = None if by_symbols is None or not len(by_symbols) else _survival(by_symbols)
    if survival:
        parts.append(survival)
    if not parts:
        return None
    sentence = "; ".join(parts)
    return sentence[0].upper() + sentence[1:] + "."


def attackers_sentence(fights: pd.DataFrame) -> str | None:
    """Which policy wins the fights it starts most often, and which least."""
    won = fights[(fights["policy"].astype(str) != "all") & (fights["quantity"] == "share of started fights won")]
    won = won[won["n"] > 0].sort_values(["mean", "policy"], ascending=[False, True])
    if len(won) == 1:
        return f"Attackers win {row_percent(won.iloc[0], 'mean')} of the fights they start."
    if len(won) > 1:
        best, worst = won.iloc[0], won.iloc[-1]
        if _apart(best, worst):
            return (f"{best['policy']} wins the most of the fights it starts, {row_percent(best, 'mean')}, "
                    f"{worst['policy']} the fewest, {row_percent(worst, 'mean')}.")  # fmt: skip
        return (f"The policies win the fights they start about equally often, from {row_percent(worst, 'mean')} "
                f"({worst['policy']}) to {row_percent(best, 'mean')} ({best['policy']}): they cannot be told apart.")
    return None


def game_findings(tables: Mapping[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """Up to three sentences per point, the most telling first (the report keeps the first few of a page's):
    where the points come from, how fights and the environment go, who wins the fights they start."""
    by_policy = points_by_name(tables, "by_policy", "policy")
    points = points_by_name(tables, "points_by_source", "policy")
    worth = points_by_name(tables, "card_worth", "policy")
    fights = points_by_name(tables, "fights", "policy")
    symbols = points_by_name(tables, "survival_by_symbols", "policy")
    cascades = points_by_name(tables, "cascades", "quantity")
    out = []
    for prefix in list(points or fights or symbols)[:MAX_POINTS]:
        lead = leader(by_policy.get(prefix))
        sentences = [
            points_sentence(points[prefix], worth.get(prefix), lead, by_policy[prefix]["policy"].nunique() > 1)
            if lead is not None and prefix in points else None,  # a leader comes with its by_policy rows
            play_sentence(fights.get(prefix), symbols.get(prefix), cascades.get(prefix)),
            attackers_sentence(fights[prefix]) if prefix in fights else None,
        ]
        out += [prefix + s if prefix else s for s in sentences if s]
    return out
