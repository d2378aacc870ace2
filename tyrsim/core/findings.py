"""The sentences a report page opens with, for the analyses the core builds.

A report page answers its question first: two to five plain sentences, each number with
its interval (see `tyrsim.core.words`). A game's own analyses write theirs (`Analysis.findings`);
this module writes those of the `game` analysis every engine shares (who wins, the seats)
and of variant comparisons (what a rule change does, after the Holm correction).

Tables arrive as the report stacks them: for a sweep, one block of rows per point, the
swept values as leading columns. `points_of(table, key)` splits them again, so a finding
can name the point it speaks of.
"""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd

from tyrsim.core import words

GAME_GLOSSARY = {
    "win_rate": "share of games won (a shared victory split between its winners), with a 95% Wilson interval "
                "(win_low, win_high)",
    "mean_score": "mean final score, with a 95% t interval (score_low, score_high)",
    "sd_score": "standard deviation of the final score",
    "seat_advantage_p": "p-value of the chi-square test that every seat wins equally often",
    "largest_seat_gap": "best seat's win rate minus the worst's, bias-corrected",
    "balance": "how evenly wins spread over the seats: 1 = perfectly even",
    "mean_margin": "first place's score minus second place's, per game",
    "share_decided_by_tiebreak": "share of games whose top score was tied and a tie-break named one winner",
    "counter": "one of the engine's own counters (per seat and game unless its name says otherwise)",
}

MAX_POINTS = 3  # sentences about separate sweep points before the comparison takes over


def points_of(table: pd.DataFrame, key: str) -> Iterator[tuple[str, pd.DataFrame]]:
    """(prefix naming the point, its rows) per sweep point: the columns left of `key` are the swept values."""
    swept = list(table.columns[: list(table.columns).index(key)])
    if not swept:
        yield "", table
        return
    for values, rows in table.groupby(swept, sort=False):
        values = values if isinstance(values, tuple) else (values,)
        yield "With " + ", ".join(f"{k} = {v}" for k, v in zip(swept, values, strict=True)) + ": ", rows


def _who_wins(prefix: str, table: pd.DataFrame) -> str:
    ranked = table.sort_values("win_rate", ascending=False)
    parts = [f"{row.policy} {words.percent(row.win_rate, row.win_low, row.win_high)}"
             for row in ranked.itertuples()]
    if len(ranked) == 1:
        return f"{prefix}{ranked.iloc[0].policy} plays every seat, so what differs is the seats (below)."
    best, second = ranked.iloc[0], ranked.iloc[1]
    clear = best.win_low > second.win_high
    lead = (f"{best.policy} wins most often" if clear
            else f"{best.policy} and {second.policy} cannot be told apart (their intervals overlap)")
    return f"{prefix}{lead}: games won " + ", ".join(parts) + "."


def _seats(prefix: str, balance: pd.DataFrame, by_seat: pd.DataFrame) -> str:
    p = balance.set_index("metric")["value"].get("seat_advantage_p", float("nan"))
    best = by_seat.sort_values("win_rate", ascending=False).iloc[0]
    worst = by_seat.sort_values("win_rate").iloc[0]
    edge = (f"seat {int(best.seat)} wins {words.percent(best.win_rate, best.win_low, best.win_high)}, "
            f"seat {int(worst.seat)} {words.percent(worst.win_rate, worst.win_low, worst.win_high)}")
    if not pd.notna(p):
        return f"{prefix}Whether the seats are fair cannot be tested here ({edge})."
    if p < 0.05:
        return f"{prefix}The seats are not equal (chi-square p = {words.p_value(p)}): {edge}."
    return f"{prefix}No evidence that any seat has an edge (chi-square p = {words.p_value(p)}): {edge}."


def game_findings(tables: dict[str, pd.DataFrame]) -> list[str]:
    """Who wins and whether the seats are fair, per point (the first few points of a sweep)."""
    out = []
    by_policy, by_seat, balance = tables.get("by_policy"), tables.get("by_seat"), tables.get("balance")
    if by_policy is not None and len(by_policy):
        for prefix, rows in list(points_of(by_policy, "policy"))[:MAX_POINTS]:
            out.append(_who_wins(prefix, rows))
    if by_seat is not None and balance is not None and len(by_seat) and len(balance):
        seat_points = list(points_of(by_seat, "seat"))[:MAX_POINTS]
        balance_points = dict(points_of(balance, "metric"))
        for prefix, rows in seat_points:
            if prefix in balance_points:
                out.append(_seats(prefix, balance_points[prefix], rows))
    return out
