"""Balance measures of a game, with intervals, from a simulate table (one row per game and seat).

- seat advantage: each seat's win rate against the fair 1/n, the chi-square test of equal
  seats, a plain statement of what it shows, and the largest gap between seats;
- balance: how evenly wins spread over seats (1 = perfectly even);
- duration: rounds (or actions) per game: mean, spread, quantiles;
- decisiveness: the score margin between first and second place, and the share of games
  decided by the tie-break;
- lead changes, where the engine records them (`lead_changes` per game);
- skill gap: a policy's win rate against another minus the fair share (see `skill_gap`).

Wins are counted as `win_share` (a shared victory splits the win), so win rates of a
game's seats always add up to 1.

The seat gap and the balance are functions of all seats' win rates, and their plug-in
values are biased away from "fair": even a perfectly fair game shows a gap from noise.
So (see `seat_balance`) their point values are bias-corrected, and their intervals invert
the chi-square test: the interval holds the gap (balance) of every vector of seat
win probabilities the data do not reject, and so includes 0 (1) exactly when equal seats
are not rejected. See docs/metrics.md for what a designer should read into each measure.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tyrsim.core.engine.analysis import Totals, moment_estimates, moment_interval, moments
from tyrsim.core.stats import intervals as stats

if TYPE_CHECKING:
    import pandas as pd

BIAS_DRAWS = 2000
BIAS_SEED = 12345


def win_shares(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per game (in game order): the seats' win shares as columns 0..n-1."""
    return raw.pivot(index="game_id", columns="seat", values="win_share").sort_index()


def seat_advantage(raw: pd.DataFrame) -> pd.DataFrame:
    """Per seat: win rate with a Wilson interval, its excess over 1/n, and a two-sided test against 1/n."""
    import pandas as pd
    from scipy import special  # here, not at the top: see tyrsim.core.stats.intervals

    n_seats = raw["seat"].nunique()
    fair = 1 / n_seats
    rows = []
    for seat, group in raw.groupby("seat", sort=True):
        games, wins = len(group), group["win_share"].sum()
        low, high = stats.wilson_interval(wins, games)
        z = (wins / games - fair) / np.sqrt(fair * (1 - fair) / games)
        rows.append({"seat": seat, "games": games, "win_rate": wins / games, "ci_low": float(low),
                     "ci_high": float(high), "fair": fair, "excess": wins / games - fair,
                     "p_value": float(2 * special.ndtr(-abs(z)))})  # the normal tail: stats.norm.sf
    return pd.DataFrame(rows)


def gap_of(rates: np.ndarray) -> np.ndarray:
    """Best minus worst seat win rate (over the last axis)."""
    return rates.max(axis=-1) - rates.min(axis=-1)


def balance_of(rates: np.ndarray) -> np.ndarray:
    """1 - total variation distance of seat win rates from uniform, scaled to [0, 1] (over the last axis)."""
    k = rates.shape[-1]
    return 1 - 0.5 * np.abs(rates - 1 / k).sum(axis=-1) / (1 - 1 / k)


# Both measures are maxima of linear functions of the seat win probabilities p:
# gap = max over seats i != j of p_i - p_j; total variation from uniform = max over
# subsets S of the sum over S of (p_s - 1/k). `_pieces` gives those functions as
# rows a (with offsets b) of a . p + b, so their extent over a convex set is a set
# of small convex programs.
def _pieces(k: int, measure: str) -> tuple[np.ndarray, np.ndarray]:
    if measure == "gap":
        a = np.array([np.eye(k)[i] - np.eye(k)[j] for i, j in itertools.permutations(range(k), 2)])
        return a, np.zeros(len(a))
    subsets = [np.isin(np.arange(k), s).astype(float) for m in range(1, k) for s in itertools.combinations(range(k), m)]
    a = np.array(subsets)
    return a, -a.sum(axis=1) / k


