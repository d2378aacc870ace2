"""What the Tyros analyses' own tables say, in the sentences that open their report pages.

`empire_findings` answers the `empire-sizes` page (how big each empire grows, which ends
largest and whether that is balanced, how often Tyros joins an empire, how long a game lasts);
`game_findings` adds to the core's sentences of the `game` page (who wins, the seats, game
length) where the points come from. Each number carries its interval, written through
`tyrsim.core.report.words`; for a sweep each point gets its own sentence, named as the core names it
("With setup = variable, players = 3: ...").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tyrsim.core.report import words
from tyrsim.core.report.findings import MAX_POINTS, points_by_name
from tyrsim.core.report.words import row_percent

if TYPE_CHECKING:
    import pandas as pd

BALANCED = 0.25  # each of the four empires ends largest in a quarter of the games when the set-up is balanced
POINT_SENTENCES = 4  # one sentence per sweep point, up to this many (a page opens with at most five)
SOURCE_WORDS = {"city_points": "cities", "ship_points": "ships", "bonus_points": "bonuses"}

EMPIRE_GLOSSARY = {
    "empire": "one of the four empire colours (orange, yellow, green, violet; equal sizes rank in this order)",
    "mean_size": "mean final size of the empire in spaces (Tyros counted if the rules say so), with its 95% t "
                 "interval (ci_low, ci_high)",
    "size": "a final size in spaces",
    "count": "games that ended with this value",
    "share": "share of games, with its 95% Wilson interval (ci_low, ci_high)",
    "rank": "the empire's size rank at the end: 1 = largest, 4 = smallest (equal sizes rank orange, yellow, green, "
            "violet)",
    "position": "largest or smallest empire at the end",
    "tyros": "which empire's colour Tyros took (the first empire to reach a space next to it), any empire, or none",
    "quantity": "rounds: rounds played; tiles_left: tiles never played (in hands and the pile at the end); "
                "blocked: turns a player could play no tile and cycled one",
    "value": "a number of rounds or tiles left",
    "mean": "mean per game, with its 95% t interval (ci_low, ci_high)",
    "sd": "standard deviation over games",
    "median": "median over games",
    "min": "smallest value seen",
    "max": "largest value seen",
    "games": "games the row's figures come from",
}

GAME_GLOSSARY = {
    "source": "where points come from: city_points (city control: 12/10/9/8 by the empire's size rank), "
              "ship_points (ship control: 6/5/4/3), bonus_points (7 per empire for the most cities there, and the "
              "first-city bonus)",
    "mean_points": "mean points per player and game from the source, with its 95% t interval (ci_low, ci_high)",
    "share_of_points": "the source's share of all the policy's points, with a 95% interval of the ratio "
                       "(share_ci_low, share_ci_high)",
}


def _apart(a: pd.Series, b: pd.Series) -> bool:
    """The two rows' 95% intervals do not overlap."""
    return bool(a["ci_low"] > b["ci_high"] or b["ci_low"] > a["ci_high"])


def _mean(row: pd.Series, column: str = "mean") -> str:
    """A mean with its interval, to at most two decimals (a size or a round count needs no more)."""
    digits = min(2, words.digits_for((row["ci_high"] - row["ci_low"]) / 2))
    return words.number(row[column], row["ci_low"], row["ci_high"], digits=digits)


def _share(row: pd.Series) -> str:
    """A row's share of games with its interval."""
    return row_percent(row, "share")


# ---- empire-sizes -------------------------------------------------------------------
def empire_sentence(prefix: str, sizes: pd.DataFrame, extremes: pd.DataFrame) -> str:
    """How big each empire grows, which ends largest most often, and whether that is balanced."""
    sizes = sizes.sort_values("mean_size", ascending=False)
    grown = words.listing([f"{row['empire']} {_mean(row, 'mean_size')}" for _, row in sizes.iterrows()])
    largest = extremes[extremes["position"] == "largest"].sort_values("share", ascending=False)
    first, second, last = largest.iloc[0], largest.iloc[1], largest.iloc[-1]
    if ((largest["ci_low"] <= BALANCED) & (largest["ci_high"] >= BALANCED)).all():
        verdict = (f"each ends largest about equally often, as a balanced set-up would (25% each): from "
                   f"{last.empire}'s {_share(last)} to {first.empire}'s {_share(first)} of games")
    else:
        lead = (f"{first.empire} ends largest most often, in {_share(first)} of games" if _apart(first, second)
                else f"{first.empire} and {second.empire} end largest most often and cannot be told apart "
                     f"({_share(first)} and {_share(second)} of games)")
        verdict = f"{lead}, {last.empire} least often ({_share(last)}), where a balanced set-up gives 25% each"
    return f"{prefix}Mean final sizes: {grown} spaces; {verdict}."


