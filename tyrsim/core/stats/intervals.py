"""Uncertainty for every Monte Carlo number: intervals, comparisons, sample sizes.

- proportions: Wilson score interval;
- means: Student t interval;
- a variant against a baseline: for a proportion, the difference with a Newcombe
  (Wilson-based) interval and a two-proportion z test (equivalently the 2x2
  chi-square test without continuity correction); for a mean, the difference
  with a Welch t interval and Welch's t test; Holm's correction across the
  variants compared in one study. Where no test is possible the p-value is NaN
  (never 0), and samples without variation get an exact test instead
  (`proportion_tests`, `mean_tests` name the test of each row);
- the same trials under two variants (common random numbers): the mean of the
  paired differences with a t interval, and the paired t test, or an exact
  sign-flip test when few pairs differ (`compare_paired`);
- sample size: trials needed for a target interval half-width.

All distributions come from scipy, imported where a function needs it: a compiled engine's process
imports this module (through `tyrsim.core.engine.analysis`) but plays no statistics, and scipy.stats is
more than half of its start-up. The intervals every table carries take their quantiles from the functions
scipy.stats calls for them (`special.ndtri` is `norm.ppf`, `special.stdtrit` is `t.ppf`, the same values to
the last bit), so a run that only prints tables never imports scipy.stats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CONFIDENCE = 0.95


def _z(confidence: float) -> float:
    from scipy import special
    return float(special.ndtri(0.5 + confidence / 2))  # the normal quantile: what stats.norm.ppf computes


def wilson_interval(successes, n, confidence: float = CONFIDENCE):
    """Wilson score interval for `successes` out of `n` (arrays broadcast).

    Where n is 0 the interval is (nan, nan).
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = _z(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
        # at k = 0 (k = n) the bound is exactly 0 (1); rounding must not move it
        low = np.where(n > 0, np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0)), np.nan)
        high = np.where(n > 0, np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0)), np.nan)
    return low, high


def t_interval(mean, sd, n, confidence: float = CONFIDENCE):
    """Student t interval for a mean from its sample mean, sd and size (arrays broadcast)."""
    from scipy import special
    mean = np.asarray(mean, dtype=float)
    sd = np.asarray(sd, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.where(n > 1, n - 1, np.nan)
        half = special.stdtrit(df, 0.5 + confidence / 2) * sd / np.sqrt(n)  # the t quantile: stats.t.ppf
    return mean - half, mean + half


def mean_interval(values, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(mean, low, high) of a sample by the t interval."""
    values = np.asarray(values, dtype=float)
    n = values.size
    mean = float(values.mean()) if n else math.nan
    sd = float(values.std(ddof=1)) if n > 1 else math.nan
    low, high = t_interval(mean, sd, n, confidence)
    return mean, float(low), float(high)


def share_interval(values, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(mean, low, high) of shares in [0, 1] (one per trial): the t interval, clipped to [0, 1]."""
    mean, low, high = mean_interval(values, confidence)
    return mean, min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)


# The test behind each comparison row (compare_proportions / compare_means report it per row).
Z_TEST = "two-proportion z"
FISHER_NO_VARIATION = "Fisher exact (no variation in either sample)"
WELCH = "Welch t"
PERMUTATION_NO_SPREAD = "exact permutation (no spread in either sample)"
NO_TRIALS = "none (no trials on one side)"
TOO_FEW_TRIALS = "none (fewer than 2 trials on one side)"


def proportion_tests(k1, n1, k0, n0) -> np.ndarray:
    """Which test `compare_proportions` runs on each row (arrays broadcast).

    - no trials on a side: no test (p-value NaN);
    - every trial on both sides a success, or every one a failure: the difference
      is exactly 0 and Fisher's exact test gives p = 1 (the z statistic is 0/0);
    - otherwise the two-proportion z test.
    """
    k1, n1, k0, n0 = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (k1, n1, k0, n0)))
    pooled_constant = ((k1 + k0) == 0) | ((k1 + k0) == (n1 + n0))
    return np.where((n1 > 0) & (n0 > 0), np.where(pooled_constant, FISHER_NO_VARIATION, Z_TEST), NO_TRIALS)