def _support(c: np.ndarray, rates: np.ndarray, bound: float) -> tuple[np.ndarray, np.ndarray]:
    """max of c . p over the seat win-probability vectors p with sum(rates^2 / p) <= bound, and the maximiser.

    `c` holds one objective per row. Lagrange conditions give, for the seats that
    won, p_s = C r_s / sqrt(nu - c_s); the two constraints fix C and nu through
    h(nu) = sum(r sqrt(nu - c)) * sum(r / sqrt(nu - c)) = bound, which falls from
    infinity to 1 as nu grows past the largest c_s of a seat that won (solved by
    bisection on log(nu - that c_s)). A seat that never won adds nothing to the
    constraint: it takes what is left when its c_s is above every such nu.
    """
    c = np.atleast_2d(c)
    won = rates > 0
    r = rates[won]
    cw = c[:, won]
    top = cw.max(axis=1)
    spare = np.where(won, -np.inf, c).max(axis=1)  # best objective among the seats that never won
    flat = np.ptp(cw, axis=1) <= 1e-12 * np.maximum(1.0, np.abs(top))

    def h(nu):
        root = np.sqrt(np.maximum(nu[:, None] - cw, 1e-300))
        return (root * r).sum(axis=1) * (r / root).sum(axis=1)

    use_spare = (spare > top) & (h(np.where(spare > top, spare, top + 1.0)) <= bound)
    low_end = np.maximum(top, spare)
    lo, hi = np.full(len(c), -60.0), np.full(len(c), 15.0)
    for _ in range(64):  # 75 / 2^64: far below a double's resolution of nu
        mid = (lo + hi) / 2
        above = h(low_end + np.exp(mid)) > bound
        lo, hi = np.where(above, mid, lo), np.where(above, hi, mid)
    nu = np.where(use_spare, spare, low_end + np.exp(hi))
    root = np.sqrt(np.maximum(nu[:, None] - cw, 1e-300))
    scale = (root * r).sum(axis=1) / bound
    p = np.zeros_like(c, dtype=float)
    p[:, won] = scale[:, None] * r / root
    leftover = 1 - p.sum(axis=1)
    spare_seat = np.argmax(np.where(won, -np.inf, c), axis=1)
    p[np.arange(len(c)), spare_seat] += np.where(use_spare, leftover, 0.0)
    # all seats that won share one objective value (and no other seat is better): any split of them is best
    p[flat & ~use_spare] = rates
    return (c * p).sum(axis=1), p


def _extent(rates: np.ndarray, games: int, confidence: float, measure: str) -> tuple[float, float]:
    """Lowest and highest value of max(a . p + b) over the seat win-probability vectors p not rejected.

    Not rejected: Pearson's chi-square of the observed rates against p,
    games * sum((r - p)^2 / p) = games * (sum(r^2 / p) - 1), at most its
    `confidence` critical value with k - 1 degrees of freedom. That set is convex:
    the highest value is the largest of the pieces' maxima (`_support`), and the
    lowest comes from the dual problem, the largest over weights w >= 0 summing to 1
    of w . b + min over p of (sum w a) . p, a concave maximisation over the
    weights alone (scipy's SLSQP).
    """
    from scipy import special

    k = len(rates)
    a, b = _pieces(k, measure)
    bound = 1 + 2 * special.gammaincinv((k - 1) / 2, confidence) / games  # the chi-square quantile: stats.chi2.ppf
    high = float(np.max(_support(a, rates, bound)[0] + b))
    uniform = np.full(k, 1 / k)
    if np.sum(rates**2 / uniform) <= bound:  # equal seats are not rejected: the fair value is in the set
        return float(np.max(a @ uniform + b)), high
    from scipy import optimize  # here, past the fair games' answer: a fair game's run needs no optimiser

    def dual(w):
        value, p = _support(-(w @ a), rates, bound)
        return -(w @ b - value[0]), -(b + a @ p[0])

    start = np.full(len(a), 1 / len(a))
    total = {"type": "eq", "fun": lambda w: w.sum() - 1, "jac": lambda w: np.ones_like(w)}
    fit = optimize.minimize(dual, start, jac=True, bounds=[(0, 1)] * len(a), method="SLSQP", constraints=[total],
                            options={"ftol": 1e-12, "maxiter": 500})
    return float(-fit.fun), high


@dataclass(frozen=True)
class SeatBalance:
    """How evenly the seats win: the chi-square test of equal seats and what it lets one say."""

    games: int
    rates: np.ndarray  # each seat's win rate (win shares per game)
    p_value: float  # chi-square test of equal seats on the seats' summed win shares
    gap: float  # best minus worst seat win rate, bias-corrected (below 0: within noise of 0)
    gap_plugin: float  # best minus worst seat win rate as observed (biased upward)
    gap_variance: float  # sampling variance of the gap estimate
    gap_low: float  # the gaps of every win-probability vector the test does not reject
    gap_high: float
    balance: float  # 1 - scaled distance of the rates from uniform, bias-corrected
    balance_variance: float
    balance_low: float
    balance_high: float
    statement: str  # the test's answer in words

    @property
    def advantage(self) -> bool:
        """True where the test finds the seats unequal at 5%."""
        return bool(self.p_value < 0.05)