def _tyros_and_length(tyros: pd.DataFrame, length: pd.DataFrame) -> tuple[pd.Series, pd.Series | None, pd.Series]:
    joins = tyros[tyros["tyros"] == "any empire"].iloc[0]
    colours = tyros[~tyros["tyros"].isin(["any empire", "no empire"])].sort_values("share", ascending=False)
    rounds = length[length["quantity"] == "rounds"].iloc[0]
    return joins, (colours.iloc[0] if len(colours) else None), rounds


def empire_findings(tables: Mapping[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """The `empire-sizes` page: one sentence per point on sizes and the largest empire, then Tyros and length."""
    sizes = points_by_name(tables, "empire_sizes", "empire")
    extremes = points_by_name(tables, "largest_smallest", "empire")
    out = [empire_sentence(prefix, rows, extremes[prefix])
           for prefix, rows in list(sizes.items())[:POINT_SENTENCES] if prefix in extremes]
    tyros, length = points_by_name(tables, "tyros_joins", "tyros"), points_by_name(tables, "game_length", "quantity")
    points = [(p, *_tyros_and_length(tyros[p], length[p])) for p in tyros if p in length]
    if len(points) == 1:
        _, joins, colour, rounds = points[0]
        which = (f", most often the {colour.tyros} one ({_share(colour)})"
                 if colour is not None and colour["share"] > 0 else "")
        out.append(f"Tyros joins an empire in {_share(joins)} of games{which}; a game lasts {_mean(rounds)} rounds.")
    elif points:
        joins = sorted((p[1] for p in points), key=lambda row: row["share"])
        rounds = sorted((p[3] for p in points), key=lambda row: row["mean"])
        out.append(f"Across the points, Tyros joins an empire in {_share(joins[0])} to {_share(joins[-1])} of games, "
                   f"and a game lasts {_mean(rounds[0])} to {_mean(rounds[-1])} rounds.")
    return out


# ---- game -----------------------------------------------------------------------------
def sources_sentence(prefix: str, policy: str, mean: pd.Series, sources: pd.DataFrame,
                     alone: bool = False) -> str | None:
    """Where one policy's points come from: its mean score and each source's share of it (`alone`: the policy
    plays every seat, so the sentence speaks of "a player")."""
    rows = sources[sources["policy"] == policy]
    if not len(rows) or not rows["share_of_points"].notna().any():
        return None
    parts = [f"{words.percent(r.share_of_points, r.share_ci_low, r.share_ci_high)} from {SOURCE_WORDS[r.source]}"
             for r in rows.sort_values("share_of_points", ascending=False).itertuples()]
    total = words.number(mean["mean_score"], mean["score_low"], mean["score_high"])
    return f"{prefix}{'A player' if alone else policy} scores {total} points per game: {words.listing(parts)}."


def difference_sentence(sources: pd.DataFrame) -> str | None:
    """Which source separates the policies most, and whether another cannot tell them apart."""
    if sources["policy"].nunique() < 2:
        return None
    spread = sources.groupby("source", sort=False)["mean_points"].agg(lambda m: m.max() - m.min())
    widest = spread.idxmax()
    rows = sources[sources["source"] == widest].sort_values("mean_points", ascending=False)
    listed = ", ".join(f"{row['policy']} {_mean(row, 'mean_points')}" for _, row in rows.iterrows())
    sentence = f"The policies differ most in points from {SOURCE_WORDS[widest]}: {listed}"
    for source in spread.index:
        ranked = sources[sources["source"] == source].sort_values("mean_points", ascending=False)
        top, bottom = ranked.iloc[0], ranked.iloc[-1]
        if source != widest and not _apart(top, bottom):
            sentence += (f"; in points from {SOURCE_WORDS[source]} they cannot be told apart ({top['policy']} "
                         f"{_mean(top, 'mean_points')}, {bottom['policy']} {_mean(bottom, 'mean_points')})")
    return sentence + "."


def game_findings(tables: Mapping[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """The `game` page, after the core's sentences: where the leading policy's points come from (per point of a
    sweep), and for a single point which source separates the policies."""
    by_policy = points_by_name(tables, "by_policy", "policy")
    sources = points_by_name(tables, "points_by_source", "policy")
    out = []
    for prefix, rows in list(sources.items())[:MAX_POINTS]:
        if prefix not in by_policy:
            continue
        best = by_policy[prefix].sort_values(["win_rate", "policy"], ascending=[False, True]).iloc[0]
        out.append(sources_sentence(prefix, best["policy"], best, rows, alone=len(by_policy[prefix]) == 1))
    if len(sources) == 1:
        out.append(difference_sentence(next(iter(sources.values()))))
    return [s for s in out if s]
