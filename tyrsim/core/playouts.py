"""The `game` analysis every full engine offers: policies play whole games.

`game_analysis(...)` builds, for the game that registers it, an `Analysis` whose trials are games:
each chunk plays games with rotated seats (`runner.play_chunk`), and the tables
give win rate and mean score per policy and per seat with intervals, and the
mean of every per-game counter the engine reports. A game adds its own tables
and figures through `extra_tables` / `extra_figures`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from tyrsim.core import stats
from tyrsim.core.analysis import Analysis, ArgumentError, Metric, Param, for_game
from tyrsim.core.findings import GAME_GLOSSARY, game_findings
from tyrsim.core.game import GameSpec, PolicyError
from tyrsim.core.metrics import balance_metrics
from tyrsim.core.runner import GAMES_PER_CHUNK, play_chunk

# columns every simulate table has; the rest are the engine's own counters
BASE_COLUMNS = ("game_id", "seat", "policy", "score", "rank", "won", "win_share", "actions")


def win_rates(raw: pd.DataFrame, by: str) -> pd.DataFrame:
    """Win rate (shared victories split) and mean score with intervals, grouped by `by`."""
    g = raw.groupby(by, sort=True)
    table = pd.DataFrame(
        {
            "games": g.size(),
            "wins": g["win_share"].sum(),
            "mean_score": g["score"].mean(),
            "sd_score": g["score"].std(ddof=1),
        }
    )
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
        g = raw.groupby(by, sort=True)
        return pd.DataFrame({"successes": g["win_share"].sum(), "n": g.size()}).reset_index()

    return compute


def _score(by: str):
    def compute(raw: pd.DataFrame, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
        g = raw.groupby(by, sort=True)["score"]
        return pd.DataFrame({"mean": g.mean(), "sd": g.std(ddof=1), "n": g.size()}).reset_index()

    return compute


GAME_TABLES = ("by_policy", "by_seat", "balance", "counters")  # the tables every `game` analysis makes
GAME_METRICS = {
    "win_rate": Metric("proportion", ("policy",), _proportion("policy"), "share of games won by each policy"),
    "mean_score": Metric("mean", ("policy",), _score("policy"), "mean final score of each policy"),
    "seat_win_rate": Metric("proportion", ("seat",), _proportion("seat"), "share of games won from each seat"),
}


def seat_policy_check(spec: GameSpec) -> Callable[[tuple[str, ...]], None]:
    """A validator for a one-policy-per-seat argument: a player count the game allows, known policies."""

    def check(texts: tuple[str, ...]) -> None:
        if len(texts) not in spec.players:
            raise ArgumentError("policies", f"argument 'policies': {len(texts)} policies, one per seat, but "
                                f"{spec.title} is for {', '.join(map(str, spec.players))} players")
        for text in texts:
            try:
                spec.make_policy(text)
            except PolicyError as exc:
                raise ArgumentError("policies", f"argument 'policies': {exc}") from None

    return check


@for_game
def game_analysis(
    spec: GameSpec,
    default_policies: tuple[str, ...],
    *,
    name: str = "game",
    summary: str = "policies play whole games: win rates, scores and the engine's counters",
    extra_params: tuple[Param, ...] = (),
    extra_tables: Callable[[pd.DataFrame, Any, Mapping[str, Any]], dict[str, pd.DataFrame]] | None = None,
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
    figures `extra_tables` and `extra_figures` make.
    """

    def tables(raw: pd.DataFrame, rules: Any, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
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
                  validate=seat_policy_check(spec)),
            Param("games", default_games, "number of games to play", low=1),
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
    )


def play_games(spec: GameSpec, rules: Any, args: Mapping[str, Any], first: int, count: int,
               rng: np.random.Generator) -> pd.DataFrame:
    """The `game` analysis's `run`: games first..first+count-1 between the policies `args["policies"]`."""
    texts = list(args["policies"])
    game = spec.make_game(rules, len(texts))
    return play_chunk(game, texts, [spec.make_policy(text) for text in texts], first, count, rng)