def compare_proportions(k1, n1, k0, n0, confidence: float = CONFIDENCE):
    """Variant (k1/n1) against baseline (k0/n0).

    Returns (difference, low, high, p_value): the Newcombe hybrid score interval
    for the difference and the two-sided two-proportion z test with pooled
    variance, which is the 2x2 chi-square test without continuity correction.
    Where a side has no trials everything is NaN; see `proportion_tests` for the
    rows no z test fits.
    """
    from scipy import stats
    k1, n1, k0, n0 = (np.asarray(x, dtype=float) for x in (k1, n1, k0, n0))
    test = proportion_tests(k1, n1, k0, n0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p0 = k1 / n1, k0 / n0
        l1, h1 = wilson_interval(k1, n1, confidence)
        l0, h0 = wilson_interval(k0, n0, confidence)
        diff = p1 - p0
        low = diff - np.sqrt((p1 - l1) ** 2 + (h0 - p0) ** 2)
        high = diff + np.sqrt((h1 - p1) ** 2 + (p0 - l0) ** 2)
        pooled = (k1 + k0) / (n1 + n0)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n0))
        z_p = 2 * stats.norm.sf(np.abs(diff / se))
    p_value = np.select([test == Z_TEST, test == FISHER_NO_VARIATION], [z_p, 1.0], np.nan)
    return diff, low, high, p_value


def mean_tests(s1, n1, s0, n0) -> np.ndarray:
    """Which test `compare_means` runs on each row (arrays broadcast).

    - fewer than 2 trials on a side: the spread is unknown, so no test (p NaN,
      no interval);
    - at least 2 trials on each side, both without spread (sd = 0: every trial of
      a side gave the same value): the samples are known completely, and the exact
      permutation test applies; Welch's statistic would be 0/0 or infinite;
    - otherwise Welch's t (one side without spread is fine: the other side's
      spread carries the test).
    """
    s1, n1, s0, n0 = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (s1, n1, s0, n0)))
    enough = (n1 >= 2) & (n0 >= 2) & ~np.isnan(s1) & ~np.isnan(s0)
    return np.where(enough, np.where((s1 == 0) & (s0 == 0), PERMUTATION_NO_SPREAD, WELCH), TOO_FEW_TRIALS)


def compare_means(m1, s1, n1, m0, s0, n0, confidence: float = CONFIDENCE):
    """Variant mean against baseline mean from summary statistics.

    Returns (difference, low, high, p_value) by Welch's t (unequal variances,
    Welch-Satterthwaite degrees of freedom). Rows no t test fits (see
    `mean_tests`):

    - fewer than 2 trials on a side: p-value and interval NaN;
    - no spread on either side: the exact permutation test of the difference in
      means (two-sided as twice the one-sided p, like scipy.stats.permutation_test).
      Every value of a side equals its mean, so of the C(n1 + n0, n1) labellings
      only the observed one is as extreme as the data: p = min(1, 2 / C(n1 + n0, n1)),
      and p = 1 when the means are equal. The interval inverts that test: any
      shift other than the observed difference leaves the samples fully apart and
      is rejected when that p is below 1 - confidence, so the interval is the
      single value `difference`; with too few trials to reject anything it is
      (-inf, inf).
    """
    from scipy import special, stats
    m1, s1, n1, m0, s0, n0 = (np.asarray(x, dtype=float) for x in (m1, s1, n1, m0, s0, n0))
    test = mean_tests(s1, n1, s0, n0)
    diff = m1 - m0
    with np.errstate(divide="ignore", invalid="ignore"):
        v1, v0 = s1**2 / n1, s0**2 / n0
        se = np.sqrt(v1 + v0)
        df = (v1 + v0) ** 2 / (v1**2 / (n1 - 1) + v0**2 / (n0 - 1))
        half = stats.t.ppf(0.5 + confidence / 2, df) * se
        welch_p = 2 * stats.t.sf(np.abs(diff / se), df)
        # log C(n1 + n0, n1): the labellings of the pooled trials, one of them as extreme as the data
        log_labellings = special.gammaln(n1 + n0 + 1) - special.gammaln(n1 + 1) - special.gammaln(n0 + 1)
        separated_p = np.minimum(1.0, 2.0 * np.exp(-log_labellings))
    welch, exact = test == WELCH, test == PERMUTATION_NO_SPREAD
    p_value = np.select([welch, exact & (diff == 0), exact], [welch_p, 1.0, separated_p], np.nan)
    exact_half = np.where(separated_p < 1 - confidence, 0.0, np.inf)
    half = np.select([welch, exact], [half, exact_half], np.nan)
    return diff, diff - half, diff + half, p_value


