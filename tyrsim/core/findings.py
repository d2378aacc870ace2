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
from tyrsim.core.readable import _text, header

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
        yield "With " + ", ".join(f"{header(k)} = {_text(v)}" for k, v in zip(swept, values, strict=True)) + ": ", rows


def _who_wins(prefix: str, table: pd.DataFrame) -> str:
    ranked = table.sort_values("win_rate", ascending=False)
    parts = [f"{row.policy} {words.percent(row.win_rate, row.win_low, row.win_high)}"
             for row in ranked.itertuples()]
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
            if len(rows) > 1:  # one policy in every seat: the seats' sentence says who wins
                out.append(_who_wins(prefix, rows))
    if by_seat is not None and balance is not None and len(by_seat) and len(balance):
        seat_points = list(points_of(by_seat, "seat"))[:MAX_POINTS]
        balance_points = dict(points_of(balance, "metric"))
        for prefix, rows in seat_points:
            if prefix in balance_points:
                out.append(_seats(prefix, balance_points[prefix], rows))
    return out


def _signed(kind: str, difference: float, low: float | None = None, high: float | None = None) -> str:
    """A change with its sign and interval: "+4.1 points [3.9, 4.3]" for shares, "-1.2 [-1.6, -0.8]" for means."""
    if not pd.notna(difference):
        return words.NOT_COMPUTABLE
    scale, unit = (100, " points") if kind == "proportion" else (1, "")
    has_interval = low is not None and high is not None and pd.notna(low) and pd.notna(high)
    digits = 1 if kind == "proportion" else words.digits_for((high - low) / 2 if has_interval else None)
    text = f"{'+' if difference > 0 else ''}{words._plain(scale * difference, digits)}{unit}"
    if has_interval:
        text += f" [{words._plain(scale * low, digits)}, {words._plain(scale * high, digits)}]"
    return text


def _value(kind: str, value: float) -> str:
    return words.percent(value) if kind == "proportion" else words.number(value, digits=words.digits_for(None))


def _variant(title: str) -> str:
    return "With " + title.replace("=", " = ")


FEW_ITEMS = 3  # up to this many items (policies, seats...) a comparison sentence names each one


def _key(column: str, value) -> str:
    """An item by its key: a name as it is ("hunter"), a number with what it counts ("seat 0")."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{header(column)} {int(value) if float(value).is_integer() else value}"
    return _text(value)


def _item_change(metric, keys: list[str], row: pd.Series) -> str:
    """ "hunter 41.0% against 35.2% at the baseline, +5.8 points [1.2, 10.4], significant after ..." """
    item = " ".join(_key(k, row[k]) for k in keys)
    change = _signed(metric.kind, row["difference"], row["diff_low"], row["diff_high"])
    return (f"{item + ' ' if item else ''}{_value(metric.kind, row['value'])} against "
            f"{_value(metric.kind, row['baseline'])} at the baseline, {change}, "
            f"{words.verdict(bool(row['significant']), row['p_holm'])}")


def comparison_findings(comparison: pd.DataFrame, metrics: dict) -> list[str]:
    """One sentence per variant and metric: what the change does, against the baseline, after the Holm correction.

    `metrics` maps each compared metric's name to its `Metric` (its kind and what it measures)."""
    if comparison is None or not len(comparison):
        return []
    out = []
    for (variant, name), rows in comparison.groupby(["variant", "metric"], sort=False):
        metric = metrics[name]
        what = metric.doc or name
        keys = [k for k in metric.keys if k in rows.columns]
        tested = rows["p_holm"].notna()
        if len(rows) <= FEW_ITEMS:
            out.append(f"{_variant(variant)}: {what}: " + "; ".join(_item_change(metric, keys, row)
                                                                   for _, row in rows.iterrows()) + ".")
            continue
        differences = rows["difference"].dropna()
        if differences.empty:
            out.append(f"{_variant(variant)}: {what} has no value to compare with the baseline.")
            continue
        up, down = int((differences > 0).sum()), int((differences < 0).sum())
        sentence = (f"{_variant(variant)}: {what} is higher in {up} and lower in {down} of {len(rows)} cases "
                    f"(median change {_signed(metric.kind, float(differences.median()))})")
        significant = rows[rows["significant"].astype(bool)]
        if not tested.any():
            sentence += "; no test is possible (exact values, or no trials on a side)."
        else:
            sentence += (f"; {len(significant)} of {int(tested.sum())} changes are significant after the "
                         "Holm correction")
            if len(significant):
                top = significant.loc[significant["difference"].abs().idxmax()]
                where = ", ".join(_key(k, top[k]) for k in keys)
                largest = _signed(metric.kind, top["difference"], top["diff_low"], top["diff_high"])
                sentence += f"; the largest is {largest} at {where}"
            sentence += "."
        out.append(sentence)
    return out
