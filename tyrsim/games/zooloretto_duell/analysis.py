"""Zooloretto Duell analyses: what a zoo is worth and where the points come from, and a policy tournament.

`game` / `zoo-ev` are the generic game analysis with this game's tables added:
points by source, symbol firing rates, the margin distribution, game length,
the first player's advantage and what ended the game. The policy tournament
(every pair of policies in both seat orders) is the shared `rate` analysis.

The zoo's tables have a summary form too (`ZOO_SUMMARY`: sums and value counts per
task, see `tyrsim.core.engine.analysis.TaskSummary`), so a run keeps no per-game rows
unless they are asked for; `zoo_tables` makes the same tables from either.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.compiled.engines import CompiledEngine
from tyrsim.core.engine.analysis import (
    Analysis,
    ForGame,
    Metric,
    TaskSummary,
    Totals,
    moment_estimates,
    moment_interval,
    moments,
)
from tyrsim.core.report.figures import legend_outside
from tyrsim.core.stats import intervals as stats
from tyrsim.core.studies.balance_analysis import balance_analysis
from tyrsim.core.studies.explore import explore_analysis
from tyrsim.core.studies.game import game_analysis
from tyrsim.core.studies.ladder import ladder_analysis
from tyrsim.core.studies.rate import rating_analysis
from tyrsim.core.studies.rulings import rulings_analysis
from tyrsim.core.studies.trace import trace_analysis
from tyrsim.games.zooloretto_duell import findings
from tyrsim.games.zooloretto_duell.game import END_TRIGGERS, NAME
from tyrsim.games.zooloretto_duell.policies import POLICIES

if TYPE_CHECKING:
    import pandas as pd

SOURCES = ("marker_points", "majority_points", "coin_points", "minus_points")
# the `symbols` table: how often each symbol fires, and the money and expert actions beside them
EVENT_COUNTERS = (
    "lightning",
    "heart",
    "heart_wasted",
    "square",
    "square_wasted",
    "third_symbol",
    "stand_coin",
    "steals",
    "disposals",
    "expert_discards",
)


def _mean_rows(groups, columns, label: str) -> list[dict]:
    rows = []
    for key, group in groups:
        for column in columns:
            mean, low, high = stats.mean_interval(group[column])
            rows.append({"policy": key, label: column, "mean": mean, "ci_low": low, "ci_high": high})
    return rows


def _share_rows(counts: pd.Series, n: int, **keys) -> list[dict]:
    low, high = stats.wilson_interval(counts.to_numpy(), n)
    return [
        {**keys, "value": value, "games": int(k), "share": k / n, "ci_low": lo, "ci_high": hi}
        for value, k, lo, hi in zip(counts.index, counts.to_numpy(), low, high, strict=True)
    ]


def _seat_pairs(raw: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of seat 0 and of seat 1, game by game in the same order."""
    ordered = raw.sort_values(["game_id", "seat"])
    return ordered.iloc[0::2].reset_index(drop=True), ordered.iloc[1::2].reset_index(drop=True)


def _leader_wins(seats: tuple[pd.DataFrame, pd.DataFrame], source: str) -> pd.DataFrame:
    """Per game with a leader in `source` (more points from it): the leader's policy and whether they won;
    `seats`: the games' two seats (`_seat_pairs`)."""
    import pandas as pd

    first, second = seats
    lead = first[source] != second[source]
    first_leads = first[source] > second[source]
    return pd.DataFrame(
        {
            "policy": np.where(first_leads, first["policy"], second["policy"])[lead],
            "won": np.where(first_leads, first["win_share"], second["win_share"])[lead],
        }
    )


