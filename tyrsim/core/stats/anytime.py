"""Anytime-valid intervals (confidence sequences) for a page that is read while its games are still being played.

A fixed-n interval (Wilson, t) covers the truth with 95% at one planned look; recomputed after every chunk and
read whenever the reader likes, it misses far more often (tests/test_anytime.py shows it). A confidence
sequence covers the truth at every look at once: P(the truth lies outside the interval at any look) <= alpha,
so a reader may watch it narrow and stop whenever they like.

- `BoundedMean`: the mean of observations known to lie in [low, high] (a seat's win share in [0, 1]; the paired
  difference between a variant and the rulebook's rules on the same game in [-1, 1]). The predictable plug-in
  empirical-Bernstein confidence sequence of Waudby-Smith and Ramdas (2024), "Estimating means of bounded random
  variables by betting", J. R. Stat. Soc. B 86(1), Theorem 2, eq. (13)-(15): non-asymptotic, valid for any
  distribution on the interval, and narrow where the observations vary little, as a difference under common
  random numbers mostly does (most games are the same under both rules, their difference 0).
- `proportion_interval`: a share in [0, 1] (a seat's or a policy's win rate), whose variance in a game near
  balance is near its largest, 1/4: the normal-mixture boundary below with that variance (Hoeffding's), closed
  form and non-asymptotic, narrower there than the empirical-Bernstein sequence's.
- `normal_mixture_radius`: the two-sided normal-mixture (Robbins) boundary of Howard, Ramdas, McAuliffe and
  Sekhon (2021), "Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Statist. 49(2),
  Section 3.2, eq. (14). With the observations' running standard deviation in place of a known one it is the
  asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas (2024), "Time-uniform
  central limit theory and asymptotic confidence sequences", Ann. Statist., Theorem 2.2: what
  `unbounded_mean_interval` gives a mean with no bounds known ahead (a score, a game's length).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

ALPHA = 0.05  # every interval's chance of missing the truth at any look, over the whole session
TRUNCATION = 0.5  # the largest bet lambda_t (the paper's c: 1/2 or 3/4)
PLANNED_GAMES = 20_000  # where the normal-mixture boundary is made narrowest (its rho): near a +-1 point win rate


def normal_mixture_radius(intrinsic_time, rho: float, alpha: float = ALPHA):
    """The two-sided normal-mixture boundary u(v) = sqrt((v + rho) log((v + rho) / (rho alpha^2))) at intrinsic
    time v (the variance of the sum so far): P(exists t: |S_t| >= u(V_t)) <= alpha for a sum S_t of
    mean-zero 1-sub-Gaussian steps whose variance process is V_t (Howard et al. 2021, eq. (14); Ville's
    inequality applied to the mixture of exp(lambda S_t - lambda^2 V_t / 2) over lambda ~ N(0, 1 / rho))."""
    v = np.asarray(intrinsic_time, dtype=float)
    return np.sqrt((v + rho) * np.log((v + rho) / (rho * alpha**2)))


def planned_rho(planned: int = PLANNED_GAMES, alpha: float = ALPHA) -> float:
    """The rho of a unit-variance normal mixture whose boundary is narrowest near `planned` observations
    (Waudby-Smith et al. 2024, Section 2.5: rho^2 = (-2 log alpha + log(-2 log alpha + 1)) / t*), in the
    intrinsic-time scale of `normal_mixture_radius` (1 / rho^2)."""
    a = -2 * math.log(alpha)
    return planned / (a + math.log(a + 1))


def proportion_interval(n, share, alpha: float = ALPHA, planned: int = PLANNED_GAMES):
    """(low, high) of the confidence sequence for a share in [0, 1] after n observations (arrays broadcast; NaN
    without observations): observations in [0, 1] are 1/2-sub-Gaussian (Hoeffding), so their sum strays from
    n * share by less than u(n / 4) at every n at once, u the normal-mixture boundary."""
    n = np.asarray(n, dtype=float)
    variance = 0.25
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(n > 0, normal_mixture_radius(variance * n, variance * planned_rho(planned), alpha) / n, np.nan)
    return np.clip(share - half, 0.0, 1.0), np.clip(share + half, 0.0, 1.0)


def unbounded_mean_interval(n, mean, sd, alpha: float = ALPHA, planned: int = PLANNED_GAMES):
    """(low, high) of the asymptotic confidence sequence for a mean with no bounds known ahead: the mean of n
    observations +- sd * u(n) / n, u the normal-mixture boundary (arrays broadcast; NaN below 2 observations)."""
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(n > 1, np.asarray(sd, dtype=float) * normal_mixture_radius(n, planned_rho(planned), alpha) / n,
                        np.nan)
    return mean - half, mean + half


def running_sums(start, steps):
    """start + steps[..., 0], then + steps[..., 1], ... added one at a time along the last axis: the same floats
    however the steps were split into batches (`start[..., None] + np.cumsum(steps)` rounds differently)."""
    steps = np.asarray(steps, dtype=float)
    start = np.broadcast_to(np.asarray(start, dtype=float), steps.shape[:-1])
    return np.cumsum(np.concatenate([start[..., None], steps], axis=-1), axis=-1)[..., 1:]


def _psi(lam: np.ndarray) -> np.ndarray:
    """psi_E(lambda) = (-log(1 - lambda) - lambda) / 4, the empirical-Bernstein penalty of a bet lambda."""
    return (-np.log1p(-lam) - lam) / 4


@dataclass
class BoundedMean:
    """The empirical-Bernstein confidence sequence for the mean of observations in [low, high], fed in order.

    `shape` (default: one sequence) holds several independent sequences at once, each fed along the last axis of
    `add`'s values (the simulations in the tests run a thousand sessions side by side). The observations are
    rescaled to [0, 1]; for observation i (Waudby-Smith and Ramdas 2024, eq. (13)-(15)):
        mu_i = (1/2 + sum_{j<=i} x_j) / (i + 1),   sigma2_i = (1/4 + sum_{j<=i} (x_j - mu_j)^2) / (i + 1),
        lambda_i = min(sqrt(2 log(2 / alpha) / (sigma2_{i-1} i log(1 + i))), c),
    and after t observations the interval is
        sum lambda_i x_i / sum lambda_i  +-  (log(2 / alpha) + sum 4 (x_i - mu_{i-1})^2 psi(lambda_i)) / sum lambda_i,
    intersected with every earlier one (a confidence sequence stays one when so narrowed) and with [0, 1].
    """

    low: float = 0.0
    high: float = 1.0
    alpha: float = ALPHA
    shape: tuple[int, ...] = ()
    n: int = 0
    _sums: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.high > self.low:
            raise ValueError(f"a bounded mean needs low < high, not [{self.low}, {self.high}]")
        zero = np.zeros(self.shape)
        # running sums of x, of (x_i - mu_i)^2, of lambda, of lambda x, of the penalties; the narrowest bounds
        self._sums = {"x": zero, "spread": zero, "bets": zero, "bet_x": zero, "penalty": zero,
                      "lo": zero.copy(), "hi": zero + 1.0}

    def add(self, values) -> None:
        """Feed the next observations, in order (along the last axis); a value outside [low, high] is an error."""
        x = np.asarray(values, dtype=float)
        if x.ndim == 0 or x.shape[:-1] != self.shape:
            raise ValueError(f"expected observations of shape {(*self.shape, 'k')}, not {x.shape}")
        if x.shape[-1] == 0:
            return
        if np.any(x < self.low) or np.any(x > self.high) or np.any(np.isnan(x)):
            raise ValueError(f"an observation lies outside [{self.low}, {self.high}]")
        x = (x - self.low) / (self.high - self.low)
        s = self._sums
        i = self.n + np.arange(1, x.shape[-1] + 1)  # the observations' places, from 1
        total = running_sums(s["x"], x)
        mu = (0.5 + total) / (i + 1)  # mu_i
        mu_before = np.concatenate([((0.5 + s["x"]) / (self.n + 1))[..., None], mu[..., :-1]], axis=-1)
        spread = running_sums(s["spread"], (x - mu) ** 2)
        sigma2_before = np.concatenate([((0.25 + s["spread"]) / (self.n + 1))[..., None],
                                        ((0.25 + spread) / (i + 1))[..., :-1]], axis=-1)
        lam = np.minimum(np.sqrt(2 * math.log(2 / self.alpha) / (sigma2_before * i * np.log1p(i))), TRUNCATION)
        bets = running_sums(s["bets"], lam)
        bet_x = running_sums(s["bet_x"], lam * x)
        penalty = running_sums(s["penalty"], 4 * (x - mu_before) ** 2 * _psi(lam))
        centre, half = bet_x / bets, (math.log(2 / self.alpha) + penalty) / bets
        # the running intersection over every look, the looks inside this batch included
        lo = np.maximum(s["lo"], np.max(centre - half, axis=-1))
        hi = np.minimum(s["hi"], np.min(centre + half, axis=-1))
        self._sums = {"x": total[..., -1], "spread": spread[..., -1], "bets": bets[..., -1],
                      "bet_x": bet_x[..., -1], "penalty": penalty[..., -1],
                      "lo": np.clip(lo, 0.0, 1.0), "hi": np.clip(hi, 0.0, 1.0)}
        self.n += x.shape[-1]

    def estimate(self):
        """The plain mean of the observations so far (NaN before the first), on their own scale."""
        if self.n == 0:
            return np.full(self.shape, np.nan)[()]
        return (self.low + (self.high - self.low) * self._sums["x"] / self.n)[()]

    def interval(self):
        """(low, high): the confidence sequence's bounds after the observations so far, on their own scale."""
        width = self.high - self.low
        return (self.low + width * self._sums["lo"])[()], (self.low + width * self._sums["hi"])[()]

    def excludes(self, value: float) -> bool:
        """Whether the interval (of a single sequence) excludes `value`: only then is a difference stated."""
        lo, hi = self.interval()
        return bool(value < lo or value > hi)
