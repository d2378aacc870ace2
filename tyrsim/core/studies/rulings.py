"""Which readings of the rulebook change the answer: the `rulings` analysis every full game engine gets.

A game marks each rule that encodes a reading of an ambiguous rule or an assumed
component as a ruling, with its alternative readings (`rules.rule(..., ruling=...)`).
This analysis plays `games` games under the run's rules (the baseline) and the same
number under each alternative reading, one ruling changed at a time, with the same
policies and seats. Game g of every reading draws from the same stream
(`rng.trial_rng`), so the readings play the same deals, dice and choices until the
ruling makes them differ, and every measure is compared game by game
(`stats.compare_paired`): a ruling that fires in 2% of games shows its effect
instead of drowning in the noise between independent games.

Measures, one value per game. The answers a designer reads: each policy's win rate
(when it does not hold every seat), the mean score, the first seat's win rate (seat
balance), the winning margin and the game's length (actions, and rounds where the
engine counts them). Then every counter the engine reports, which says how the game
went and is often the ruling's direct trace (a fence rule moves the fence count).
Holm's correction runs over all the answers of the study, and separately over all its
counters (many, and often moved by construction: in one family they would cost the
answers their power). Readings are ranked by
their largest significant effect on an answer, in standard deviations of that measure
under the baseline (a scale shared by measures of any unit), then by their largest
effect on a counter, then by how often they changed a game at all.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.engine.analysis import Analysis, ArgumentError, Metric, Param, for_game
from tyrsim.core.engine.rules import RuleSet
from tyrsim.core.engine.runner import GAMES_PER_CHUNK
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report import rule_words
from tyrsim.core.report.findings import reading_effects, rulings_findings
from tyrsim.core.report.readable import header
from tyrsim.core.stats import intervals as stats
from tyrsim.core.stats.metrics import per_game_measures
from tyrsim.core.studies.blocks import block_substitutions, block_task_size, play_games, prepare_blocks
from tyrsim.core.studies.game import BASE_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

ALL = "all"
LABEL_WIDTH = 60  # characters of a line of a reading's label in the figure, beside its bar
# the per-game columns of metrics.per_game_measures compared, under the names the tables use
_PER_GAME = {"mean_score": "mean_score", "first_seat_win_rate": "first_seat_share", "margin": "margin",
             "actions": "actions", "rounds": "rounds"}
RESULT_COLUMNS = ("ruling", "alternative", "measure", "baseline", "value", "difference", "diff_low", "diff_high",
                  "p_holm", "significant")
ANSWER = "answer"  # a measure a designer asks about: win rates, score, seat balance, margin, game length
COUNTER = "counter"  # one of the engine's own counters: how the game went, often the ruling's direct trace
# games per reading in one task where the compiled engine plays every reading (each game is played under every
# reading): a task of a few thousand games, small enough that a precision target's rounds spread over the workers
COMPILED_TASK_GAMES = 250


def measure_kind(measure: str) -> str:
    """Whether a measure is one of the answers or one of the engine's counters."""
    return ANSWER if measure in _PER_GAME or measure.startswith("win_rate[") else COUNTER


def readings(rules: Any, chosen: tuple[str, ...]) -> list[tuple[str, Any]]:
    """(ruling, value) for each reading played against `rules`, for each chosen ruling: its declared readings
    (the default and the alternatives) other than the one `rules` plays. Where `rules` plays a value that is
    none of them (a user's own data file, say), that value stands in for the default: the alternatives are
    played against it. Either way a ruling gives as many readings as it has alternatives."""
    rows = []
    defaults = type(rules)()
    for name, alternatives in type(rules).rulings().items():
        if ALL not in chosen and name not in chosen:
            continue
        declared = (getattr(defaults, name), *alternatives)
        current = getattr(rules, name)
        rows.extend((name, value) for value in (declared if current in declared else alternatives)
                    if value != current)
    return rows


