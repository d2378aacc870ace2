"""The `game` analysis every full engine offers: policies play whole games.

`game_analysis(...)` builds, for the game that registers it, an `Analysis` whose trials are games:
each chunk plays games with rotated seats (`runner.play_chunk`), and the tables
give win rate and mean score per policy and per seat with intervals, and the
mean of every per-game counter the engine reports. A game adds its own tables
and figures through `extra_tables` / `extra_figures`.

Its summary form (`GAME_SUMMARY`, see `tyrsim.core.engine.analysis.TaskSummary`) makes the
same tables from small per-task sums, so a run of a million games holds no rows; a
game's extra tables keep the rows unless the game gives their summary form too
(`extra_summary`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.engine.analysis import (
    Analysis,
    Metric,
    Param,
    TaskSummary,
    Totals,
    for_game,
    moment_estimates,
    moment_interval,
)
from tyrsim.core.engine.rng import game_streams
from tyrsim.core.engine.runner import GAMES_PER_CHUNK, play_chunk
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report.findings import GAME_GLOSSARY, game_findings
from tyrsim.core.stats import intervals as stats
from tyrsim.core.stats.metrics import BALANCE_KEYS, balance_from_totals, balance_metrics, balance_summary

if TYPE_CHECKING:
    import pandas as pd

# columns every simulate table has; the rest are the engine's own counters
BASE_COLUMNS = ("game_id", "seat", "policy", "score", "rank", "won", "win_share", "actions")


def win_rates(raw: pd.DataFrame, by: str) -> pd.DataFrame:
    """Win rate (shared victories split) and mean score with intervals, grouped by `by`."""
    import pandas as pd

    g = raw.groupby(by, sort=True)
    table = pd.DataFrame(
        {
            "games": g.size(),
            "wins": g["win_share"].sum(),
            "mean_score": g["score"].mean(),
            "sd_score": g["score"].std(ddof=1),
        }
    )
    return with_intervals(table, by)


def with_intervals(table: pd.DataFrame, by: str) -> pd.DataFrame:
    """`win_rates`' table from its counts, wins, mean scores and sds (indexed by `by`): rates and intervals."""
    table["win_rate"] = table["wins"] / table["games"]
    table["win_low"], table["win_high"] = stats.wilson_interval(table["wins"], table["games"])
    table["score_low"], table["score_high"] = stats.t_interval(table["mean_score"], table["sd_score"], table["games"])
    return table.reset_index()[
        [by, "games", "win_rate", "win_low", "win_high", "mean_score", "score_low", "score_high", "sd_score"]
    ]