def _marker_leader_wins(raw: pd.DataFrame, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
    import pandas as pd

    g = _leader_wins(_seat_pairs(raw), "marker_points").groupby("policy", sort=True)["won"]
    return pd.DataFrame({"successes": g.sum(), "n": g.size()}).reset_index()


def _marker_leader_from_totals(totals: Totals, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
    import pandas as pd

    part = totals["zoo.leaders"]
    part = part[part["source"] == "marker_points"]
    return pd.DataFrame({"policy": part["policy"], "successes": part["wins"], "n": part["games"]})


MARKER_LEADER = Metric(
    "proportion", ("policy",), _marker_leader_wins, "share of games won by the player with more interim marker points",
    _marker_leader_from_totals,
)

# quantities averaged per policy over its rows (`points_by_source`, `symbols`, `margin_summary`)
POLICY_QUANTITIES = (*SOURCES, "score", *EVENT_COUNTERS, "margin")
# quantities of the whole game, read at seat 0 (`game_length`, `first_player`, `end_triggers`)
GAME_QUANTITIES = ("rounds", "actions", "win_share", "margin", *(f"ended_by_{t}" for t in END_TRIGGERS))
ZOO_KEYS = {
    "zoo.policy": ("policy", "quantity"),  # n, total, squares, fired (rows where it is above 0)
    "zoo.margins": ("policy", "value"),  # games ending with each margin
    "zoo.leaders": ("source", "policy"),  # games with a leader in the source, whose policy, and the leader's wins
    "zoo.first_seat": ("quantity",),  # n, total, squares at seat 0
    "zoo.rounds": ("rounds",),  # games lasting each number of rounds
}


def zoo_summary(raw: pd.DataFrame, rules: Any, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """One task's part of the zoo's tables: the parts `ZOO_KEYS` names, each adding up over tasks."""
    import pandas as pd

    games = raw[raw["seat"] == 0]
    policy = [(key, name, *moments(group[name]), int((group[name] > 0).sum()))
              for key, group in raw.groupby("policy", sort=True) for name in POLICY_QUANTITIES]
    margins = raw.groupby(["policy", "margin"], sort=True).size()
    leaders = []
    seats = _seat_pairs(raw)
    for source in (*SOURCES, "coins"):
        g = _leader_wins(seats, source).groupby("policy", sort=True)["won"]
        leaders += [(source, key, int(n), float(w)) for key, n, w in zip(g.size().index, g.size(), g.sum(),
                                                                          strict=True)]
    rounds = games.groupby("rounds", sort=True).size()
    return {
        "zoo.policy": pd.DataFrame(policy, columns=["policy", "quantity", "n", "total", "squares", "fired"]),
        "zoo.margins": pd.DataFrame({"policy": margins.index.get_level_values(0),
                                     "value": margins.index.get_level_values(1).astype(np.int64),
                                     "games": margins.to_numpy(dtype=np.int64)}),
        "zoo.leaders": pd.DataFrame(leaders, columns=["source", "policy", "games", "wins"]).astype(
            {"games": np.int64, "wins": float}),
        "zoo.first_seat": pd.DataFrame([(name, *moments(games[name])) for name in GAME_QUANTITIES],
                                       columns=["quantity", "n", "total", "squares"]),
        "zoo.rounds": pd.DataFrame({"rounds": rounds.index.to_numpy(dtype=np.int64),
                                    "games": rounds.to_numpy(dtype=np.int64)}),
    }


ZOO_SUMMARY = TaskSummary(ZOO_KEYS, zoo_summary)


def zoo_tables(raw: pd.DataFrame | Totals, rules: Any, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """Score per policy and seat, points by source, symbols, margins, game length, first player, end triggers."""
    import pandas as pd

    if isinstance(raw, Totals):
        return _zoo_tables_from_totals(raw)
    by_policy = raw.groupby("policy", sort=True)
    games = raw[raw["seat"] == 0]  # one row per game
    margin_summary, margins = _margins(by_policy)
    length, rounds = _game_length(games)
    return {
        "by_policy_and_seat": _by_policy_and_seat(raw),
        "points_by_source": pd.DataFrame(_mean_rows(by_policy, (*SOURCES, "score"), "source")),
        "leader_wins": _leaders(raw),
        "symbols": _symbols(by_policy),
        "margin_summary": margin_summary,
        "margin_distribution": margins,
        "game_length": length,
        "rounds_distribution": rounds,
        "first_player": _first_player(games),
        "end_triggers": _end_triggers(games),
    }


def _by_policy_and_seat(raw: pd.DataFrame) -> pd.DataFrame:
    """Each policy's win rate and mean score in each seat, with their intervals."""
    import pandas as pd

    seated = raw.groupby(["policy", "seat"], sort=True)
    per_seat = pd.DataFrame(
        {
            "games": seated.size(),
            "wins": seated["win_share"].sum(),
            "mean_score": seated["score"].mean(),
            "sd_score": seated["score"].std(ddof=1),
        }
    )
    per_seat["win_rate"] = per_seat["wins"] / per_seat["games"]
    per_seat["win_low"], per_seat["win_high"] = stats.wilson_interval(per_seat["wins"], per_seat["games"])
    per_seat["score_low"], per_seat["score_high"] = stats.t_interval(
        per_seat["mean_score"], per_seat["sd_score"], per_seat["games"]
    )
    return per_seat.reset_index()


def _symbols(by_policy) -> pd.DataFrame:
    """Each event counter's mean per game, and the share of games in which it happened at least once."""
    import pandas as pd

    symbols = pd.DataFrame(_mean_rows(by_policy, EVENT_COUNTERS, "counter"))
    fired = [
        (policy, column, int((group[column] > 0).sum()), len(group))
        for policy, group in by_policy
        for column in EVENT_COUNTERS
    ]
    k = np.array([f[2] for f in fired])
    n = np.array([f[3] for f in fired])
    symbols["share_of_games"] = k / n
    symbols["share_low"], symbols["share_high"] = stats.wilson_interval(k, n)
    return symbols


def _margins(by_policy) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The mean final margin per policy, and the share of games ending with each margin."""
    import pandas as pd

    summary = pd.DataFrame(_mean_rows(by_policy, ("margin",), "quantity"))
    margins = []
    for policy, group in by_policy:
        margins += _share_rows(group["margin"].value_counts().sort_index(), len(group), policy=policy)
    return summary.drop(columns="quantity"), pd.DataFrame(margins)


def _game_length(games: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Mean rounds and actions per game, and the share of games lasting each number of rounds."""
    import pandas as pd

    length = pd.DataFrame(
        [
            dict(
                zip(
                    ("quantity", "mean", "ci_low", "ci_high"),
                    (column, *stats.mean_interval(games[column])),
                    strict=True,
                )
            )
            for column in ("rounds", "actions")
        ]
    )
    rounds = pd.DataFrame(_share_rows(games["rounds"].value_counts().sort_index(), len(games)))
    return length, rounds.rename(columns={"value": "rounds"})


def _first_player(games: pd.DataFrame) -> pd.DataFrame:
    """Seat 0's win rate and mean margin."""
    import pandas as pd

    n_games = len(games)
    wins = games["win_share"].sum()
    win_low, win_high = stats.wilson_interval(wins, n_games)
    adv, adv_low, adv_high = stats.mean_interval(games["margin"])
    return pd.DataFrame(
        [
            {
                "games": n_games,
                "first_player_win_rate": wins / n_games,
                "win_low": float(win_low),
                "win_high": float(win_high),
                "first_player_margin": adv,
                "margin_low": adv_low,
                "margin_high": adv_high,
            }
        ]
    )


def _end_triggers(games: pd.DataFrame) -> pd.DataFrame:
    """The share of games whose final round each trigger began."""
    import pandas as pd

    ended = pd.Series({t: games[f"ended_by_{t}"].sum() for t in END_TRIGGERS})
    return pd.DataFrame(_share_rows(ended, len(games))).rename(columns={"value": "ended_by"})


def _leaders(raw: pd.DataFrame) -> pd.DataFrame:
    """Per source of points (and coins): in the games where one player got more from it, how often that
    player won."""
    import pandas as pd

    leaders = []
    seats = _seat_pairs(raw)
    for source in SOURCES + ("coins",):
        won = _leader_wins(seats, source)["won"]
        low, high = stats.wilson_interval(won.sum(), len(won))
        leaders.append(
            {
                "source": source,
                "games_with_a_leader": len(won),
                "leader_win_rate": won.mean(),
                "ci_low": float(low),
                "ci_high": float(high),
            }
        )
    return pd.DataFrame(leaders)


def _zoo_tables_from_totals(totals: Totals) -> dict[str, pd.DataFrame]:
    """`zoo_tables` from the added-up task summaries (`ZOO_SUMMARY` and the core's `game.seated`)."""
    import pandas as pd

    policy = totals["zoo.policy"].set_index(["policy", "quantity"])
    policies = list(dict.fromkeys(policy.index.get_level_values("policy")))

    def means(quantities, label: str) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame([
            {"policy": key, label: name,
             **dict(zip(("mean", "ci_low", "ci_high"), moment_interval(*policy.loc[(key, name), ["n", "total",
                                                                                              "squares"]]),
                        strict=True))}
            for key in policies for name in quantities])

    symbols = means(EVENT_COUNTERS, "counter")
    fired = policy.loc[[(key, name) for key in policies for name in EVENT_COUNTERS]]
    k, n = fired["fired"].to_numpy(), fired["n"].to_numpy()
    symbols["share_of_games"] = k / n
    symbols["share_low"], symbols["share_high"] = stats.wilson_interval(k, n)

    margins = []
    for key, part in totals["zoo.margins"].groupby("policy", sort=True):
        counts = pd.Series(part["games"].to_numpy(), index=pd.Index(part["value"].to_numpy(), name="margin"))
        margins += _share_rows(counts.sort_index(), int(policy.loc[(key, "margin"), "n"]), policy=key)

    first = totals["zoo.first_seat"].set_index("quantity")
    n_games = int(first.loc["rounds", "n"])
    length = pd.DataFrame([
        dict(zip(("quantity", "mean", "ci_low", "ci_high"),
                 (name, *moment_interval(*first.loc[name, ["n", "total", "squares"]])), strict=True))
        for name in ("rounds", "actions")])
    lasted = totals["zoo.rounds"]
    rounds = pd.DataFrame(_share_rows(pd.Series(lasted["games"].to_numpy(), index=lasted["rounds"].to_numpy()),
                                      n_games)).rename(columns={"value": "rounds"})
    wins = float(first.loc["win_share", "total"])
    win_low, win_high = stats.wilson_interval(wins, n_games)
    adv, adv_low, adv_high = moment_interval(*first.loc["margin", ["n", "total", "squares"]])
    first_player = pd.DataFrame([{"games": n_games, "first_player_win_rate": wins / n_games, "win_low": float(win_low),
                                  "win_high": float(win_high), "first_player_margin": adv, "margin_low": adv_low,
                                  "margin_high": adv_high}])
    ended = pd.Series({t: first.loc[f"ended_by_{t}", "total"] for t in END_TRIGGERS})

    leaders = totals["zoo.leaders"].drop(columns="policy").groupby("source", sort=False).sum()
    leader_rows = []
    for source in (*SOURCES, "coins"):
        games, won = (int(leaders.loc[source, "games"]), float(leaders.loc[source, "wins"])) \
            if source in leaders.index else (0, 0.0)
        low, high = stats.wilson_interval(won, games)
        leader_rows.append({"source": source, "games_with_a_leader": games,
                            "leader_win_rate": won / games if games else float("nan"),
                            "ci_low": float(low), "ci_high": float(high)})
    return {
        "by_policy_and_seat": _by_policy_and_seat_from_totals(totals),
        "points_by_source": means((*SOURCES, "score"), "source"),
        "leader_wins": pd.DataFrame(leader_rows),
        "symbols": symbols,
        "margin_summary": means(("margin",), "quantity").drop(columns="quantity"),
        "margin_distribution": pd.DataFrame(margins),
        "game_length": length,
        "rounds_distribution": rounds,
        "first_player": first_player,
        "end_triggers": pd.DataFrame(_share_rows(ended, n_games)).rename(columns={"value": "ended_by"}),
    }


def _by_policy_and_seat_from_totals(totals: Totals) -> pd.DataFrame:
    """`_by_policy_and_seat` from the core's `game.seated` part."""
    import pandas as pd

    part = totals["game.seated"].set_index(["policy", "seat"]).sort_index()
    mean, sd = moment_estimates(part["games"], part["score"], part["score_squares"])
    per_seat = pd.DataFrame({"games": part["games"], "wins": part["wins"], "mean_score": mean, "sd_score": sd},
                            index=part.index)
    per_seat["win_rate"] = per_seat["wins"] / per_seat["games"]
    per_seat["win_low"], per_seat["win_high"] = stats.wilson_interval(per_seat["wins"], per_seat["games"])
    per_seat["score_low"], per_seat["score_high"] = stats.t_interval(
        per_seat["mean_score"], per_seat["sd_score"], per_seat["games"]
    )
    return per_seat.reset_index()


def zoo_figures(tables: dict[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> dict[str, Any]:
    """Mean points by source per policy, and the margin distribution."""
    import matplotlib.pyplot as plt

    out = {}
    sources = tables["points_by_source"]
    fig, ax = plt.subplots(figsize=(7, 4))
    policies = list(dict.fromkeys(sources["policy"]))
    width = 0.8 / max(1, len(policies))
    for i, policy in enumerate(policies):
        part = sources[sources["policy"] == policy]
        x = np.arange(len(part)) + i * width
        err = [part["mean"] - part["ci_low"], part["ci_high"] - part["mean"]]
        ax.bar(x, part["mean"], width, yerr=err, label=str(policy), capsize=3)
    labels = list(dict.fromkeys(sources["source"]))  # every policy has the same sources, in this order
    ax.set_xticks(np.arange(len(labels)) + width * (len(policies) - 1) / 2, labels, rotation=15)
    ax.set_ylabel("mean points per game (95% interval)")
    legend_outside(ax, title="policy")
    fig.tight_layout()
    out["points_by_source"] = fig

    margins = tables["margin_distribution"]
    fig, ax = plt.subplots(figsize=(7, 4))
    for policy, part in margins.groupby("policy", sort=True):
        ax.plot(part["value"], part["share"], marker="o", label=str(policy))
    ax.set_xlabel("final margin (own score - opponent's)")
    ax.set_ylabel("share of games")
    legend_outside(ax, title="policy")
    fig.tight_layout()
    out["margin_distribution"] = fig
    return out


# the compiled engine (`compiled.py`, `compiled_policies.py`): the same games as the object engine, in numba
COMPILED = CompiledEngine("tyrsim.games.zooloretto_duell.compiled", "tyrsim.games.zooloretto_duell.compiled_policies",
                          "the random, greedy and heuristic policies",
                          search=("ismcts", "tyrsim.games.zooloretto_duell.compiled_search"),
                          game=NAME, policy_table=POLICIES)


def zoo_ev_analysis(name: str, default_policies: tuple[str, ...]) -> ForGame:
    """The `game` study of every game, with the zoo's tables and either engine (built with the game's spec)."""
    return game_analysis(
        default_policies,
        name=name,
        summary="expected final score per seat and policy, by source, with symbol rates, margins and game length",
        extra_tables=zoo_tables,
        extra_summary=ZOO_SUMMARY,
        extra_figures=zoo_figures,
        extra_outputs=(
            ("by_policy_and_seat", "points_by_source", "leader_wins", "symbols", "margin_summary",
             "margin_distribution", "game_length", "rounds_distribution", "first_player", "end_triggers"),
            ("points_by_source", "margin_distribution"),
        ),
        extra_findings=findings.extra_findings,
        extra_glossary=findings.GLOSSARY,
    ).then(functools.partial(_zoo_ev, name))


def _zoo_ev(name: str, analysis: Analysis) -> Analysis:
    # the zoo-ev page answers what a zoo is worth before the shared sentences of the game page
    answer = {"findings": findings.zoo_ev_findings} if name == "zoo-ev" else {}
    return COMPILED.with_engine(
        replace(analysis, metrics={**analysis.metrics, "marker_leader_win_rate": MARKER_LEADER}, **answer))


ANALYSES = {
    "game": zoo_ev_analysis("game", ("heuristic", "heuristic")),
    "zoo-ev": zoo_ev_analysis("zoo-ev", ("heuristic", "heuristic")),
    "rate": rating_analysis(("heuristic", "greedy", "random"), 2),
    "ladder": ladder_analysis(("random", "greedy", "heuristic", "ismcts"), 2),
    "trace": trace_analysis("ismcts", 2),
    "explore": explore_analysis(
        ("heuristic", "heuristic"), ("money_action_cost=1:4", "majority_points=0:3", "coins_per_point=1:4"),
    ),
    "rulings": rulings_analysis(("heuristic", "greedy")),
    # a closer finish: the coin and majority values that bring the winning margin down without longer games or
    # more games decided by the tie-break
    "balance": balance_analysis(
        ("heuristic:weights=bundled:heuristic_tuned.toml",) * 2,
        ("money_action_cost=1:4", "coins_per_point=1:4", "majority_points=0:3"),
        ("mean_margin<=4", "share_decided_by_tiebreak<=0.05", "mean_rounds<=12"),
    ),
}
