"""Balance measures of a game, with intervals, from a simulate table (one row per game and seat).

- seat advantage: each seat's win rate against the fair 1/n, and the largest gap between seats;
- balance: how evenly wins spread over seats (1 = perfectly even), with a chi-square test;
- duration: rounds (or actions) per game: mean, spread, quantiles;
- decisiveness: the score margin between first and second place, and the share of games
  decided by the tie-break;
- lead changes, where the engine records them (`lead_changes` per game);
- skill gap: a policy's win rate against another minus the fair share (see `skill_gap`).

Wins are counted as `win_share` (a shared victory splits the win), so win rates of a
game's seats always add up to 1. Intervals that are not a plain proportion or mean
come from a seeded percentile bootstrap over games (scipy.stats.bootstrap).
See docs/metrics.md for what a designer should read into each measure.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from tyrsim.core import stats

BOOTSTRAP = 999
BOOTSTRAP_SEED = 12345


def _per_game(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per game: seats' win shares as columns s0..s{n-1}."""
    return raw.pivot(index="game_id", columns="seat", values="win_share").sort_index()


def _bootstrap_interval(data: np.ndarray, statistic, seed: int = BOOTSTRAP_SEED) -> tuple[float, float]:
    """Percentile bootstrap interval of statistic(rows) over the rows of `data` (games)."""
    if len(data) < 2:
        return float("nan"), float("nan")
    result = sps.bootstrap((np.arange(len(data)),), lambda idx: statistic(data[idx.astype(int)]),
                           n_resamples=BOOTSTRAP, method="percentile", random_state=np.random.default_rng(seed),
                           vectorized=False)
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def seat_advantage(raw: pd.DataFrame) -> pd.DataFrame:
    """Per seat: win rate with a Wilson interval, its excess over 1/n, and a two-sided test against 1/n."""
    n_seats = raw["seat"].nunique()
    fair = 1 / n_seats
    rows = []
    for seat, group in raw.groupby("seat", sort=True):
        games, wins = len(group), group["win_share"].sum()
        low, high = stats.wilson_interval(wins, games)
        z = (wins / games - fair) / np.sqrt(fair * (1 - fair) / games)
        rows.append({"seat": seat, "games": games, "win_rate": wins / games, "ci_low": float(low),
                     "ci_high": float(high), "fair": fair, "excess": wins / games - fair,
                     "p_value": float(2 * sps.norm.sf(abs(z)))})
    return pd.DataFrame(rows)


def _balance(shares: np.ndarray) -> float:
    """1 - total variation distance of seat win rates from uniform, scaled to [0, 1]."""
    rates = shares.mean(axis=0)
    n = len(rates)
    return 1 - 0.5 * np.abs(rates - 1 / n).sum() / (1 - 1 / n)


def _gap(shares: np.ndarray) -> float:
    rates = shares.mean(axis=0)
    return float(rates.max() - rates.min())


def balance_metrics(raw: pd.DataFrame, intervals: bool = True) -> pd.DataFrame:
    """The headline measures, one row each: value, interval, and how it was computed.

    `intervals=False` skips the bootstrap intervals (for many rule points at once).
    """
    shares = _per_game(raw).to_numpy()

    def _bootstrap(data, statistic):
        return _bootstrap_interval(data, statistic) if intervals else (float("nan"), float("nan"))

    games = len(shares)
    rows = []

    gap = _gap(shares)
    rows.append(("largest_seat_gap", gap, *_bootstrap(shares, _gap), "best minus worst seat win rate; bootstrap"))
    chi = sps.chisquare(shares.sum(axis=0)) if shares.shape[1] > 1 else None
    rows.append(("balance", _balance(shares), *_bootstrap(shares, _balance),
                 "1 = every seat wins equally often; bootstrap"
                 + (f"; chi-square p = {chi.pvalue:.3g}" if chi is not None else "")))

    per_game = raw.drop_duplicates("game_id").set_index("game_id").sort_index()
    length = "rounds" if "rounds" in per_game.columns else "actions"
    mean, low, high = stats.mean_interval(per_game[length])
    rows.append((f"mean_{length}", mean, low, high, "t interval"))
    rows.append((f"sd_{length}", float(per_game[length].std(ddof=1)), float("nan"), float("nan"), "spread"))

    scores = raw.pivot(index="game_id", columns="seat", values="score").to_numpy()
    ordered = np.sort(scores, axis=1)
    margin = ordered[:, -1] - ordered[:, -2] if scores.shape[1] > 1 else np.zeros(games)
    mean, low, high = stats.mean_interval(margin)
    rows.append(("mean_margin", mean, low, high, "first minus second score; t interval"))
    top_tied = (scores == ordered[:, -1:]).sum(axis=1) > 1
    winners = raw.groupby("game_id")["won"].sum().sort_index().to_numpy()
    by_tiebreak = int(np.sum(top_tied & (winners == 1)))
    shared = int(np.sum(winners > 1))
    for name, k, how in (("share_decided_by_tiebreak", by_tiebreak, "top score tied, one winner; Wilson"),
                         ("share_shared_victory", shared, "several winners; Wilson")):
        low, high = stats.wilson_interval(k, games)
        rows.append((name, k / games, float(low), float(high), how))

    if "lead_changes" in per_game.columns:
        mean, low, high = stats.mean_interval(per_game["lead_changes"])
        rows.append(("mean_lead_changes", mean, low, high, "t interval"))
    return pd.DataFrame(rows, columns=["metric", "value", "ci_low", "ci_high", "how"])


def skill_gap(strong_vs_random: pd.DataFrame, strong: str, self_play: pd.DataFrame | None = None) -> pd.DataFrame:
    """How much skill matters.

    `strong_vs_random`: games of `strong` against `random` (seats rotated): the
    strong policy's win rate minus its fair share, with a Wilson interval.
    `self_play`: games of `strong` against itself: the largest seat gap there is
    the part of any edge that seat order alone explains.
    """
    mine = strong_vs_random[strong_vs_random["policy"] == strong]
    games, wins = len(mine), mine["win_share"].sum()
    fair = 1 / strong_vs_random["seat"].nunique()
    low, high = stats.wilson_interval(wins, games)
    rows = [("skill_gap_vs_random", wins / games - fair, float(low) - fair, float(high) - fair,
             f"{strong} win rate against random minus 1/n; Wilson")]
    if self_play is not None:
        shares = _per_game(self_play).to_numpy()
        rows.append(("self_play_seat_gap", _gap(shares), *_bootstrap_interval(shares, _gap),
                     f"{strong} against itself: best minus worst seat; bootstrap"))
    return pd.DataFrame(rows, columns=["metric", "value", "ci_low", "ci_high", "how"])