def seat_balance(shares: np.ndarray, confidence: float = stats.CONFIDENCE, intervals: bool = True) -> SeatBalance:
    """Seat balance from a games x seats array of win shares (a shared victory split among its winners).

    - Test: Pearson's chi-square of the seats' summed win shares against equal
      shares (scipy.stats.chisquare). With fractional shares the share vector of a
      game varies less than one whole win would, so the test is conservative, never
      anti-conservative.
    - Point values: the plug-in gap is biased upward (and the balance downward):
      the estimate subtracts the bias, estimated by drawing seat win-rate vectors
      from their normal approximation (mean the observed rates, covariance the
      games' sample covariance / games; seeded). Near a fair game the corrected
      gap can fall below 0, which means "within noise of 0".
    - Intervals (`intervals=True`): every vector of seat win probabilities p the
      same chi-square statistic does not reject at `confidence` is a plausible
      truth; the interval runs from the smallest to the largest gap (balance) over
      that set. It contains 0 (1) exactly when equal seats are not rejected, and
      covers the true value at least at `confidence` (with two seats exactly:
      it is the Wilson interval of a seat's rate, turned into a gap).
    """
    shares = np.asarray(shares, dtype=float)
    games, k = shares.shape
    summed = shares.sum(axis=0)
    return _seat_balance(games, summed / games, summed, _covariance(games, summed, shares.T @ shares), confidence,
                         intervals)


def _covariance(games: int, summed: np.ndarray, products: np.ndarray) -> np.ndarray | None:
    """The seats' sample covariance of win shares from the games, the summed shares and the summed products
    of two seats' shares (None with fewer than two games or seats). The rows and the task summaries both
    compute it so: shares such as 0, 1/2 and 1 sum exactly, and the covariance, its eigenvectors and the bias
    correction drawn along them are then the same bit for bit, however the games were split into tasks."""
    if games < 2 or len(summed) < 2:
        return None
    return (products - np.outer(summed, summed) / games) / (games - 1)


def _seat_balance(games: int, rates: np.ndarray, summed: np.ndarray, cov: np.ndarray | None, confidence: float,
                  intervals: bool) -> SeatBalance:
    """`seat_balance` from the games, the seats' win rates and summed shares, and the shares' sample covariance
    (None with fewer than two games or seats): what the rows and the task summaries both give."""
    from scipy import special

    k = len(rates)
    p_value = float("nan")
    if k > 1 and games > 0:  # Pearson's chi-square of the summed shares against their mean: stats.chisquare's steps
        expected = summed.mean()
        p_value = float(special.chdtrc(k - 1, ((summed - expected) ** 2 / expected).sum()))
    gap, bal = float(gap_of(rates)), float(balance_of(rates))
    if cov is not None:
        values, vectors = np.linalg.eigh(cov / games)
        draws = np.random.default_rng(BIAS_SEED).standard_normal((BIAS_DRAWS, k))
        simulated = rates + (draws * np.sqrt(np.clip(values, 0, None))) @ vectors.T
        gaps, bals = gap_of(simulated), balance_of(simulated)
        gap_fixed, gap_var = 2 * gap - float(gaps.mean()), float(gaps.var(ddof=1))
        bal_fixed, bal_var = 2 * bal - float(bals.mean()), float(bals.var(ddof=1))
    else:
        gap_fixed = gap_var = bal_fixed = bal_var = float("nan")
    if intervals and games > 0 and k > 1:
        gap_low, gap_high = _extent(rates, games, confidence, "gap")
        tv_low, tv_high = _extent(rates, games, confidence, "tv")
        scale = 1 - 1 / k
        bal_low, bal_high = 1 - tv_high / scale, 1 - tv_low / scale
    else:
        gap_low = gap_high = bal_low = bal_high = float("nan")
    return SeatBalance(games, rates, p_value, gap_fixed, gap, gap_var, gap_low, gap_high, bal_fixed, bal_var,
                       bal_low, bal_high, _statement(rates, games, p_value, gap_high))


def _statement(rates: np.ndarray, games: int, p_value: float, gap_high: float) -> str:
    k = len(rates)
    if np.isnan(p_value):
        return "no test: needs at least one game and two seats"
    if p_value >= 0.05:
        bound = f"; the seats' win rates differ by at most {gap_high:.2f}" if not np.isnan(gap_high) else ""
        return f"no evidence of a seat advantage (chi-square p = {p_value:.2g}{bound})"
    seat = int(np.argmax(np.abs(rates - 1 / k)))
    low, high = stats.wilson_interval(rates[seat] * games, games)
    more = "more" if rates[seat] > 1 / k else "less"
    return (f"seat {seat} wins {more} often than fair: {rates[seat]:.2f} [{float(low):.2f}, {float(high):.2f}] "
            f"against 1/{k} (chi-square p = {p_value:.2g})")