PAIRED_T = "paired t"
SIGN_FLIP = "exact sign-flip"
NO_PAIR_DIFFERS = "exact (no pair differs)"
EXACT_SIGN_FLIP_MAX = 12  # up to this many differing pairs the sign-flip test enumerates all 2^m signs


@dataclass(frozen=True)
class Paired:
    """A paired comparison: the mean difference, its interval, the p-value and the test behind it."""

    difference: float
    low: float
    high: float
    p_value: float
    test: str
    pairs: int
    differing: int  # pairs whose difference is not 0


def compare_paired(differences, confidence: float = CONFIDENCE) -> Paired:
    """Variant minus baseline over pairs of trials that share their random numbers.

    The mean difference has a t interval. The test of "no difference" depends on
    how many pairs differ at all (m of n; the others carry no sign information):

    - fewer than 2 pairs: no interval, p NaN;
    - m = 0: nothing differed; the difference is exactly 0, and so is the interval; p = 1;
    - m <= EXACT_SIGN_FLIP_MAX: the exact sign-flip (permutation) test: under no
      difference each differing pair's sign is a fair coin, and p is the share of
      the 2^m sign patterns whose sum is at least as far from 0 as the observed one.
      The t test would be far too bold with a handful of non-zero pairs;
    - otherwise the paired t test (scipy.stats.ttest_1samp on the differences); if
      every difference is the same non-zero value the exact sign-flip p, 2 / 2^n.
    """
    from scipy import stats
    d = np.asarray(differences, dtype=float)
    d = d[~np.isnan(d)]
    n = int(d.size)
    nonzero = d[d != 0]
    m = int(nonzero.size)
    if n < 2:
        return Paired(math.nan, math.nan, math.nan, math.nan, TOO_FEW_TRIALS, n, m)
    if m == 0:
        return Paired(0.0, 0.0, 0.0, 1.0, NO_PAIR_DIFFERS, n, 0)
    mean, low, high = mean_interval(d, confidence)
    if m <= EXACT_SIGN_FLIP_MAX:
        signs = 1 - 2 * ((np.arange(2**m)[:, None] >> np.arange(m)) & 1)
        sums = np.abs(signs @ nonzero)
        observed = abs(float(nonzero.sum()))
        p = float(np.mean(sums >= observed - 1e-9 * max(1.0, observed)))
        return Paired(mean, low, high, p, SIGN_FLIP, n, m)
    if d.std(ddof=1) == 0:
        return Paired(mean, mean, mean, min(1.0, 2.0 ** (1 - n)), SIGN_FLIP, n, m)
    return Paired(mean, low, high, float(stats.ttest_1samp(d, 0.0).pvalue), PAIRED_T, n, m)


def holm(p_values) -> np.ndarray:
    """Holm-adjusted p-values (family-wise error control), same order as given."""
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if not ok.any():
        return out
    q = p[ok]
    order = np.argsort(q, kind="stable")
    m = q.size
    adjusted = np.maximum.accumulate((m - np.arange(m)) * q[order])
    result = np.empty(m)
    result[order] = np.minimum(adjusted, 1.0)
    out[ok] = result
    return out


def trials_for_proportion(half_width: float, p: float = 0.5, confidence: float = CONFIDENCE) -> int:
    """Trials for a proportion's interval half-width (normal approximation; p=0.5 is the worst case).

    Raises OverflowError when the count is beyond a float (a half-width near 1e-160 or below).
    """
    if not 0 < half_width < 1:  # also refuses nan
        raise ValueError(f"half-width must be between 0 and 1, got {half_width}")
    if not 0 <= p <= 1:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    return max(1, math.ceil((_z(confidence) * math.sqrt(p * (1 - p)) / half_width) ** 2))


def trials_for_mean(half_width: float, sd: float, confidence: float = CONFIDENCE) -> int:
    """Trials for a mean's interval half-width given the per-trial standard deviation.

    Raises OverflowError when the count is beyond a float.
    """
    if not (0 < half_width < math.inf and 0 <= sd < math.inf):  # also refuses nan
        raise ValueError(f"half-width must be positive and sd non-negative, both finite; got {half_width}, {sd}")
    return max(2, math.ceil((_z(confidence) * sd / half_width) ** 2))
