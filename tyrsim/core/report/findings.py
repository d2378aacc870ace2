"""The sentences a report page opens with, for the analyses the core builds.

A report page answers its question first: two to five plain sentences, each number with
its interval (see `tyrsim.core.report.words`). A game's own analyses write theirs (`Analysis.findings`);
this module writes those of the `game` analysis every engine shares (who wins, the seats)
and of variant comparisons (what a rule change does, after the Holm correction).

Tables arrive as the report stacks them: for a sweep, one block of rows per point, the
swept values as leading columns. `points_of(table, key)` splits them again, so a finding
can name the point it speaks of, in the words the report gives each swept value (the table's
`attrs["phrases"]`, see `tyrsim.core.report.rule_words`: "In the expert variant: ...").
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

import numpy as np

from tyrsim.core.engine.rules import RuleSet
from tyrsim.core.report import rule_words, words
from tyrsim.core.report.readable import cell_text, header

if TYPE_CHECKING:
    import pandas as pd

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
MAX_MULTIPLES = 4  # a skill trace's multiples with a sentence each: the full trace's 2x, 4x, 8x and 16x


PHRASES = "phrases"  # a table's attrs key: {swept column: {value as the table shows it: the value in words}}


def capitalized(phrase: str) -> str:
    """A phrase that opens a sentence: "In the expert variant"."""
    return phrase[:1].upper() + phrase[1:]


def swept_value(table: pd.DataFrame, column: str, value) -> str:
    """A swept column's value in words, as the report named it ("in the expert variant"); a table no report named
    (a finding called on its own tables, which hold no rule declarations) reads "with COLUMN = VALUE"."""
    named = table.attrs.get(PHRASES, {}).get(column, {})
    return named.get(value) or f"with {header(column)} = {cell_text(value)}"


def points_of(table: pd.DataFrame, key: str) -> Iterator[tuple[str, pd.DataFrame]]:
    """(prefix naming the point, its rows) per sweep point: the columns left of `key` are the swept values."""
    swept = list(table.columns[: list(table.columns).index(key)])
    if not swept:
        yield "", table
        return
    for values, rows in table.groupby(swept, sort=False):
        values = values if isinstance(values, tuple) else (values,)
        named = words.listing([swept_value(table, k, v) for k, v in zip(swept, values, strict=True)])
        yield f"{capitalized(named)}: ", rows


def points_by_name(tables: Mapping[str, pd.DataFrame], name: str, key: str) -> dict[str, pd.DataFrame]:
    """{prefix naming the sweep point: its rows} of the table called `name` (see `points_of`); empty where the
    analysis made no such table or it has no rows."""
    table = tables.get(name)
    return {} if table is None or not len(table) else dict(points_of(table, key))


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
    import pandas as pd

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
        if len(seat_points) == 1:
            out.append(_length_and_margin(balance))
    return [s for s in out if s]


def _length_and_margin(balance: pd.DataFrame) -> str | None:
    """ "A game lasts 5.2 [5.1, 5.3] rounds; the winner leads second place by 12 [11, 13] points; ..." """
    rows = balance.set_index("metric")
    parts = []
    for name, text in (("mean_rounds", "a game lasts {} rounds"), ("mean_actions", "a game lasts {} actions"),
                       ("mean_margin", "the winner's lead over second place averages {}")):
        if name in rows.index and not (name == "mean_actions" and "mean_rounds" in rows.index):
            r = rows.loc[name]
            parts.append(text.format(words.number(r.value, r.ci_low, r.ci_high)))
    if "share_decided_by_tiebreak" in rows.index and rows.loc["share_decided_by_tiebreak", "value"] > 0:
        r = rows.loc["share_decided_by_tiebreak"]  # (none at all: a game without a tie-break, or none needed)
        parts.append(f"{words.percent(r.value, r.ci_low, r.ci_high)} of games are decided by the tie-break")
    return (parts[0][0].upper() + "; ".join(parts)[1:] + ".") if parts else None


def _signed(kind: str, difference: float, low: float | None = None, high: float | None = None) -> str:
    """A change with its sign and interval: "+4.1 points [3.9, 4.3]" for shares, "-1.2 [-1.6, -0.8]" for means."""
    import pandas as pd

    if not pd.notna(difference):
        return words.NOT_COMPUTABLE
    scale, unit = (100, " points") if kind == "proportion" else (1, "")
    has_interval = low is not None and high is not None and pd.notna(low) and pd.notna(high)
    digits = 1 if kind == "proportion" else words.digits_for((high - low) / 2 if has_interval else None)
    text = f"{'+' if difference > 0 else ''}{words.fixed(scale * difference, digits)}{unit}"
    if has_interval:
        text += f" [{words.fixed(scale * low, digits)}, {words.fixed(scale * high, digits)}]"
    return text


def _value(kind: str, value: float) -> str:
    return words.percent(value) if kind == "proportion" else words.number(value, digits=words.digits_for(None))


FEW_ITEMS = 3  # up to this many items (policies, seats...) a comparison sentence names each one


def _key(column: str, value) -> str:
    """An item by its key: a name as it is ("hunter"), a number with what it counts ("seat 0")."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_):
        return f"{header(column)} {int(value) if float(value).is_integer() else value}"
    return cell_text(value)


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
    for (title, name), rows in comparison.groupby(["variant", "metric"], sort=False):
        variant = capitalized(swept_value(comparison, "variant", title))
        metric = metrics[name]
        what = metric.doc or name
        keys = [k for k in metric.keys if k in rows.columns]
        tested = rows["p_holm"].notna()
        if len(rows) <= FEW_ITEMS:
            out.append(f"{variant}: {what}: " + "; ".join(_item_change(metric, keys, row)
                                                                   for _, row in rows.iterrows()) + ".")
            continue
        differences = rows["difference"].dropna()
        if differences.empty:
            out.append(f"{variant}: {what} has no value to compare with the baseline.")
            continue
        up, down = int((differences > 0).sum()), int((differences < 0).sum())
        sentence = (f"{variant}: {what} is higher in {up:,} and lower in {down:,} of {len(rows):,} cases "
                    f"(median change {_signed(metric.kind, float(differences.median()))})")
        significant = rows[rows["significant"].astype(bool)]
        if not tested.any():
            sentence += "; no test is possible (exact values, or no trials on a side)."
        else:
            sentence += (f"; {len(significant):,} of {int(tested.sum()):,} changes are significant after the "
                         "Holm correction")
            if len(significant):
                top = significant.loc[significant["difference"].abs().idxmax()]
                where = ", ".join(_key(k, top[k]) for k in keys)
                largest = _signed(metric.kind, top["difference"], top["diff_low"], top["diff_high"])
                sentence += f"; the largest is {largest} at {where}"
            sentence += "."
        out.append(sentence)
    return out