def _shown(estimate: float, low: float, high: float) -> float:
    """A bias-corrected value for a table: inside its interval where there is one, else inside 0..1."""
    if np.isnan(low):
        low, high = 0.0, 1.0
    return float(np.clip(estimate, low, high))


def balance_metrics(raw: pd.DataFrame, intervals: bool = True) -> pd.DataFrame:
    """The headline measures, one row each: value, interval, and how it was computed.

    `intervals=False` skips the seat-balance intervals (they solve small convex programs).
    """
    shares = win_shares(raw).to_numpy()
    games = len(shares)
    per_game = per_game_measures(raw)
    length = "rounds" if "rounds" in per_game.columns else "actions"
    means = {name: stats.mean_interval(per_game[name])
             for name in (length, "margin", "lead_changes") if name in per_game.columns}
    counts = {name: int(per_game[name].sum()) for name in ("decided_by_tiebreak", "shared_victory")}
    return _balance_table(seat_balance(shares, intervals=intervals), games, length, means,
                          float(per_game[length].std(ddof=1)), counts)


def _balance_table(seats: SeatBalance, games: int, length: str, means: dict[str, tuple[float, float, float]],
                   length_sd: float, counts: dict[str, int]) -> pd.DataFrame:
    """The balance table from the seat balance, the per-game means with their intervals (`length`, margin,
    lead changes where recorded), the sd of the length and the games decided by the tie-break or shared."""
    import pandas as pd

    rows = [("seat_advantage_p", seats.p_value, float("nan"), float("nan"), seats.statement)]
    rows.append(("largest_seat_gap", _shown(seats.gap, seats.gap_low, seats.gap_high), seats.gap_low,
                 seats.gap_high, f"best minus worst seat win rate, bias-corrected (observed {seats.gap_plugin:.3g}); "
                 "interval: the gaps the chi-square test does not reject"))
    rows.append(("balance", _shown(seats.balance, seats.balance_low, seats.balance_high),
                 seats.balance_low, seats.balance_high,
                 f"1 = every seat wins equally often; bias-corrected (observed {float(balance_of(seats.rates)):.3g}); "
                 "interval as for the gap"))
    rows.append((f"mean_{length}", *means[length], "t interval"))
    rows.append((f"sd_{length}", length_sd, float("nan"), float("nan"), "spread"))
    rows.append(("mean_margin", *means["margin"], "first minus second score; t interval"))
    for name, column, how in (("share_decided_by_tiebreak", "decided_by_tiebreak", "top score tied, one winner; "
                               "Wilson"), ("share_shared_victory", "shared_victory", "several winners; Wilson")):
        k = counts[column]
        low, high = stats.wilson_interval(k, games)
        rows.append((name, k / games, float(low), float(high), how))
    if "lead_changes" in means:
        rows.append(("mean_lead_changes", *means["lead_changes"], "t interval"))
    return pd.DataFrame(rows, columns=["metric", "value", "ci_low", "ci_high", "how"])


# The balance table's summary form (see tyrsim.core.engine.analysis.TaskSummary): per seat its summed win shares, per
# pair of seats the summed products of their shares (the covariance), per per-game quantity its count, sum and
# sum of squares; added up over tasks they give the same table as `balance_metrics` of all the rows, to rounding.
BALANCE_KEYS = {"balance.seats": ("seat",), "balance.products": ("seat", "other"), "balance.games": ("quantity",)}