def counter_means(raw: pd.DataFrame, by: str = "policy") -> pd.DataFrame:
    """Mean of each numeric engine counter per `by`, with a t interval over games.

    Where one policy holds several seats of a game, the game counts once, with the mean over those
    seats: seats of one game are not independent draws (a counter of the whole game, such as the
    rounds played, is the same at every seat), and counting each seat would narrow the interval.
    """
    import pandas as pd

    counters = [c for c in raw.columns if c not in BASE_COLUMNS and pd.api.types.is_numeric_dtype(raw[c])]
    per_game = raw.groupby([by, "game_id"], sort=True)[counters].mean()
    rows = []
    for key, group in per_game.groupby(level=by, sort=True):
        for name in counters:
            mean, low, high = stats.mean_interval(group[name].dropna())
            rows.append({by: key, "counter": name, "mean": mean, "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows, columns=[by, "counter", "mean", "ci_low", "ci_high"])


def _proportion(by: str):
    def compute(raw: pd.DataFrame, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
        import pandas as pd

        g = raw.groupby(by, sort=True)
        return pd.DataFrame({"successes": g["win_share"].sum(), "n": g.size()}).reset_index()

    return compute


def _score(by: str):
    def compute(raw: pd.DataFrame, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
        import pandas as pd

        g = raw.groupby(by, sort=True)["score"]
        return pd.DataFrame({"mean": g.mean(), "sd": g.std(ddof=1), "n": g.size()}).reset_index()

    return compute


def seated(raw: pd.DataFrame) -> pd.DataFrame:
    """The `game.seated` part of a task summary: per policy and seat, the games, the wins (win shares), and
    the score's sum and sum of squares."""
    import pandas as pd

    score = raw["score"].astype(float)
    frame = pd.DataFrame({"policy": raw["policy"], "seat": raw["seat"], "wins": raw["win_share"].astype(float),
                          "score": score, "score_squares": score * score})
    g = frame.groupby(["policy", "seat"], sort=True)
    part = g.sum()
    part.insert(0, "games", g.size().astype(np.int64))
    return part.reset_index()


def _seated_by(totals: Totals, by: str) -> pd.DataFrame:
    """The added-up `game.seated` part summed over the other key: one row per `by` (policy or seat)."""
    return totals["game.seated"].drop(columns=["seat" if by == "policy" else "policy"]).groupby(by, sort=True).sum()


def win_rates_from_totals(totals: Totals, by: str) -> pd.DataFrame:
    """`win_rates` from the added-up task summaries."""
    import pandas as pd

    part = _seated_by(totals, by)
    mean, sd = moment_estimates(part["games"], part["score"], part["score_squares"])
    table = pd.DataFrame({"games": part["games"], "wins": part["wins"], "mean_score": mean, "sd_score": sd},
                         index=part.index)
    return with_intervals(table, by)


def _counters_summary(raw: pd.DataFrame, by: str = "policy") -> pd.DataFrame:
    """The `game.counters` part: per policy and counter (and its place among the counters), the count, sum
    and sum of squares of the per-game values `counter_means` averages."""
    import pandas as pd

    counters = [c for c in raw.columns if c not in BASE_COLUMNS and pd.api.types.is_numeric_dtype(raw[c])]
    per_game = raw.groupby([by, "game_id"], sort=True)[counters].mean().astype(float)
    squares = (per_game**2).groupby(level=by, sort=True).sum()
    g = per_game.groupby(level=by, sort=True)
    n, total = g.count(), g.sum()
    rows = [(key, position, name, int(n.loc[key, name]), float(total.loc[key, name]), float(squares.loc[key, name]))
            for key in n.index for position, name in enumerate(counters)]
    return pd.DataFrame(rows, columns=[by, "position", "counter", "n", "total", "squares"]).astype(
        {"position": np.int64, "n": np.int64})


def counter_means_from_totals(totals: Totals, by: str = "policy") -> pd.DataFrame:
    """`counter_means` from the added-up task summaries."""
    import pandas as pd

    part = totals["game.counters"].sort_values([by, "position"])
    rows = [{by: row[by], "counter": row["counter"],
             **dict(zip(("mean", "ci_low", "ci_high"), moment_interval(row["n"], row["total"], row["squares"]),
                        strict=True))}
            for row in part.to_dict("records")]
    return pd.DataFrame(rows, columns=[by, "counter", "mean", "ci_low", "ci_high"])


def _proportion_from_totals(by: str):
    def from_totals(totals: Totals, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
        import pandas as pd

        part = _seated_by(totals, by)
        return pd.DataFrame({"successes": part["wins"], "n": part["games"]}).reset_index()

    return from_totals


def _score_from_totals(by: str):
    def from_totals(totals: Totals, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
        import pandas as pd

        part = _seated_by(totals, by)
        mean, sd = moment_estimates(part["games"], part["score"], part["score_squares"])
        return pd.DataFrame({"mean": mean, "sd": sd, "n": part["games"]}, index=part.index).reset_index()

    return from_totals


GAME_TABLES = ("by_policy", "by_seat", "balance", "counters")  # the tables every `game` analysis makes
GAME_METRICS = {
    "win_rate": Metric("proportion", ("policy",), _proportion("policy"), "share of games won by each policy",
                       _proportion_from_totals("policy")),
    "mean_score": Metric("mean", ("policy",), _score("policy"), "mean final score of each policy",
                         _score_from_totals("policy")),
    "seat_win_rate": Metric("proportion", ("seat",), _proportion("seat"), "share of games won from each seat",
                            _proportion_from_totals("seat")),
}
# the summary form of the tables every `game` analysis makes (`game_tables_from_totals` reads it)
GAME_SUMMARY = TaskSummary(
    {"game.seated": ("policy", "seat"), "game.counters": ("policy", "position", "counter"), **BALANCE_KEYS},
    lambda raw, rules, args: {"game.seated": seated(raw), "game.counters": _counters_summary(raw),
                              **balance_summary(raw)},
)


def game_tables_from_totals(totals: Totals) -> dict[str, pd.DataFrame]:
    """The tables every `game` analysis makes, from the added-up `GAME_SUMMARY` of its tasks."""
    return {
        "by_policy": win_rates_from_totals(totals, "policy"),
        "by_seat": win_rates_from_totals(totals, "seat"),
        "balance": balance_from_totals(totals),
        "counters": counter_means_from_totals(totals, "policy"),
    }


@for_game
def game_analysis(
    spec: GameSpec,
    default_policies: tuple[str, ...],
    *,
    name: str = "game",
    summary: str = "policies play whole games: win rates, scores and the engine's counters",
    extra_params: tuple[Param, ...] = (),
    extra_tables: Callable[[pd.DataFrame, Any, Mapping[str, Any]], dict[str, pd.DataFrame]] | None = None,
    extra_summary: TaskSummary | None = None,
    extra_figures: Callable[[dict[str, pd.DataFrame], Any, Mapping[str, Any]], dict[str, Any]] | None = None,
    extra_outputs: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    extra_findings: Callable[[dict[str, pd.DataFrame], Any, Mapping[str, Any]], list[str]] | None = None,
    extra_glossary: Mapping[str, str] | None = None,
    default_games: int = 2000,
) -> Analysis:
    """The `game` analysis of the game `spec` (in a game's analyses table: `game_analysis(default_policies, ...)`,
    built with the spec that holds it).

    Its arguments are `policies` (one per seat: the list's length is the player
    count) and `games`, plus `extra_params`. `extra_outputs` names the tables and
    figures `extra_tables` and `extra_figures` make. `extra_summary`: the summary form
    of the game's tasks for `extra_tables`, which is then also handed the added-up
    summaries (a `Totals`, holding the core's parts too) and makes the same tables
    from them; without it, a game with extra tables keeps its rows.
    """
    # the tasks' summary form (not the one-line `summary` a person reads)
    task_summary = None if extra_tables is not None and extra_summary is None else (
        GAME_SUMMARY if extra_summary is None else GAME_SUMMARY + extra_summary)

    def tables(raw: pd.DataFrame | Totals, rules: Any, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
        if isinstance(raw, Totals):
            out = game_tables_from_totals(raw)
            if extra_tables is not None:
                out.update(extra_tables(raw, rules, args))
            return out
        out = {
            "by_policy": win_rates(raw, "policy"),
            "by_seat": win_rates(raw, "seat"),
            "balance": balance_metrics(raw),
            "counters": counter_means(raw, "policy"),
        }
        if extra_tables is not None:
            out.update(extra_tables(raw, rules, args))
        return out

    def figures(tables_: dict[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> dict[str, Any]:
        out = {}
        if extra_figures is not None:
            out.update(extra_figures(tables_, rules, args))
        return out

    return Analysis(
        name=name,
        summary=summary,
        params=(
            Param("policies", default_policies, "one policy per seat (NAME or NAME:key=value,...)", item=str,
                  validate=spec.check_seats),
            Param("games", default_games, "number of games to play", low=1),
            Param("paired", False, "each game from its own random stream (game g from trial_rng, as the studio "
                  "plays them): the same games under any rules and however the run cuts them into tasks, at the "
                  "cost of a seeded generator per game; false: a task's games draw one after another from its "
                  "stream"),
            *extra_params,
        ),
        run=functools.partial(play_games, spec),
        tables=tables,
        figures=figures,
        trials="games",
        trial_unit="games",
        chunk_size=GAMES_PER_CHUNK * 4,
        metrics=GAME_METRICS,
        headline="win_rate",
        outputs=lambda args: (GAME_TABLES + extra_outputs[0], extra_outputs[1]),
        findings=lambda tables_, rules, args: [
            *game_findings(tables_), *(extra_findings(tables_, rules, args) if extra_findings else [])],
        glossary={**GAME_GLOSSARY, **(extra_glossary or {})},
        task_summary=task_summary,
    )


def play_games(spec: GameSpec, rules: Any, args: Mapping[str, Any], first: int, count: int,
               rng: np.random.Generator) -> pd.DataFrame:
    """The `game` analysis's `run`: games first..first+count-1 between the policies `args["policies"]`."""
    texts = list(args["policies"])
    game = spec.make_game(rules, len(texts))
    return play_chunk(game, texts, [spec.make_policy(text) for text in texts], first, count, rng,
                      game_rng=game_streams(rng, args["paired"]))