def _pair(pairwise: pd.DataFrame, upper: str, lower: str) -> str | None:
    """ "ismcts finished ahead of planner in 62.0% [55.1, 68.4] of their seat pairs, clearly stronger" """
    rows = pairwise[(pairwise["policy"] == upper) & (pairwise["opponent"] == lower)]
    if rows.empty:
        return None
    row = rows.iloc[0]
    if row.ci_low > 0.5:
        reading = "clearly stronger"
    elif row.ci_high < 0.5:
        reading = "clearly weaker"
    else:
        reading = "the two cannot be told apart at this number of games"
    return (f"{upper} finished ahead of {lower} in {words.percent(row.win_rate, row.ci_low, row.ci_high)} "
            f"of their seat pairs ({int(row.games):,} games): {reading}.")


def _ranking(ratings: pd.DataFrame, anchor: str | None = None) -> str:
    ranked = ratings.sort_values("rating", ascending=False)
    top = ranked.iloc[0]
    order = " > ".join(ranked["policy"])
    scale = ("only differences between ratings mean anything" if anchor is None
             else f"measured from {anchor}, rated 0")
    return (f"Strongest: {top.policy}, Bradley-Terry rating {words.number(top.rating, top.ci_low, top.ci_high)} "
            f"(Elo scale: {scale}); by rating: {order}.")


def rating_findings(tables: dict[str, pd.DataFrame]) -> list[str]:
    """A round robin: who is strongest, and how the top two met."""
    ratings, pairwise = tables["ratings"], tables["pairwise"]
    if ratings.empty:
        return []
    ranked = ratings.sort_values("rating", ascending=False)["policy"].tolist()
    out = [_ranking(ratings)]
    if len(ranked) > 1:
        out.append(_pair(pairwise, ranked[0], ranked[1]))
    return [s for s in out if s]


def ladder_findings(tables: dict[str, pd.DataFrame], anchor: str | None = None) -> list[str]:
    """A skill ladder: the order by rating (measured from `anchor`), then how each of the top rungs met the rung
    below it."""
    ladder, pairwise = tables["ladder"], tables["ladder_pairwise"]
    if ladder.empty:
        return []
    rungs = ladder.sort_values("rung")["policy"].tolist()
    out = [_ranking(ladder, anchor)]
    for upper, lower in reversed(list(zip(rungs[1:], rungs[:-1], strict=True))):
        if len(out) >= MAX_POINTS + 1:
            break
        sentence = _pair(pairwise, upper, lower)
        if sentence:
            out.append(sentence)
    return out