def balance_summary(raw: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """One task's part of the balance table: the parts `BALANCE_KEYS` names."""
    import pandas as pd

    seats, values = seat_grid(raw, "win_share")
    seats, values = seats.astype(np.int64), values.astype(float)
    products = values.T @ values
    per_game = per_game_measures(raw)
    quantities = [c for c in ("rounds", "actions", "lead_changes", "margin") if c in per_game.columns]
    rows = [(name, *moments(per_game[name])) for name in quantities]
    rows += [(name, len(per_game), float(per_game[name].sum()), float(per_game[name].sum()))
             for name in ("decided_by_tiebreak", "shared_victory")]  # 0 or 1 a game: its square is itself
    return {
        "balance.seats": pd.DataFrame({"seat": seats, "shares": values.sum(axis=0)}),
        "balance.products": pd.DataFrame({"seat": np.repeat(seats, len(seats)), "other": np.tile(seats, len(seats)),
                                          "products": products.ravel()}),
        "balance.games": pd.DataFrame(rows, columns=["quantity", "n", "total", "squares"]).astype({"n": np.int64}),
    }


def balance_from_totals(totals: Totals, intervals: bool = True) -> pd.DataFrame:
    """`balance_metrics` from the added-up `balance_summary` of every task."""
    seats = totals["balance.seats"].sort_values("seat")
    summed = seats["shares"].to_numpy(dtype=float)
    games_table = totals["balance.games"].set_index("quantity")
    games = int(games_table.loc["decided_by_tiebreak", "n"])
    products = (totals["balance.products"].pivot(index="seat", columns="other", values="products")
                .sort_index().sort_index(axis=1).to_numpy(dtype=float))
    length = "rounds" if "rounds" in games_table.index else "actions"
    means = {name: moment_interval(*games_table.loc[name, ["n", "total", "squares"]])
             for name in (length, "margin", "lead_changes") if name in games_table.index}
    length_sd = float(moment_estimates(*games_table.loc[length, ["n", "total", "squares"]])[1])
    counts = {name: int(games_table.loc[name, "total"]) for name in ("decided_by_tiebreak", "shared_victory")}
    seats = _seat_balance(games, summed / games, summed, _covariance(games, summed, products), stats.CONFIDENCE,
                          intervals)
    return _balance_table(seats, games, length, means, length_sd, counts)


def per_game_measures(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per game (in game order): the per-game quantities the balance measures average.

    `rounds`, `actions` and `lead_changes` where the table has them; `margin`
    (first minus second score), `decided_by_tiebreak` (top score tied, one
    winner), `shared_victory` (several winners), `mean_score` (over the seats)
    and `first_seat_share` (seat 0's win share).
    """
    import pandas as pd

    first_rows = np.unique(raw["game_id"].to_numpy(), return_index=True)[1]  # each game's first row, in id order
    per_game = raw.iloc[first_rows].set_index("game_id")
    seats, scores = seat_grid(raw, "score")
    ordered = np.sort(scores, axis=1)
    winners = np.nansum(seat_grid(raw, "won")[1], axis=1)
    top_tied = (scores == ordered[:, -1:]).sum(axis=1) > 1
    measures = {c: per_game[c] for c in ("rounds", "actions", "lead_changes") if c in per_game.columns}
    measures |= {
        "margin": ordered[:, -1] - ordered[:, -2] if scores.shape[1] > 1 else 0.0,
        "decided_by_tiebreak": top_tied & (winners == 1),
        "shared_victory": winners > 1,
        "mean_score": scores.mean(axis=1),
        "first_seat_share": seat_grid(raw, "win_share")[1][:, list(seats).index(0)],
    }
    return pd.DataFrame(measures, index=per_game.index)


def seat_grid(raw: pd.DataFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    """(the seats in order, `column` as a games x seats array, games in id order): the values of
    `raw.pivot(index="game_id", columns="seat", values=column).sort_index()`, NaN where a game lacks a seat,
    placed by numpy (a task summary reads three such grids of every chunk of games)."""
    games, game_of_row = np.unique(raw["game_id"].to_numpy(), return_inverse=True)
    seats, seat_of_row = np.unique(raw["seat"].to_numpy(), return_inverse=True)
    values = raw[column].to_numpy()
    if len(values) == len(games) * len(seats):  # one row per game and seat: every cell is filled
        grid = np.empty((len(games), len(seats)), dtype=values.dtype)
    else:
        grid = np.full((len(games), len(seats)), np.nan)
    grid[game_of_row, seat_of_row] = values
    return seats, grid


def skill_gap(strong_vs_random: pd.DataFrame, strong: str, self_play: pd.DataFrame | None = None) -> pd.DataFrame:
    """How much skill matters.

    `strong_vs_random`: games of `strong` against `random` (seats rotated): the
    strong policy's win rate minus its fair share, with a Wilson interval.
    `self_play`: games of `strong` against itself: the largest seat gap there is
    the part of any edge that seat order alone explains.
    """
    import pandas as pd

    mine = strong_vs_random[strong_vs_random["policy"] == strong]
    games, wins = len(mine), mine["win_share"].sum()
    fair = 1 / strong_vs_random["seat"].nunique()
    low, high = stats.wilson_interval(wins, games)
    rows = [("skill_gap_vs_random", wins / games - fair, float(low) - fair, float(high) - fair,
             f"{strong} win rate against random minus 1/n; Wilson")]
    if self_play is not None:
        seats = seat_balance(win_shares(self_play).to_numpy())
        rows.append(("self_play_seat_gap", _shown(seats.gap, seats.gap_low, seats.gap_high), seats.gap_low,
                     seats.gap_high, f"{strong} against itself: best minus worst seat, bias-corrected; "
                     f"{seats.statement}"))
    return pd.DataFrame(rows, columns=["metric", "value", "ci_low", "ci_high", "how"])