def game_measures(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per game (index game_id) and one column per measure: see the module's docstring."""
    import pandas as pd

    per_game = per_game_measures(raw)
    out = pd.DataFrame(index=per_game.index)
    for name, column in _PER_GAME.items():
        if column in per_game.columns:
            out[name] = per_game[column].astype(float)
    seats = raw["seat"].nunique()
    for policy, rows in raw.groupby("policy", sort=True):
        if len(rows) < len(raw) and seats > 1:  # a policy holding every seat wins 1/n of every game
            out[f"win_rate[{policy}]"] = rows.groupby("game_id")["win_share"].mean().reindex(out.index)
    counters = [c for c in raw.columns
                if c not in BASE_COLUMNS and c not in out.columns and pd.api.types.is_numeric_dtype(raw[c])]
    if counters:
        means = raw.groupby("game_id")[counters].mean().astype(float)
        out = out.join(means)
    return out


def changed_games(base: pd.DataFrame, other: pd.DataFrame) -> np.ndarray:
    """Per game, whether the reading changed the game's record at all (any seat's score, the winners,
    the number of actions or any counter)."""
    columns = [c for c in base.columns if c in other.columns]
    a = base.sort_values(["game_id", "seat"])[columns].reset_index(drop=True)
    b = other.sort_values(["game_id", "seat"])[columns].reset_index(drop=True)
    same = ((a == b) | (a.isna() & b.isna())).all(axis=1)
    return ~same.groupby(a["game_id"]).all().to_numpy()


def compare_readings(raw: pd.DataFrame, rules: Any, args: Mapping[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per ruling, alternative and measure; one row per ruling and alternative) from the games of
    every block (block 0: the baseline; block k: reading k - 1)."""
    import pandas as pd

    played = readings(rules, args["rulings"])
    blocks = {b: group.drop(columns="block") for b, group in raw.groupby("block", sort=True)}
    base = game_measures(blocks[0])
    rows, summary = [], []
    for k, (name, value) in enumerate(played, start=1):
        other = game_measures(blocks[k])
        changed = changed_games(blocks[0], blocks[k])
        for measure in base.columns:
            if measure not in other.columns:
                continue
            b, v = base[measure], other[measure].reindex(base.index)
            paired = stats.compare_paired((v - b).to_numpy())
            sd = float(b.std(ddof=1)) if b.notna().sum() > 1 else math.nan
            with np.errstate(divide="ignore", invalid="ignore"):
                effect = paired.difference / sd if sd > 0 else math.nan
            rows.append({"ruling": name, "alternative": str(value), "measure": measure, "kind": measure_kind(measure),
                         "baseline": float(b.mean()), "value": float(v.mean()), "difference": paired.difference,
                         "diff_low": paired.low, "diff_high": paired.high, "p_value": paired.p_value,
                         "effect_size": effect, "games": paired.pairs, "games_differing": paired.differing,
                         "test": paired.test})
        summary.append({"ruling": name, "alternative": str(value), "games": len(changed),
                        "games_changed": int(changed.sum()), "share_changed": float(changed.mean())})
    table = pd.DataFrame(rows, columns=[*RESULT_COLUMNS, "kind", "p_value", "effect_size", "games",
                                        "games_differing", "test"])
    # two families, each over every reading of the study: the answers, and the counters (many, and often
    # moved by construction), so the counters do not cost the answers their power
    table["p_holm"] = np.nan
    for kind in (ANSWER, COUNTER):
        rows_of_kind = table["kind"] == kind
        if rows_of_kind.any():
            table.loc[rows_of_kind, "p_holm"] = stats.holm(table.loc[rows_of_kind, "p_value"].to_numpy())
    table["significant"] = (table["p_holm"] < 1 - stats.CONFIDENCE).astype(bool)  # NaN compares False
    strength = table["effect_size"].abs().where(table["significant"], 0.0).fillna(0.0)
    table = table.assign(_strength=strength, _size=table["effect_size"].abs().fillna(0.0))
    ranking = _ranking(table, pd.DataFrame(summary, columns=["ruling", "alternative", "games", "games_changed",
                                                             "share_changed"]))
    order = {(r, a): i for i, (r, a) in enumerate(zip(ranking["ruling"], ranking["alternative"], strict=True))}
    table["_rank"] = [order[(r, a)] for r, a in zip(table["ruling"], table["alternative"], strict=True)]
    table = table.assign(_answer=table["kind"] == ANSWER).sort_values(
        ["_rank", "significant", "_answer", "_strength", "_size"], ascending=[True, False, False, False, False],
        kind="stable")
    return table.drop(columns=["_strength", "_size", "_rank", "_answer"]).reset_index(drop=True), ranking


def answer_effects(raw: pd.DataFrame, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
    """Per reading and answer, the paired per-game difference (reading minus baseline) in standard deviations
    of the answer under the baseline (the scale the ranking uses): its mean, sd and games, for `Metric`. An
    answer that does not vary under the baseline has no such scale: NaN, so it never counts as precise."""
    import pandas as pd

    blocks = {b: group.drop(columns="block") for b, group in raw.groupby("block", sort=True)}
    base = game_measures(blocks[0])
    rows = []
    for k, (name, value) in enumerate(readings(rules, args["rulings"]), start=1):
        other = game_measures(blocks[k])
        for measure in (m for m in base.columns if measure_kind(m) == ANSWER and m in other.columns):
            b = base[measure]
            scale = float(b.std(ddof=1)) if b.notna().sum() > 1 else math.nan
            change = ((other[measure].reindex(base.index) - b) / scale if scale > 0 else b * math.nan).dropna()
            rows.append({"ruling": name, "alternative": str(value), "measure": measure, "mean": float(change.mean()),
                         "sd": float(change.std(ddof=1)), "n": len(change)})
    return pd.DataFrame(rows, columns=["ruling", "alternative", "measure", "mean", "sd", "n"])


ANSWER_EFFECT = Metric(
    "mean", ("ruling", "alternative", "measure"), answer_effects,
    "a reading's paired effect on an answer, in standard deviations of the answer under the baseline (a precision "
    "target on it asks the widest such interval to be at most half_width)",
)


def _largest(moved: pd.DataFrame, prefix: str) -> dict[str, Any]:
    """The largest significant effect among `moved` as columns named `prefix`_measure, _size, ..."""
    top = moved.sort_values("_strength", ascending=False, kind="stable").head(1)
    first = top.iloc[0] if len(top) else None
    return {f"{prefix}_measure": first["measure"] if first is not None else "",
            f"{prefix}_size": float(first["effect_size"]) if first is not None else math.nan,
            f"{prefix}_difference": float(first["difference"]) if first is not None else math.nan,
            f"{prefix}_low": float(first["diff_low"]) if first is not None else math.nan,
            f"{prefix}_high": float(first["diff_high"]) if first is not None else math.nan}


def _ranking(table: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """One row per reading: how often it changed a game, how many answers and counters it moved
    significantly, and its largest significant effect on an answer and on a counter. Ordered by the
    effect on the answers (in baseline standard deviations), then on the counters, then by how often
    it changed a game: a reading matters by what it does to the answers a designer reads."""
    import pandas as pd

    rows = []
    for record in summary.to_dict("records"):
        mine = table[(table["ruling"] == record["ruling"]) & (table["alternative"] == record["alternative"])]
        moved = mine[mine["significant"]]
        answers, counters = moved[moved["kind"] == ANSWER], moved[moved["kind"] == COUNTER]
        rows.append({**record, "answers_moved": int(len(answers)), "counters_moved": int(len(counters)),
                     **_largest(answers, "answer"), **_largest(counters, "counter")})
    ranking = pd.DataFrame(rows, columns=[
        *summary.columns, "answers_moved", "counters_moved",
        *(f"{prefix}_{field}" for prefix in ("answer", "counter")
          for field in ("measure", "size", "difference", "low", "high"))])
    keys = ranking.assign(_answer=ranking["answer_size"].abs().fillna(0.0),
                          _counter=ranking["counter_size"].abs().fillna(0.0))
    ranking = ranking.loc[keys.sort_values(["_answer", "_counter", "share_changed"], ascending=False,
                                           kind="stable").index].reset_index(drop=True)
    ranking.insert(0, "rank", range(1, len(ranking) + 1))
    return ranking


def findings(ranking: pd.DataFrame) -> pd.DataFrame:
    """One sentence per reading, in rank order: what it changed, with its interval (the reading by its rule's name
    and value; a page names it in words, `rulings_findings`)."""
    import pandas as pd

    rows = [{"rank": r["rank"], "ruling": r["ruling"], "alternative": r["alternative"],
             "finding": f"{r['ruling']} = {r['alternative']}: {reading_effects(r)}"}
            for r in ranking.to_dict("records")]
    return pd.DataFrame(rows, columns=["rank", "ruling", "alternative", "finding"])


def rulings_figure(ranking: pd.DataFrame, rules: type[RuleSet]):
    """Each reading's largest significant effect on an answer (baseline sd units) with its interval, largest
    first; each reading of `rules` labelled in words, with the answer it moves most."""
    import matplotlib.pyplot as plt

    shown = ranking.iloc[::-1]
    labels = [f"{rule_words.label(rule_words.rule(rules, r, a), LABEL_WIDTH)}\n"
              f"({header(m) if isinstance(m, str) and m else 'nothing significant'})"
              for r, a, m in zip(shown["ruling"], shown["alternative"], shown["answer_measure"], strict=True)]
    lines = max([3, *(text.count("\n") + 1 for text in labels)])  # every row as tall as the tallest label
    fig, ax = plt.subplots(figsize=(10, 0.15 * lines * len(shown) + 1.8))
    y = np.arange(len(shown))
    size = shown["answer_size"].fillna(0.0).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):  # the interval of the difference, on the same scale
        scale = np.where(shown["answer_difference"].to_numpy() != 0, size / shown["answer_difference"].to_numpy(), 0.0)
    ends = np.nan_to_num(np.vstack([shown["answer_low"].to_numpy(), shown["answer_high"].to_numpy()]) * scale)
    lo, hi = ends.min(axis=0), ends.max(axis=0)
    ax.barh(y, size, color=np.where(shown["answers_moved"] > 0, "tab:red", "lightgrey"))
    ax.errorbar(size, y, xerr=[size - lo, hi - size], fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(y, labels, fontsize=8)
    reach = max(0.1, float(np.abs(ends).max()) * 1.1)
    ax.set_xlim(-reach, reach)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("largest significant effect on an answer (win rate, score, seat balance, margin, length),\n"
                  "in standard deviations of that measure under the default reading")
    fig.suptitle("Which readings of the rulebook change the answer")
    fig.tight_layout()
    return fig


@for_game
def rulings_analysis(spec: GameSpec, default_policies: tuple[str, ...], default_games: int = 400) -> Analysis:
    """Every alternative reading of each ruling of the game `spec` played against the run's rules, paired by game."""

    def plan(rules: Any, args: Mapping[str, Any]) -> list[Any]:
        return [rules] + [rules.replace({name: value}) for name, value in readings(rules, args["rulings"])]

    def run(rules, args, first, count, rng):
        # games first..first+count-1 under every reading (block k: reading k - 1, block 0 the baseline), game g
        # from its own stream: whatever games a precision target has asked for so far, each reading has played
        # the same ones, so they pair up
        import pandas as pd

        seats = tuple(args["policies"])
        return pd.concat([play_games(spec, reading, seats, first, count, rng, paired=True).assign(block=k)
                          for k, reading in enumerate(plan(rules, args))], ignore_index=True)

    def blocks(rules, args) -> list[tuple[Any, tuple[str, ...]]]:
        return [(reading, tuple(args["policies"])) for reading in plan(rules, args)]

    def tables(raw, rules, args):
        table, ranking = compare_readings(raw, rules, args)
        # the answer first: one sentence per reading, then the ranking, then every comparison
        return {"findings": findings(ranking), "ruling_ranking": ranking, "rulings": table}

    def figures(tables_, rules, args):
        return {"rulings": rulings_figure(tables_["ruling_ranking"], type(rules))}

    def check_rulings(names: tuple[str, ...]) -> None:
        known = spec.rules.rulings()
        if not known:
            raise ArgumentError("rulings", f"{spec.title} marks no rule as a ruling")
        for name in names:
            if name != ALL and name not in known:
                raise ArgumentError("rulings", f"{name!r} is not a ruling of "
                                    f"{spec.title}; the rulings are: {', '.join(known)} (or {ALL!r})")

    return Analysis(
        name="rulings",
        summary="which readings of the rulebook change the answer: each alternative reading of every ruling "
                "played against the default on the same games",
        params=(
            Param("policies", default_policies, "one policy per seat", item=str, validate=spec.check_seats),
            Param("games", default_games, "games per reading (the same games under each)", low=2),
            Param("rulings", (ALL,), f"the rulings to play ({ALL!r}: every one)", item=str, validate=check_rulings),
        ),
        run=run, tables=tables, figures=figures, trials="games", trial_unit="games per reading",
        chunk_size=GAMES_PER_CHUNK * 2, quick_trials=20,
        # paired games draw from their own streams, so the tables are the same whatever the task size
        task_size=lambda rules, args: block_task_size(
            spec, blocks(rules, args), COMPILED_TASK_GAMES, max(1, GAMES_PER_CHUNK * 2 // len(blocks(rules, args)))),
        metrics={"answer_effect": ANSWER_EFFECT}, headline="answer_effect",
        outputs=lambda args: (("findings", "ruling_ranking", "rulings"), ("rulings",)),
        findings=lambda tables_, rules, args: rulings_findings(tables_, type(rules)),
        substitutions=lambda rules, args: block_substitutions(spec, blocks(rules, args), "readings"),
        prepare=lambda rules, args: prepare_blocks(spec, blocks(rules, args)),
    )