def trace_findings(tables: dict[str, pd.DataFrame], budget: str) -> list[str]:
    """A skill trace: its reading (does more thinking pay?), then each multiple against 1x: the largest
    `MAX_MULTIPLES` of them where there are more (the reading names every one)."""
    trace, reading = tables["skill_trace"], tables.get("skill_trace_reading")
    out = [str(r) for r in reading["reading"]] if reading is not None and len(reading) else []
    search = str(reading["policy"].iloc[0]) if reading is not None and len(reading) else "the search"
    for row in trace.sort_values("multiple").tail(MAX_MULTIPLES).itertuples():
        out.append(f"At {int(row.multiple)}x ({int(row.budget):,} {budget}) {search} finished ahead of a "
                   f"1x seat {words.percent(row.seats_beaten, row.ci_low, row.ci_high)} of the time and won "
                   f"{words.percent(row.win_rate, row.win_low, row.win_high)} of {int(row.games):,} games "
                   f"(par {words.percent(row.par)}).")
    return out


def sensitivity_findings(tables: dict[str, pd.DataFrame]) -> list[str]:
    """Rule sensitivity: per measure, the rule that matters most by total Sobol' index, and how far to trust it."""
    ranking, notes = tables["sensitivity"], tables.get("sensitivity_notes")
    caution = dict(zip(notes["metric"], notes["reading"], strict=True)) if notes is not None else {}
    out = []
    for metric, rows in ranking.groupby("metric", sort=False):
        rows = rows.sort_values("rank")
        top = rows.iloc[0]
        sentence = (f"For {header(metric)}, {header(top.parameter)} matters most: total Sobol' index "
                    f"{words.number(top.total, top.total_low, top.total_high, digits=2)}")
        if len(rows) > 1:
            second = rows.iloc[1]
            sentence += (f", then {header(second.parameter)} "
                         f"{words.number(second.total, second.total_low, second.total_high, digits=2)}")
        text = caution.get(metric, "")
        if "noise" in text:
            sentence += "; playout noise is a large part of the variation, so the ranking is uncertain"
        elif "WARNING" in text:
            sentence += "; a linear fit misses much of the variation, so rank by this index, not by SRC"
        out.append(sentence + ".")
    return out


def _effect_text(r: Mapping, prefix: str) -> str:
    size = r[prefix + "_size"]  # NaN where the measure does not vary under the default reading
    return (f"{header(r[prefix + '_measure'])} by {r[prefix + '_difference']:+.4g} [{r[prefix + '_low']:.4g}, "
            f"{r[prefix + '_high']:.4g}]" + (f" ({size:+.2f} sd)" if math.isfinite(size) else ""))


def reading_effects(r: Mapping) -> str:
    """What one reading of the rulebook changed (a row of the rulings study's ranking), with its interval:
    "changed 1,212 of 4,000 games; moves mean score by +1.2 [0.4, 2] (+0.11 sd), significant after Holm's
    correction"."""
    text = f"changed {int(r['games_changed']):,} of {int(r['games']):,} games"
    if r["answers_moved"]:
        text += f"; moves {_effect_text(r, 'answer')}, significant after Holm's correction"
        if r["answers_moved"] > 1:
            text += f", and {r['answers_moved'] - 1} more answer{'s' if r['answers_moved'] > 2 else ''}"
    elif r["games_changed"]:
        text += "; no answer (win rates, score, seat balance, margin, length) moved significantly"
    else:
        text += "; it never fired, so these games cannot tell whether it matters"
    if r["counters_moved"]:
        text += (f"; of the engine's counters it moves {_effect_text(r, 'counter')}"
                 + (f" and {r['counters_moved'] - 1} more" if r["counters_moved"] > 1 else ""))
    return text


def rulings_findings(tables: dict[str, pd.DataFrame], rules: type[RuleSet]) -> list[str]:
    """Which readings of the rulebook change the answer: how many moved one, then the top of the ranking, each
    reading of `rules` in words; per sweep point (the first few), each sentence naming its point."""
    ranking = tables["ruling_ranking"]
    if ranking.empty:
        return []
    points = list(points_of(ranking, "rank"))[:MAX_POINTS]
    out = []
    for prefix, rows in points:
        rows = rows.sort_values("rank")
        readings = [rule_words.rule(rules, r["ruling"], r["alternative"]) for r in rows.to_dict("records")]
        moved = [reading for reading, n in zip(readings, rows["answers_moved"], strict=True) if n > 0]
        out.append(prefix + f"{len(moved)} of {len(rows)} alternative readings of the rulebook moved an answer (win "
                   "rates, score, seat balance, margin, length) significantly after the Holm correction"
                   + (": " + "; ".join(moved) if moved else "") + ".")
        top = list(zip(readings, rows.to_dict("records"), strict=True))[:3 if len(points) == 1 else 1]
        out += [f"{capitalized(prefix + reading)}: {reading_effects(r)}." for reading, r in top]
    return out
