"""The studio's live answer: what the games played so far say, under the variant and under the rulebook's rules,
with anytime-valid intervals (`tyrsim.core.stats.anytime`) that stay honest however often the page is read.

Each game gives one value per measure (`game_measures`): every seat's win share (a game's win split among its
winners), every policy's where the seats hold more than one, every seat's score and the mean score, the
winning margin, the game's length, whether a tie-break decided it, and each of the game's own counters (the
engine's columns beyond the common ones, as the `game` analysis's counter table and the `rulings` study read them:
a game's value is the mean over its seats that have one). Game g is played under both rule sets from its own
stream (common random numbers), so the two values of a game pair up, and the difference of their means is the
mean of the games' differences: a share's difference lies in [-1, 1] (the empirical-Bernstein sequence, narrow
where most games come out the same), a mean's has no bound known ahead (the asymptotic sequence). A counter
that a game may leave without a value (Tyranno Ex's `five_round` where no five marker was used) is read over
the games that have one, and its difference over the games that have one under both rule sets. `Tally` keeps
running sums only, never the games' rows.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from tyrsim.core.report import words
from tyrsim.core.stats.anytime import BoundedMean, proportion_interval, running_sums, unbounded_mean_interval
from tyrsim.core.stats.metrics import per_game_measures, seat_grid
from tyrsim.core.studies.game import BASE_COLUMNS

SHARE, MEAN = "share", "mean"
COUNTER = "counter"  # a game's own counter: a mean with no bound known ahead, shown in a table of its own
FIRST_SEAT = "seat 1 win rate"  # the headline: the first seat's share of the wins
SEAT_SCORE = re.compile(r"seat \d+ score")  # the measures that are a seat's final score
MEANS_FROM = 100  # games before a mean's (asymptotic) interval is shown
# the per-game measures of `metrics.per_game_measures` the page shows, by the names it shows them under
_PER_GAME = {"mean_score": ("mean score", MEAN), "margin": ("winning margin", MEAN), "actions": ("actions", MEAN),
             "rounds": ("rounds", MEAN), "decided_by_tiebreak": ("decided by a tie-break", SHARE)}


def game_measures(raw: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, str]]:
    """One row per game (in game order), one column per measure, and each measure's kind (SHARE or MEAN), from
    a table of games (`runner.play_chunk`'s: one row per game and seat), read from its games x seats grids
    (`metrics.seat_grid`): a chunk's measures cost little beside its games."""
    seats, shares = seat_grid(raw, "win_share")
    scores = seat_grid(raw, "score")[1].astype(float)
    columns: dict[str, np.ndarray] = {}
    kinds: dict[str, str] = {}
    for i, seat in enumerate(seats):
        columns[f"seat {seat + 1} win rate"], kinds[f"seat {seat + 1} win rate"] = shares[:, i], SHARE
    policies = sorted(raw["policy"].unique())
    if len(policies) > 1:  # a policy's share of a game's win: its seats' shares together; its score: their mean
        held = seat_grid(raw, "policy")[1]
        for policy in policies:
            name, mine = words.policy_name(policy), held == policy
            count = mine.sum(axis=1)
            with np.errstate(invalid="ignore"):
                columns[f"{name} win rate"] = np.where(count > 0, np.where(mine, shares, 0.0).sum(axis=1), np.nan)
                columns[f"{name} score"] = np.where(mine, scores, 0.0).sum(axis=1) / count
            kinds[f"{name} win rate"], kinds[f"{name} score"] = SHARE, MEAN
    for i, seat in enumerate(seats):
        columns[f"seat {seat + 1} score"], kinds[f"seat {seat + 1} score"] = scores[:, i], MEAN
    per_game = per_game_measures(raw)
    for column, (name, kind) in _PER_GAME.items():
        if column in per_game.columns:
            columns[name], kinds[name] = per_game[column].to_numpy(dtype=float), kind
    # the game's own counters, but those shown above under their own names (the rounds; Zooloretto Duell's
    # `margin`, a seat's own score minus the other's, which averages to zero over the seats)
    counters = [c for c, kind in raw.dtypes.items() if c not in BASE_COLUMNS and c not in _PER_GAME
                and pd.api.types.is_numeric_dtype(kind)]
    kinds.update(dict.fromkeys(counters, COUNTER))
    # one float block (a frame of many columns from a dict costs more than the counters' means)
    table = np.column_stack([*columns.values(), _game_means(raw, counters)])
    return pd.DataFrame(table, index=per_game.index, columns=[*columns, *counters]), kinds


def _game_means(raw: pd.DataFrame, columns: list[str]) -> np.ndarray:
    """Each game's mean of `columns` over its seats, as a games x columns array, games in id order: what
    `raw.groupby("game_id")[columns].mean()` holds (a seat without a value, NaN, left out; NaN where no seat
    has one, as a counter of something that did not happen), summed by numpy over each game's rows."""
    games, game_of_row, seats = np.unique(raw["game_id"].to_numpy(), return_inverse=True, return_counts=True)
    if not columns:
        return np.empty((len(games), 0))
    rows = raw[columns].to_numpy(dtype=float)[np.argsort(game_of_row, kind="stable")]
    starts = np.concatenate(([0], np.cumsum(seats)[:-1]))
    seen = np.isfinite(rows)
    with np.errstate(invalid="ignore"):
        return np.add.reduceat(np.where(seen, rows, 0.0), starts, axis=0) / np.add.reduceat(seen, starts, axis=0)


@dataclass
class _Moments:
    """Running count, sum and sum of squares of each measure, added game by game (the same floats whatever the
    chunks); a game without a value of a measure (NaN: a counter of something that did not happen) is left out
    of that measure's count."""

    n: np.ndarray | int = 0
    total: np.ndarray | float = 0.0
    squares: np.ndarray | float = 0.0

    def add(self, values: np.ndarray) -> None:
        seen = np.isfinite(values)
        values = np.where(seen, values, 0.0)
        self.n = self.n + seen.sum(axis=0)
        self.total = running_sums(self.total, values.T)[..., -1]
        self.squares = running_sums(self.squares, (values * values).T)[..., -1]

    def mean_sd(self) -> tuple[np.ndarray, np.ndarray]:
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = self.total / self.n
            sd = np.sqrt(np.clip(self.squares - self.total * mean, 0, None) / (self.n - 1))
        return mean, sd


@dataclass
class Row:
    """One measure of the answer: its estimate and anytime interval under each rule set, and their difference."""

    measure: str
    kind: str
    rulebook: tuple[float, float, float]
    variant: tuple[float, float, float]
    difference: tuple[float, float, float]

    @property
    def differs(self) -> bool:
        """Whether the difference's interval excludes zero: only then does the page state a difference."""
        _, low, high = self.difference
        return bool(low > 0 or high < 0)

    def shown(self, which: str) -> str:
        value, low, high = getattr(self, which)
        if self.kind == SHARE:
            return words.percent(value, low, high) if which != "difference" else _signed_points(value, low, high)
        digits = words.digits_for((high - low) / 2 if np.isfinite(high - low) else None, value=value)
        return words.number(value, low, high, digits)


def _signed_points(value: float, low: float, high: float) -> str:
    """A difference of shares in signed percentage points with its interval: "-3.9 [-4.8, -3.0] points"."""
    if not np.isfinite(value):
        return words.NOT_COMPUTABLE
    text = f"{words.fixed(100 * value, 1)}"
    if np.isfinite(low) and np.isfinite(high):
        text += f" [{words.fixed(100 * low, 1)}, {words.fixed(100 * high, 1)}]"
    return text + " points"


@dataclass
class Tally:
    """The running sums of the games played so far under the variant and the rulebook's rules, game by game."""

    measures: list[str] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    games: int = 0
    _variant: _Moments = field(default_factory=_Moments)
    _rulebook: _Moments = field(default_factory=_Moments)
    _difference: _Moments = field(default_factory=_Moments)
    _share_differences: BoundedMean | None = None
    # how often each final score (rounded to a whole point) came up at any seat: {score: count}, per rule set
    scores: tuple[Counter, Counter] = field(default_factory=lambda: (Counter(), Counter()))

    def add(self, variant: pd.DataFrame, rulebook: pd.DataFrame, kinds: dict[str, str]) -> None:
        """Add the same games (`game_measures` of each rule set, rows in the same game order)."""
        if not self.measures:
            self.measures, self.kinds = list(variant.columns), dict(kinds)
            shares = sum(kind == SHARE for kind in kinds.values())
            self._share_differences = BoundedMean(-1.0, 1.0, shape=(shares,))
        if not variant.index.equals(rulebook.index):
            raise ValueError("the two rule sets' games do not pair up")
        v = variant.reindex(columns=self.measures).to_numpy(dtype=float)
        b = rulebook.reindex(columns=self.measures).to_numpy(dtype=float)
        self._variant.add(v)
        self._rulebook.add(b)
        self._difference.add(v - b)
        share = np.array([self.kinds[m] == SHARE for m in self.measures])
        self._share_differences.add((v - b)[:, share].T)
        for counter, table in zip(self.scores, (variant, rulebook), strict=True):
            seats = table[[m for m in self.measures if SEAT_SCORE.fullmatch(m)]].to_numpy(dtype=float)
            counter.update(np.rint(seats[np.isfinite(seats)]).astype(int).tolist())
        self.games += len(v)

    def rows(self) -> list[Row]:
        """Every measure's row, in the order `game_measures` gives them."""
        if not self.games:
            return []
        share = np.array([self.kinds[m] == SHARE for m in self.measures])

        def interval(moments: _Moments) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            mean, sd = moments.mean_sd()
            low, high = unbounded_mean_interval(moments.n, mean, sd)
            share_low, share_high = proportion_interval(moments.n, mean)
            shown_means = moments.n >= MEANS_FROM
            return (mean, np.where(share, share_low, np.where(shown_means, low, np.nan)),
                    np.where(share, share_high, np.where(shown_means, high, np.nan)))

        variant, rulebook, difference = interval(self._variant), interval(self._rulebook), interval(self._difference)
        share_low, share_high = self._share_differences.interval()
        difference[1][share], difference[2][share] = share_low, share_high
        return [Row(m, self.kinds[m], *(tuple(float(part[i]) for part in which)
                                         for which in (rulebook, variant, difference)))
                for i, m in enumerate(self.measures)]
